package dev.headroom.core.autoscaler.expander;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * "Add {@code nodeCount} nodes to {@code group} to help {@code pods}": one scale-up option as the estimator
 * produced it.
 *
 * @param group the node group
 * @param nodeCount nodes the estimator needs
 * @param pods the pods those nodes would take (real and virtual)
 * @param podRequests effective requests of each pod, same order as {@code pods} (milli-units)
 */
public record ExpansionOption(NodeGroup group, int nodeCount, List<Pod> pods, List<Map<String, Long>> podRequests) {

  public ExpansionOption {
    pods = List.copyOf(pods);
    podRequests = List.copyOf(podRequests);
    if (pods.size() != podRequests.size()) {
      throw new IllegalArgumentException("pods and podRequests differ in size");
    }
  }

  /** Sum of one resource over the option's pods, in milli-units. */
  public long totalRequest(String resource) {
    long sum = 0;
    for (Map<String, Long> r : podRequests) {
      sum = dev.headroom.core.resources.Quantities.add(sum, r.getOrDefault(resource, 0L));
    }
    return sum;
  }
}
