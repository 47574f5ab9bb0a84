package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
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

  /** Every pod, scheduled or pending. */
  List<Pod> pods();

  /** Every PodDisruptionBudget. */
  List<PodDisruptionBudget> podDisruptionBudgets();

  /** Every DaemonSet (their pods are added to template nodes). */
  default List<DaemonSet> daemonSets() {
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
