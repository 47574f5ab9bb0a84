package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.util.List;
import java.util.Optional;

/**
 * Port: read access to the objects one namespace reconcile needs (spec §3, §5, §6.3).
 *
 * <p>The controller implements it over informer caches and live GETs; {@code headroom explain} implements it
 * over the objects of its input files. Every method takes the namespace explicitly and must return objects the
 * caller may mutate (deep copies or freshly parsed objects).
 *
 * <p>Error contract: lookups that return {@link Optional} return {@code Optional.empty()} for a missing object
 * (core renders the exact not-found text, §3.2) and throw {@link ClusterApiException} only for other failures.
 * {@link #scale} has no not-found special case: the adapter throws with the full error text, because only it
 * knows the plural of a custom kind.
 */
public interface BufferClusterView {

  /** Every CapacityBuffer of the namespace (any order; core sorts). */
  List<CapacityBuffer> buffers(String namespace) throws ClusterApiException;

  /** A (user-owned or managed) PodTemplate by name. */
  Optional<PodTemplate> podTemplate(String namespace, String name) throws ClusterApiException;

  /**
   * One of the five built-in workloads by kind and name: a fabric8 {@code Deployment}, {@code ReplicaSet},
   * {@code StatefulSet}, {@code ReplicationController} or {@code Job} instance matching {@code kind}.
   */
  Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) throws ClusterApiException;

  /**
   * The scale view {@code (status.replicas, status.selector)} of any object, built-in or custom, as the
   * {@code /scale} subresource would report it. {@code apiGroup} is the buffer's literal value, except that
   * core already maps {@code core} to {@code ""}. For built-in kinds an adapter may use
   * {@link WorkloadKind#scaleOf(HasMetadata)}.
   *
   * @throws UnmappedKindException with discovery's text when the kind cannot be mapped to a resource (no
   *     {@code /scale} GET is made)
   * @throws ClusterApiException with the API's text when the {@code /scale} GET fails: the kind has no
   *     {@code /scale} (Jobs) or the object does not exist (e.g. {@code deployments.apps "x" not found})
   */
  ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException;

  /** The pods of the namespace whose labels match {@code selector}. */
  List<Pod> pods(String namespace, SelectorExpression selector) throws ClusterApiException;

  /**
   * The newest of {@link #pods} by the rule of {@link NewestPods#of}. A view that sees pods join and leave its
   * pod sets may answer from a {@link NewestPods.Tracker}; the rule itself stays in {@link NewestPods}.
   */
  default Optional<Pod> newestPod(String namespace, SelectorExpression selector) throws ClusterApiException {
    return NewestPods.of(pods(namespace, selector));
  }

  /**
   * A token of the part of {@code pod} that template extraction reads (labels, annotations, and the spec except
   * {@code nodeName}, which the scalable translator clears): two pods read with the same non-null token — the same
   * pod twice, or two pods — have equal such content. Null when the view cannot tell, which disables reuse. The
   * default is the pod's UID with its {@code metadata.resourceVersion}, which the API server changes with every
   * write of the object, so only reads of one pod version share it. A view that knows pods were made from one
   * template (the simulator) may give them one token, so that a new newest pod of a workload reuses the template.
   */
  default String podTemplateVersion(Pod pod) {
    if (pod.getMetadata() == null) {
      return null;
    }
    String uid = pod.getMetadata().getUid();
    String rv = pod.getMetadata().getResourceVersion();
    return uid == null || uid.isEmpty() || rv == null || rv.isEmpty() ? null : uid + "@" + rv;
  }

  /** The ResourceQuotas of the namespace (any order; core sorts by name). */
  List<ResourceQuota> resourceQuotas(String namespace) throws ClusterApiException;
}
