package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.ClusterView;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Optional;

/**
 * Core's {@link ClusterView} over {@link ClusterListers}. The lists are read once per loop and handed to core as they
 * are: core treats its inputs as read-only (virtual pods, status conditions and snapshot nodes are built from clones),
 * so no deep copies of the caches are made.
 */
public final class InformerClusterView implements ClusterView {
  private final ClusterListers listers;

  public InformerClusterView(ClusterListers listers) {
    this.listers = listers;
  }

  @Override
  public List<Node> nodes() {
    return listers.nodes().get();
  }

  @Override
  public List<Pod> pods() {
    return listers.pods().get();
  }

  /** The pod informer's change log, when the listers have one. */
  @Override
  public Optional<PodChanges> podChangesSince(long cursor) {
    return listers.podChanges().apply(cursor);
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets() {
    return listers.podDisruptionBudgets().get();
  }

  /** The PodGroups (coscheduling, Volcano) the listers hold; none when their CRDs are not installed. */
  @Override
  public dev.headroom.core.autoscaler.PodGroups podGroups() {
    return listers.podGroups().get();
  }

  /** The ProvisioningRequests the listers hold; none when their CRD is not installed. */
  @Override
  public List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests() {
    return listers.provisioningRequests().get();
  }

  @Override
  public List<CapacityBuffer> buffers() {
    return listers.buffers().get();
  }

  @Override
  public Optional<PodTemplate> podTemplate(String namespace, String name) {
    return listers.podTemplate().apply(namespace, name);
  }
}
