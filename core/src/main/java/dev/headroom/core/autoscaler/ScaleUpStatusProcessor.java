package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Scale-up status processing (autoscaler spec §7, capacitybuffer spec §7.6): virtual pods are filtered out
 * first and reported on their buffers; real pods get the upstream pod events.
 */
final class ScaleUpStatusProcessor {

  private ScaleUpStatusProcessor() {}

  static void process(Autoscaler.ScaleUpOutcome up, List<Pod> remainingReal, List<Pod> remainingVirtual,
      BufferInjector.Injection injection, Consumer<EventRecord> emit) {
    boolean triedAndDone = up.result() == ScaleUpResult.ScaleUpSuccessful || up.result() == ScaleUpResult.ScaleUpError;
    String infos = up.infosText();
    // 1. Buffers: NotTriggerScaleUp for unhelped virtual pods, TriggeredScaleUp for helping ones.
    bufferEvents(up, remainingVirtual, injection, emit, triedAndDone, infos);
    // 2. Real pods only.
    if (!up.decisions().isEmpty()) {
      triggeredPodEvents(up, emit, infos);
    }
    if (!triedAndDone && up.result() != ScaleUpResult.ScaleUpNotNeeded && up.result() != ScaleUpResult.ScaleUpInCooldown) {
      Map<String, String> messages = new java.util.HashMap<>();
      for (Pod p : remainingReal) {
        String message = messages.computeIfAbsent(up.reasonFor(p), r -> String.format(Events.POD_NOT_TRIGGERED, r));
        emit.accept(new EventRecord(ref(p), EventRecord.NORMAL, Events.NOT_TRIGGER_SCALE_UP, message));
      }
    }
  }

  private static void bufferEvents(Autoscaler.ScaleUpOutcome up, List<Pod> remainingVirtual,
      BufferInjector.Injection injection, Consumer<EventRecord> emit, boolean triedAndDone, String infos) {
    Map<BufferInjector.Entry, Set<String>> notTriggered = new LinkedHashMap<>();
    Map<BufferInjector.Entry, Integer> notTriggeredCount = new LinkedHashMap<>();
    Map<BufferInjector.Entry, Integer> triggeredCount = new LinkedHashMap<>();
    if (!up.triggeredBy().isEmpty()) {
      for (BufferInjector.Entry e : injection.entries()) {
        for (Pod p : e.pods()) {
          if (up.triggeredBy().containsKey(p)) {
            triggeredCount.merge(e, 1, Integer::sum);
          }
        }
      }
    }
    if (!triedAndDone) {
      for (Pod p : remainingVirtual) {
        if (up.triggeredBy().containsKey(p)) {
          continue;
        }
        BufferInjector.Entry e = injection.registry().get(p.getMetadata().getUid());
        if (e == null) {
          continue;
        }
        notTriggeredCount.merge(e, 1, Integer::sum);
        notTriggered.computeIfAbsent(e, k -> new LinkedHashSet<>()).add(up.reasonFor(p));
      }
    }
    if (triggeredCount.isEmpty() && notTriggeredCount.isEmpty()) {
      return;
    }
    for (BufferInjector.Entry e : injection.entries()) {
      if (!up.decisions().isEmpty() && triggeredCount.containsKey(e)) {
        emit.accept(new EventRecord(ref(e.buffer()), EventRecord.NORMAL, Events.TRIGGERED_SCALE_UP,
            String.format(Events.BUFFER_TRIGGERED, triggeredCount.get(e), infos)));
      }
      if (notTriggeredCount.containsKey(e)) {
        emit.accept(new EventRecord(ref(e.buffer()), EventRecord.NORMAL, Events.NOT_TRIGGER_SCALE_UP,
            String.format(Events.BUFFER_NOT_TRIGGERED, notTriggeredCount.get(e), String.join(",", notTriggered.get(e)))));
      }
    }
  }

  private static void triggeredPodEvents(Autoscaler.ScaleUpOutcome up, Consumer<EventRecord> emit, String infos) {
    // Sorted by "namespace/name", each key built once; in the order the options took them, which is mostly
    // input order already, so the sort has long runs to merge.
    List<KeyedPod> triggered = new ArrayList<>(up.triggeredInOrder().size());
    for (Pod p : up.triggeredInOrder()) {
      if (!VirtualPods.isVirtual(p)) {
        triggered.add(new KeyedPod(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p));
      }
    }
    triggered.sort(null);
    // One message for every triggering pod: formatted once, not per pod.
    String message = String.format(Events.POD_TRIGGERED, infos);
    for (KeyedPod k : triggered) {
      emit.accept(new EventRecord(ref(k.pod()), EventRecord.NORMAL, Events.TRIGGERED_SCALE_UP, message));
    }
  }

  private record KeyedPod(String key, Pod pod) implements Comparable<KeyedPod> {
    @Override
    public int compareTo(KeyedPod o) {
      return key.compareTo(o.key);
    }
  }

  static ObjectRef ref(CapacityBuffer b) {
    return new ObjectRef("CapacityBuffer", b.getMetadata().getNamespace(), b.getMetadata().getName(), b.getMetadata().getUid());
  }

  static ObjectRef ref(Pod p) {
    return new ObjectRef("Pod", p.getMetadata().getNamespace(), p.getMetadata().getName(), p.getMetadata().getUid());
  }
}
