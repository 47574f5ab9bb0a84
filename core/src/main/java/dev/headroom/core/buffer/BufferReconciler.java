package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One namespace reconcile of the buffer controller (spec §6.3), pure and I/O-free: list, strategy filter,
 * sort, translate (§3), no-ref check, consumption by pods ({@link BufferConsumption}), schedule overlay (§8.2), quota allocation (§5), and the decision which
 * statuses changed (§6.4 H1). The caller (controller or {@code headroom explain}) performs the status writes,
 * the requeue and the delayed re-add.
 */
public final class BufferReconciler {

  /** Processing order: {@code creationTimestamp} ascending, then name ascending. */
  public static final Comparator<CapacityBuffer> CREATION_ORDER =
      Comparator.<CapacityBuffer, Instant>comparing(b -> Timestamps.creation(b.getMetadata()))
          .thenComparing(b -> b.getMetadata().getName() == null ? "" : b.getMetadata().getName());

  /**
   * The buffer annotations the reconcile reads (the schedule, {@link BufferConditions#ANNOTATION_ACTIVE_SCHEDULE}, and
   * consumption, {@link BufferConsumption#ANNOTATIONS}): a change of any of them changes what it computes, as a spec
   * change does. The controller's update rule and its status writer's staleness check both use this list.
   */
  public static final List<String> READ_ANNOTATIONS = java.util.stream.Stream.concat(
      java.util.stream.Stream.of(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE), BufferConsumption.ANNOTATIONS.stream()).toList();

  private final BufferSettings settings;
  private final TranslationMemo memo = new TranslationMemo();

  /**
   * A reconciler with the given settings. It keeps a {@link TranslationMemo} across its reconciles: results
   * reused only for unchanged object versions, so every reconcile reports what a fresh reconciler would.
   */
  public BufferReconciler(BufferSettings settings) {
    this.settings = settings;
  }

  /**
   * Reconciles every buffer of {@code namespace}.
   *
   * @param view read access to the namespace's objects (buffers as mutable copies)
   * @param templates the managed template store (the only port written to)
   * @param resolver the pod resolver (defaulting or dry run)
   * @param now the reconcile's clock reading: {@code lastTransitionTime} of changed conditions and the
   *     schedule evaluation instant
   */
  public NamespaceResult reconcileNamespace(String namespace, BufferClusterView view, ManagedTemplateStore templates, PodResolver resolver, Instant now) {
    List<CapacityBuffer> listed;
    try {
      listed = view.buffers(namespace);
    } catch (ClusterApiException e) {
      return new NamespaceResult(namespace, List.of(), List.of(e.getMessage()), Optional.empty());
    }
    List<CapacityBuffer> processed = new ArrayList<>();
    List<CapacityBuffer> skipped = new ArrayList<>();
    for (CapacityBuffer b : listed) {
      (BufferFilters.strategyAllowed(b, settings) ? processed : skipped).add(b);
    }
    sortByCreation(processed);
    Map<CapacityBuffer, CapacityBufferStatus> before = new IdentityHashMap<>();
    processed.forEach(b -> before.put(b, BufferStatuses.copy(b.getStatus())));

    List<String> errors = new ArrayList<>();
    BufferTranslator translator = new BufferTranslator(view, templates, resolver, now, memo);
    memo.retain(namespace, processed);
    for (CapacityBuffer b : processed) {
      translator.translatePodTemplate(b).ifPresent(err -> errors.add(key(b) + ": " + err));
    }
    for (CapacityBuffer b : processed) {
      translator.translateScalable(b).ifPresent(err -> errors.add(key(b) + ": " + err));
    }
    Instant nextBoundary = null;
    for (CapacityBuffer b : processed) {
      if (b.getSpec() == null || (b.getSpec().getPodTemplateRef() == null && b.getSpec().getScalableRef() == null)) {
        BufferStatuses.setNotReady(b, null, null, null, BufferConditions.ERR_NO_REF, now);
      }
      Optional<Instant> deadline = Optional.empty();
      try {
        deadline = BufferConsumption.apply(b, view, now);
      } catch (ClusterApiException e) {
        errors.add(key(b) + ": " + BufferConditions.ERR_LIST_PODS + e.getMessage());
      }
      if (deadline.isPresent() && (nextBoundary == null || deadline.get().isBefore(nextBoundary))) {
        nextBoundary = deadline.get();
      }
      Optional<Instant> next = ScheduleOverlay.apply(b, now);
      if (next.isPresent() && (nextBoundary == null || next.get().isBefore(nextBoundary))) {
        nextBoundary = next.get();
      }
    }
    try {
      List<ResourceQuota> quotas = view.resourceQuotas(namespace);
      errors.addAll(new QuotaAllocator(settings.countPods(), memo).allocate(processed, quotas, templates, now));
    } catch (ClusterApiException e) {
      errors.add(BufferConditions.ERR_LIST_QUOTAS + e.getMessage());
    }

    List<BufferOutcome> outcomes = new ArrayList<>();
    for (CapacityBuffer b : processed) {
      outcomes.add(new BufferOutcome(b, true, !BufferStatuses.semanticallyEqual(before.get(b), b.getStatus())));
    }
    for (CapacityBuffer b : skipped) {
      outcomes.add(new BufferOutcome(b, false, false));
    }
    return new NamespaceResult(namespace, outcomes, errors, Optional.ofNullable(nextBoundary));
  }

  /** Sorts by {@link #CREATION_ORDER} (stable), reading each buffer's creation time once (parsed texts are kept). */
  private void sortByCreation(List<CapacityBuffer> buffers) {
    if (buffers.size() < 2) {
      return;
    }
    record Keyed(Instant created, String name, CapacityBuffer buffer) {}
    List<Keyed> keyed = new ArrayList<>(buffers.size());
    for (CapacityBuffer b : buffers) {
      keyed.add(new Keyed(memo.creation(b.getMetadata()), b.getMetadata().getName() == null ? "" : b.getMetadata().getName(), b));
    }
    keyed.sort(Comparator.comparing(Keyed::created).thenComparing(Keyed::name));
    for (int i = 0; i < keyed.size(); i++) {
      buffers.set(i, keyed.get(i).buffer());
    }
  }

  private static String key(CapacityBuffer b) {
    return b.getMetadata().getNamespace() + "/" + b.getMetadata().getName();
  }
}
