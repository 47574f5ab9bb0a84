package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.Backoff;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything an autoscaler remembers between iterations: the cluster-state registry of scale-up requests,
 * group backoff, unneeded-since timers, recently-unremovable nodes and the scale-down cooldown clocks, and the
 * {@link Caches} that let a loop read and copy less than the one before it (they never change a decision). One
 * object per autoscaler; the cluster runtime and the simulator keep it across loops, {@code plan} starts
 * with a fresh one.
 */
public final class AutoscalerState {

  private final Map<String, ScaleUpRequest> scaleUpRequests = new TreeMap<>();
  private final Map<String, IncorrectSize> incorrectSizes = new TreeMap<>();
  private final Backoff backoff;
  private final Map<String, Instant> unneededSince = new HashMap<>();
  private final Map<String, Instant> unremovableUntil = new HashMap<>();
  private Instant lastScaleUp;
  private Instant lastScaleDownDelete;
  private Instant lastScaleDownFailure;
  private Caches caches;
  /** The autoscaler that filled {@link #caches}. */
  private Object cachesOwner;

  public AutoscalerState(AutoscalerOptions options) {
    this.backoff = new Backoff(options.initialNodeGroupBackoffDuration(), options.maxNodeGroupBackoffDuration(), options.nodeGroupBackoffResetTimeout());
  }

  /** Active scale-up requests by group. */
  public Map<String, ScaleUpRequest> scaleUpRequests() {
    return scaleUpRequests;
  }

  /**
   * Registers {@code increase} more nodes requested from {@code group} at {@code now}; a later request adds
   * to the increase and resets both times.
   */
  public void registerScaleUp(String group, int increase, Instant now, java.time.Duration provisionTime) {
    ScaleUpRequest old = scaleUpRequests.get(group);
    int total = (old == null ? 0 : old.increase()) + increase;
    scaleUpRequests.put(group, new ScaleUpRequest(group, total, now, now.plus(provisionTime)));
  }

  /**
   * A group whose target size is above its Ready and unready nodes while no scale-up request of it is active:
   * {@code missing} nodes that the target promises and that have not come up, seen so since {@code firstObserved}.
   */
  public record IncorrectSize(int targetSize, int missing, Instant firstObserved) {}

  /**
   * Groups by id whose target size has stood above their Ready and unready nodes with no active scale-up request
   * ({@link ClusterStateRegistry#updateIncorrectSizes}); the loop lowers such a target once it has stood for the
   * group's max provision time, and keeps the entry while the provider refuses.
   */
  public Map<String, IncorrectSize> incorrectSizes() {
    return incorrectSizes;
  }

  public Backoff backoff() {
    return backoff;
  }

  /** Node name → first loop in which it was found unneeded. */
  public Map<String, Instant> unneededSince() {
    return unneededSince;
  }

  /** Node name → time until which it is not re-examined. */
  public Map<String, Instant> unremovableUntil() {
    return unremovableUntil;
  }

  public Optional<Instant> lastScaleUp() {
    return Optional.ofNullable(lastScaleUp);
  }

  public Optional<Instant> lastScaleDownDelete() {
    return Optional.ofNullable(lastScaleDownDelete);
  }

  public Optional<Instant> lastScaleDownFailure() {
    return Optional.ofNullable(lastScaleDownFailure);
  }

  public void scaledUp(Instant now) {
    lastScaleUp = now;
  }

  public void scaledDownAt(Instant now) {
    lastScaleDownDelete = now;
  }

  public void scaleDownFailedAt(Instant now) {
    lastScaleDownFailure = now;
  }

  /**
   * What an iteration leaves for the next one to read, as a value: scale-up requests, unneeded and unremovable
   * timers and the cooldown clocks (group backoff is left out: only a scale-up reads it, at the time it runs).
   */
  public record Memory(Map<String, ScaleUpRequest> scaleUpRequests, Map<String, IncorrectSize> incorrectSizes,
      Map<String, Instant> unneededSince, Map<String, Instant> unremovableUntil, Instant lastScaleUp,
      Instant lastScaleDownDelete, Instant lastScaleDownFailure) {}

  /** A copy of what this state remembers now (compare two to see whether an iteration changed it). */
  public Memory memory() {
    return new Memory(Map.copyOf(scaleUpRequests), Map.copyOf(incorrectSizes), Map.copyOf(unneededSince), Map.copyOf(unremovableUntil), lastScaleUp,
        lastScaleDownDelete, lastScaleDownFailure);
  }

  /** Puts back what {@link #memory()} returned (after a staged trial of a step that may have changed it). */
  void restore(Memory m) {
    scaleUpRequests.clear();
    scaleUpRequests.putAll(m.scaleUpRequests());
    incorrectSizes.clear();
    incorrectSizes.putAll(m.incorrectSizes());
    unneededSince.clear();
    unneededSince.putAll(m.unneededSince());
    unremovableUntil.clear();
    unremovableUntil.putAll(m.unremovableUntil());
    lastScaleUp = m.lastScaleUp();
    lastScaleDownDelete = m.lastScaleDownDelete();
    lastScaleDownFailure = m.lastScaleDownFailure();
  }

  /**
   * True when one of this state's clocks is reached between {@code since} (exclusive) and {@code now}
   * (inclusive): an unremovable node's recheck time, an unneeded node's removal time, a scale-up request's
   * expiry, a group's incorrect size coming due, or the end of a scale-down cooldown. While no clock is reached, an iteration at {@code now} reads
   * the clocks as one at {@code since} did: on an unchanged cluster, after an iteration that acted on nothing
   * and left the state as it found it, it would decide the same nothing (the simulator skips such loops).
   */
  public boolean clockReached(Instant since, Instant now, AutoscalerOptions options) {
    if (!unneededSince.isEmpty() || !scaleUpRequests.isEmpty() || !incorrectSizes.isEmpty()) {
      // their times have per-group overrides: while any is kept, count its clock as running
      return true;
    }
    for (Instant t : unremovableUntil.values()) {
      if (crosses(t, since, now)) {
        return true;
      }
    }
    return lastScaleUp != null && crosses(lastScaleUp.plus(options.scaleDownDelayAfterAdd()), since, now)
        || lastScaleDownDelete != null && crosses(lastScaleDownDelete.plus(options.scaleDownDelayAfterDelete()), since, now)
        || lastScaleDownFailure != null && crosses(lastScaleDownFailure.plus(options.scaleDownDelayAfterFailure()), since, now);
  }

  /** True when a test {@code x.isBefore(t)} gives different answers at {@code since} and {@code now}. */
  private static boolean crosses(Instant t, Instant since, Instant now) {
    return since.isBefore(t) != now.isBefore(t);
  }

  /**
   * The caches of autoscaler {@code owner}: the ones it filled in its earlier loops, or fresh ones when this state
   * is new or another autoscaler used it last (the caches are tied to the cluster view and the simulations of the
   * autoscaler that filled them).
   */
  Caches caches(Object owner) {
    if (caches == null || cachesOwner != owner) {
      caches = new Caches();
      cachesOwner = owner;
    }
    return caches;
  }

  /**
   * What a loop keeps for the next one so that it reads, copies and compiles less: the pods as the earlier loops read
   * them, the facts of each node object, the buffers' virtual pods, the node-to-group map, the sanitised template and
   * placeholder node copies, and the pods changed since the snapshot was last loaded. A loop with fresh caches decides
   * the same as one with kept caches ({@code IncrementalLoadEquivalenceTest}).
   */
  static final class Caches {
    /** Beyond this many pod changes between two snapshot loads, the next load starts from scratch. */
    private static final int MAX_UNLOADED_CHANGES = 100_000;
    /** Bound on each map of node copies (cleared when it is exceeded). */
    private static final int MAX_NODE_COPIES = 4096;

    /** The pods as the previous loops read them. */
    final PodIndex pods = new PodIndex();
    /** What the loops read of each node object. */
    final NodeFacts.Cache nodeFacts = new NodeFacts.Cache();
    /** The buffers' virtual pods kept from the previous loop. */
    final VirtualPodCache virtualPods = new VirtualPodCache();
    /** How many virtual pods the previous loop injected (sizes the next loop's placement map). */
    private int lastVirtualPods;
    private Map<String, String> lastGroupOfNode = Map.of();
    /** Placeholder node copies by name. */
    private final Map<String, NodeCopy> placeholderCopies = new HashMap<>();
    /** Sanitised template nodes by group id. */
    private final Map<String, NodeCopy> templateCopies = new HashMap<>();
    /** UIDs of pods changed since the last snapshot load; null when unknown (load everything). */
    private Set<String> unloaded;

    private Caches() {}

    /** Refreshes {@link #pods} from {@code view} and notes which pods changed since the snapshot was last loaded. */
    void refreshPods(ClusterView view) {
      Set<String> changed = pods.refresh(view);
      if (changed == null) {
        unloaded = null;
      } else if (unloaded != null) {
        unloaded.addAll(changed);
        if (unloaded.size() > MAX_UNLOADED_CHANGES) {
          unloaded = null;
        }
      }
    }

    /** The UIDs of pods changed since the last load (null: load everything); from now on, changes count afresh. */
    Set<String> takeUnloaded() {
      Set<String> out = unloaded;
      unloaded = new LinkedHashSet<>();
      return out;
    }

    int lastVirtualPods() {
      return lastVirtualPods;
    }

    void virtualPodsInjected(int count) {
      lastVirtualPods = count;
    }

    /**
     * The node group of each node: {@code groups[i]} of {@code names[i]} (null for no group). The previous loop's map
     * is returned when every entry is the same (most loops), so it is not built again.
     */
    Map<String, String> groupOfNode(String[] names, String[] groups) {
      int mapped = 0;
      boolean same = true;
      for (int i = 0; i < names.length; i++) {
        if (groups[i] != null) {
          mapped++;
          same &= groups[i].equals(lastGroupOfNode.get(names[i]));
        }
      }
      if (same && mapped == lastGroupOfNode.size()) {
        return lastGroupOfNode;
      }
      Map<String, String> out = new HashMap<>(names.length * 2);
      for (int i = 0; i < names.length; i++) {
        if (groups[i] != null) {
          out.put(names[i], groups[i]);
        }
      }
      lastGroupOfNode = Collections.unmodifiableMap(out);
      return lastGroupOfNode;
    }

    /**
     * The sanitised template node of group {@code id} copied from {@code source}, kept while the source is the same
     * object at the same resourceVersion (so it is not copied and compiled again every loop).
     */
    Node templateNode(String id, Node source) {
      String rv = source.getMetadata() == null ? null : source.getMetadata().getResourceVersion();
      NodeCopy kept = templateCopies.get(id);
      if (kept != null && kept.source() == source && Objects.equals(rv, kept.resourceVersion())) {
        return kept.node();
      }
      Node copy = Nodes.sanitizedCopy(source, "template-" + id);
      if (templateCopies.size() > MAX_NODE_COPIES) {
        templateCopies.clear();
      }
      templateCopies.put(id, new NodeCopy(source, rv, copy));
      return copy;
    }

    /**
     * The placeholder node {@code name} copied from {@code template}. A copy is kept while the template is the same
     * object at the same non-empty resourceVersion (so it is not copied and compiled again while its node boots); a
     * template without a version is copied every time.
     */
    Node placeholder(Node template, String name) {
      String rv = template.getMetadata() == null ? null : template.getMetadata().getResourceVersion();
      NodeCopy kept = placeholderCopies.get(name);
      if (kept != null && kept.source() == template && rv != null && !rv.isEmpty() && rv.equals(kept.resourceVersion())) {
        return kept.node();
      }
      Node copy = Nodes.sanitizedCopy(template, name);
      if (rv != null && !rv.isEmpty()) {
        if (placeholderCopies.size() > MAX_NODE_COPIES) {
          placeholderCopies.clear();
        }
        placeholderCopies.put(name, new NodeCopy(template, rv, copy));
      }
      return copy;
    }

    private record NodeCopy(Node source, String resourceVersion, Node node) {}
  }
}
