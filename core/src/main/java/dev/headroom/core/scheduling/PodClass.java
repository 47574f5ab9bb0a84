package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An equivalence class of pods (autoscaler spec §2.5): pods with the same {@link CompiledPod#classId()}
 * and the same real/virtual kind, in input order. Predicates give the same answer for every member, so
 * they are run once per class against each node-group template, and a node one member failed for a
 * STATIC or MONOTONE reason is skipped for the others.
 *
 * @param exemplar the first member
 * @param pods every member, in input order (unmodifiable)
 */
public record PodClass(CompiledPod exemplar, List<CompiledPod> pods) {

  public PodClass {
    pods = List.copyOf(pods);
  }

  /** Number of members. */
  public int size() {
    return pods.size();
  }

  /** True when the members are CapacityBuffer virtual pods. */
  public boolean isVirtual() {
    return exemplar.isVirtual();
  }

  /** Groups pods by (class ID, virtual), classes in order of first appearance, members in input order. */
  public static List<PodClass> group(List<CompiledPod> pods) {
    Map<Long, List<CompiledPod>> byKey = new LinkedHashMap<>();
    long lastKey = -1;
    List<CompiledPod> last = null;
    for (CompiledPod p : pods) {
      long key = ((long) p.classId() << 1) | (p.isVirtual() ? 1 : 0);
      if (key != lastKey) {
        // Members of a class usually come in runs: look the class up once per run, not per pod.
        last = byKey.computeIfAbsent(key, k -> new ArrayList<>());
        lastKey = key;
      }
      last.add(p);
    }
    List<PodClass> out = new ArrayList<>(byKey.size());
    for (List<CompiledPod> members : byKey.values()) {
      out.add(new PodClass(members.get(0), members));
    }
    return out;
  }
}
