package dev.headroom.core.autoscaler;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Optional;

/**
 * Port: one consistent read of the cluster for one loop (informer caches in cluster mode, the simulator's
 * state in simulation, parsed files in {@code plan}). The core never mutates what it gets.
 */
public interface ClusterView {

  /** Every Node. */
  List<Node> nodes();

  /** Every pod, scheduled or pending, in a stable order (creation order where the view knows it). */
  List<Pod> pods();

  /**
   * Pods that changed since {@code cursor}: created or changed ones (the current objects, in the order they
   * first changed) and the UIDs of deleted ones. Views that keep such a log (the simulator's cluster; informer
   * event handlers) let the iteration update its pod index instead of reading every pod each loop.
   *
   * @param cursor a cursor from an earlier answer, or -1 to get only a starting cursor (no changes), asked
   *     for just before a full read of {@link #pods()}
   * @return empty when the view keeps no log or no longer has the changes since {@code cursor}; the
   *     iteration then reads {@link #pods()} in full
   */
  default java.util.Optional<PodChanges> podChangesSince(long cursor) {
    return java.util.Optional.empty();
  }

  /** Changes since a cursor, and the cursor to ask from next time. */
  record PodChanges(long cursor, List<Pod> changed, List<String> deleted) {}

  /** Every PodDisruptionBudget. */
  List<PodDisruptionBudget> podDisruptionBudgets();

  /**
   * The declared pod groups (PodGroup objects of the coscheduling plugin and of Volcano) whose pods are scaled for
   * all-or-nothing; none by default.
   */
  default PodGroups podGroups() {
    return PodGroups.NONE;
  }

  /**
   * Every ProvisioningRequest ({@code autoscaling.x-k8s.io/v1}), all namespaces; none by default. Read by
   * {@code provisioning.ProvisioningRequests}, which gives the autoscaler a view with the requests' pods in it.
   */
  default List<ProvisioningRequest> provisioningRequests() {
    return List.of();
  }

  /** Every CapacityBuffer, all namespaces. */
  List<CapacityBuffer> buffers();

  /**
   * The PodTemplate {@code namespace/name} (a buffer's managed template).
   *
   * @return empty when it does not exist
   * @throws RuntimeException when it cannot be read; the message is reported on the buffer
   */
  Optional<PodTemplate> podTemplate(String namespace, String name);
}
