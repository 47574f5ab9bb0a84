package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Selects the buffers to inject, decides each one's {@code Provisioning} outcome and builds its virtual pods
 * (capacitybuffer spec §7.2, §7.3). Pure: reads the cluster view, writes nothing.
 */
public final class BufferInjector {

  /**
   * One selected buffer and what the loop does with it. Entries are compared by identity: a loop has one
   * entry per buffer, and hashing one by value would hash the buffer and every virtual pod.
   */
  public record Entry(CapacityBuffer buffer, Condition provisioning, List<Pod> pods) {
    /** True when virtual pods were injected. */
    public boolean injected() {
      return BufferConditions.TRUE.equals(provisioning.getStatus());
    }

    @Override
    public boolean equals(Object o) {
      return this == o;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }

  /**
   * The selected buffers (namespace/name order) and the registry virtual-pod UID → entry. The registry is built
   * on first use: most loops never look a virtual pod up, and it holds an entry per virtual pod.
   */
  public static final class Injection {
    private final List<Entry> entries;
    private Map<String, Entry> registry;

    public Injection(List<Entry> entries) {
      this.entries = List.copyOf(entries);
    }

    /** The selected buffers' entries. */
    public List<Entry> entries() {
      return entries;
    }

    /** Virtual-pod UID → the entry of its buffer. */
    public Map<String, Entry> registry() {
      if (registry == null) {
        Map<String, Entry> r = new HashMap<>();
        for (Entry e : entries) {
          for (Pod p : e.pods()) {
            r.put(p.getMetadata().getUid(), e);
          }
        }
        registry = java.util.Collections.unmodifiableMap(r);
      }
      return registry;
    }

    /** All virtual pods, buffer by buffer. */
    public List<Pod> pods() {
      int n = 0;
      for (Entry e : entries) {
        n += e.pods().size();
      }
      List<Pod> out = new ArrayList<>(n);
      for (Entry e : entries) {
        out.addAll(e.pods());
      }
      return out;
    }

    /** Nothing injected. */
    public static final Injection EMPTY = new Injection(List.of());
  }

  private final Set<String> allowedStrategies;
  private final int maxVirtualPodsPerBuffer;
  private final VirtualPodCache kept;

  /**
   * @param allowedStrategies status strategies that are injected (production: the active-capacity strategy)
   * @param maxVirtualPodsPerBuffer bound on pods per buffer, 0 = unlimited
   */
  public BufferInjector(Set<String> allowedStrategies, int maxVirtualPodsPerBuffer) {
    this(allowedStrategies, maxVirtualPodsPerBuffer, null);
  }

  private BufferInjector(Set<String> allowedStrategies, int maxVirtualPodsPerBuffer, VirtualPodCache kept) {
    this.allowedStrategies = Set.copyOf(allowedStrategies);
    this.maxVirtualPodsPerBuffer = maxVirtualPodsPerBuffer;
    this.kept = kept;
  }

  /** The production injector. */
  public static BufferInjector of(AutoscalerOptions options) {
    return new BufferInjector(Set.of(BufferConditions.STRATEGY_ACTIVE_CAPACITY), options.maxVirtualPodsPerBuffer());
  }

  /** The production injector of an iteration that keeps virtual pods across its loops in {@code kept}. */
  static BufferInjector of(AutoscalerOptions options, VirtualPodCache kept) {
    return new BufferInjector(Set.of(BufferConditions.STRATEGY_ACTIVE_CAPACITY), options.maxVirtualPodsPerBuffer(), kept);
  }

  /** Selects, decides and builds for every buffer of the view. */
  public Injection inject(List<CapacityBuffer> buffers, ClusterView view) {
    List<CapacityBuffer> sorted = new ArrayList<>(buffers);
    sorted.sort(Comparator.comparing((CapacityBuffer b) -> nz(b.getMetadata().getNamespace())).thenComparing(b -> nz(b.getMetadata().getName())));
    List<Entry> entries = new ArrayList<>();
    for (CapacityBuffer b : sorted) {
      if (selected(b, view)) {
        entries.add(decide(b, view));
      }
    }
    return new Injection(entries);
  }

  boolean selected(CapacityBuffer b, ClusterView view) {
    CapacityBufferStatus st = b.getStatus();
    if (st == null || st.getProvisioningStrategy() == null || !allowedStrategies.contains(st.getProvisioningStrategy())) {
      return false;
    }
    List<Condition> cs = st.getConditions();
    if (!StatusConditions.isStatus(cs, BufferConditions.READY_FOR_PROVISIONING, BufferConditions.TRUE)
        && !StatusConditions.isStatus(cs, BufferConditions.PROVISIONING, BufferConditions.TRUE)) {
      return false;
    }
    if (st.getPodTemplateRef() != null && st.getPodTemplateRef().getName() != null && st.getPodTemplateGeneration() != null) {
      try {
        Optional<PodTemplate> t = view.podTemplate(b.getMetadata().getNamespace(), st.getPodTemplateRef().getName());
        if (t.isPresent()) {
          Long gen = t.get().getMetadata() == null ? null : t.get().getMetadata().getGeneration();
          if (!Objects.equals(gen == null ? 0L : gen, st.getPodTemplateGeneration())) {
            return false;
          }
        }
      } catch (RuntimeException e) {
        return true;
      }
    }
    return true;
  }

  Entry decide(CapacityBuffer b, ClusterView view) {
    CapacityBufferStatus st = b.getStatus();
    long gen = b.getMetadata().getGeneration() == null ? 0 : b.getMetadata().getGeneration();
    if (st.getPodTemplateRef() == null || st.getReplicas() == null
        || StatusConditions.isStatus(st.getConditions(), BufferConditions.READY_FOR_PROVISIONING, BufferConditions.FALSE)) {
      return new Entry(b, BufferConditions.provisioningFailed(BufferConditions.REASON_NOT_READY_FOR_PROVISIONING,
          BufferConditions.MESSAGE_NOT_READY_FOR_PROVISIONING, gen), List.of());
    }
    int replicas = st.getReplicas();
    if (replicas <= 0) {
      return new Entry(b, BufferConditions.provisioningFailed(BufferConditions.REASON_BUFFER_IS_EMPTY,
          BufferConditions.MESSAGE_BUFFER_IS_EMPTY, gen), List.of());
    }
    String ref = st.getPodTemplateRef().getName();
    PodTemplate template;
    try {
      Optional<PodTemplate> t = view.podTemplate(b.getMetadata().getNamespace(), ref);
      if (t.isEmpty()) {
        throw new IllegalStateException("podtemplates \"" + ref + "\" not found");
      }
      template = t.get();
    } catch (RuntimeException e) {
      return new Entry(b, BufferConditions.provisioningFailed(BufferConditions.REASON_FAILED_TO_GET_POD_TEMPLATE,
          BufferConditions.MESSAGE_FAILED_TO_GET_POD_TEMPLATE + BufferConditions.ERR_GET_POD_TEMPLATE + e.getMessage(), gen), List.of());
    }
    if (maxVirtualPodsPerBuffer > 0 && replicas > maxVirtualPodsPerBuffer) {
      return new Entry(b, BufferConditions.provisioningFailed(BufferConditions.REASON_FAILED_TO_MAKE_FAKE_PODS,
          BufferConditions.MESSAGE_FAILED_TO_MAKE_FAKE_PODS + "buffer replicas " + replicas + " exceed the limit of "
              + maxVirtualPodsPerBuffer + " virtual pods per buffer", gen), List.of());
    }
    return new Entry(b, BufferConditions.provisioningSucceeded(BufferConditions.REASON_FAKE_PODS_INJECTED, gen),
        kept == null ? VirtualPods.build(b, template, replicas) : kept.pods(b, template, replicas));
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
