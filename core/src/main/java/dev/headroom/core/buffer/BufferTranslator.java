package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.BufferConditions.ERR_EXISTING_POD;
import static dev.headroom.core.buffer.BufferConditions.ERR_FAKE_POD;
import static dev.headroom.core.buffer.BufferConditions.ERR_GET_POD_TEMPLATE;
import static dev.headroom.core.buffer.BufferConditions.ERR_GET_SCALE_OBJECT;
import static dev.headroom.core.buffer.BufferConditions.ERR_LIST_PODS;
import static dev.headroom.core.buffer.BufferConditions.ERR_LIVE_POD;
import static dev.headroom.core.buffer.BufferConditions.ERR_MANAGED_TEMPLATE;
import static dev.headroom.core.buffer.BufferConditions.ERR_PARSE_SELECTOR;
import static dev.headroom.core.buffer.BufferConditions.ERR_POD_SPEC;
import static dev.headroom.core.buffer.BufferConditions.ERR_REPLICAS;
import static dev.headroom.core.buffer.BufferConditions.ERR_SCALABLE_OBJECT;
import static dev.headroom.core.buffer.BufferConditions.ERR_SCALE_SUBRESOURCE;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.ScalableRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.time.Instant;
import java.util.Optional;

/**
 * The two translators of spec §3: the pod-template path (§3.2) and the scalable-object path (§3.3, §3.4). Each
 * writes the buffer's status with SetReady / SetNotReady and reports API failures for a requeue.
 */
public final class BufferTranslator {

  private final BufferClusterView view;
  private final ManagedTemplateStore templates;
  private final PodResolver resolver;
  private final Instant now;

  private final TranslationMemo memo;

  /** A translator over one reconcile's ports and clock reading. */
  public BufferTranslator(BufferClusterView view, ManagedTemplateStore templates, PodResolver resolver, Instant now) {
    this(view, templates, resolver, now, null);
  }

  /**
   * A translator that reuses, through {@code memo}, what earlier reconciles computed from unchanged objects
   * (null: none).
   */
  public BufferTranslator(BufferClusterView view, ManagedTemplateStore templates, PodResolver resolver, Instant now,
      TranslationMemo memo) {
    this.view = view;
    this.templates = templates;
    this.resolver = resolver;
    this.now = now;
    this.memo = memo;
  }

  /**
   * The pod-template translator; applies iff {@code spec.podTemplateRef} is set.
   *
   * @return the error that requires a requeue, if any
   */
  public Optional<String> translatePodTemplate(CapacityBuffer buffer) {
    if (buffer.getSpec() == null || buffer.getSpec().getPodTemplateRef() == null) {
      return Optional.empty();
    }
    String namespace = buffer.getMetadata().getNamespace();
    String name = buffer.getSpec().getPodTemplateRef().getName();
    PodTemplate source;
    try {
      Optional<PodTemplate> found = view.podTemplate(namespace, name);
      if (found.isEmpty()) {
        return notReady(buffer, ERR_GET_POD_TEMPLATE + NotFound.message("podtemplates", "", name));
      }
      source = found.get();
    } catch (ClusterApiException e) {
      return notReady(buffer, ERR_GET_POD_TEMPLATE + e.getMessage());
    }
    Pod pod;
    try {
      pod = resolver.resolve(namespace, source.getTemplate());
    } catch (PodResolver.PodResolutionException e) {
      return notReady(buffer, ERR_FAKE_POD + e.getMessage());
    }
    return upsertAndCount(buffer, ManagedTemplates.extract(pod), null, null);
  }

  /**
   * The scalable-object translator; applies iff {@code spec.scalableRef} is set.
   *
   * @return the error that requires a requeue, if any
   */
  public Optional<String> translateScalable(CapacityBuffer buffer) {
    if (buffer.getSpec() == null || buffer.getSpec().getScalableRef() == null) {
      return Optional.empty();
    }
    ScalableRef ref = buffer.getSpec().getScalableRef();
    String namespace = buffer.getMetadata().getNamespace();

    // Step 1: live pod through /scale.
    String liveError = null;
    PodTemplateSpec template = null;
    Integer base = null;
    Pod livePod = null;
    try {
      ScaleView scale = view.scale(namespace, WorkloadKind.normaliseGroup(ref.getApiGroup()), ref.getKind(), ref.getName());
      Optional<Pod> newest = newestPod(namespace, scale);
      if (newest.isPresent()) {
        base = scale.replicas();
        PodTemplate kept = memo == null ? null : memo.managedFor(view, templates, buffer, newest.get());
        if (kept != null) {
          // the same pod content and the same stored template as an earlier equal upsert: it would write nothing
          return count(buffer, kept, base);
        }
        livePod = newest.get();
        // extraction deep-copies what it takes from the live pod, so the pod itself is not copied first
        template = ManagedTemplates.extract(livePod);
        if (template.getSpec() != null) {
          template.getSpec().setNodeName(null);
        }
      }
    } catch (LivePodException e) {
      liveError = e.getMessage();
    } catch (UnmappedKindException e) {
      liveError = ERR_GET_SCALE_OBJECT + e.getMessage();
    } catch (ClusterApiException e) {
      liveError = ERR_GET_SCALE_OBJECT + ERR_SCALE_SUBRESOURCE + e.getMessage();
    }

    // Step 2: the workload's own template.
    if (template == null) {
      if (memo != null) {
        memo.forgetManaged(buffer);
      }
      Optional<WorkloadKind> kind = WorkloadKind.resolve(ref.getApiGroup(), ref.getKind());
      String scalableError = null;
      HasMetadata workload = null;
      if (kind.isEmpty()) {
        scalableError = BufferConditions.errKindNotSupported(ref.getApiGroup(), ref.getKind());
      } else {
        try {
          Optional<HasMetadata> found = view.workload(namespace, kind.get(), ref.getName());
          if (found.isEmpty()) {
            scalableError = BufferConditions.errGetWorkload(kind.get().kind(), kind.get().listerNotFound(ref.getName()));
          } else {
            workload = found.get();
          }
        } catch (ClusterApiException e) {
          scalableError = BufferConditions.errGetWorkload(kind.get().kind(), e.getMessage());
        }
      }
      if (scalableError != null) {
        String err = (liveError != null ? ERR_LIVE_POD + liveError + ", " : "") + ERR_SCALABLE_OBJECT + scalableError;
        return notReady(buffer, err);
      }
      Pod pod;
      try {
        pod = resolver.resolve(namespace, kind.get().template(workload));
      } catch (PodResolver.PodResolutionException e) {
        return notReady(buffer, ERR_POD_SPEC + e.getMessage());
      }
      template = ManagedTemplates.extract(pod);
      base = kind.get().baseReplicas(workload);
    }
    return upsertAndCount(buffer, template, base, livePod);
  }

  private Optional<Pod> newestPod(String namespace, ScaleView scale) throws LivePodException {
    if (scale.selector() == null || scale.selector().isBlank()) {
      // [H-IMPL] An object that reports no selector has no pods of its own; do not match the whole namespace.
      return Optional.empty();
    }
    SelectorExpression selector;
    try {
      selector = memo == null ? SelectorExpression.parse(scale.selector()) : memo.selector(scale.selector());
    } catch (IllegalArgumentException e) {
      throw new LivePodException(ERR_EXISTING_POD + ERR_PARSE_SELECTOR + e.getMessage());
    }
    try {
      return view.newestPod(namespace, selector);
    } catch (ClusterApiException e) {
      throw new LivePodException(ERR_EXISTING_POD + ERR_LIST_PODS + e.getMessage());
    }
  }

  /** Upserts the managed template; {@code livePod} is the pod it was extracted from, if any (for the memo). */
  private Optional<String> upsertAndCount(CapacityBuffer buffer, PodTemplateSpec template, Integer base, Pod livePod) {
    PodTemplate managed;
    try {
      PodTemplate desired = ManagedTemplates.desired(buffer, template);
      ManagedTemplates.Upserted upserted = memo == null ? ManagedTemplates.upsertTracked(templates, desired) : memo.upsert(templates, desired);
      managed = upserted.stored();
      if (memo != null && livePod != null) {
        memo.rememberManaged(view, templates, buffer, livePod, desired, upserted);
      }
    } catch (ClusterApiException e) {
      if (memo != null) {
        memo.forgetManaged(buffer);
      }
      return notReady(buffer, ERR_MANAGED_TEMPLATE + e.getMessage());
    }
    return count(buffer, managed, base);
  }

  /** Status from the stored managed template: its name and generation, and the replica count (§3.4). */
  private Optional<String> count(CapacityBuffer buffer, PodTemplate managed, Integer base) {
    String name = managed.getMetadata().getName();
    Long generation = managed.getMetadata().getGeneration() == null ? 0L : managed.getMetadata().getGeneration();
    ReplicaCalculator.Result result = ReplicaCalculator.compute(buffer.getSpec(), base, managed.getTemplate() == null ? null : managed.getTemplate().getSpec());
    if (result instanceof ReplicaCalculator.Result.Count count) {
      BufferStatuses.setReady(buffer, name, generation, count.replicas(), now);
    } else {
      BufferStatuses.setNotReady(buffer, name, generation, null, ERR_REPLICAS + ((ReplicaCalculator.Result.Failure) result).error(), now);
    }
    return Optional.empty();
  }

  private Optional<String> notReady(CapacityBuffer buffer, String err) {
    BufferStatuses.setNotReady(buffer, null, null, null, err, now);
    return Optional.of(err);
  }

  /** A step-1 failure whose text is already rendered. */
  private static final class LivePodException extends Exception {
    private static final long serialVersionUID = 1L;

    LivePodException(String message) {
      super(message);
    }
  }
}
