package dev.headroom.core.scheduling;

import java.util.List;

/**
 * Spec §2.3 row 1: a cordoned node ({@code spec.unschedulable}) takes only pods that tolerate
 * {@code node.kubernetes.io/unschedulable:NoSchedule}. Pre-filter: whether the pod tolerates it.
 */
final class NodeUnschedulable implements Filter {

  @Override
  public String name() {
    return "NodeUnschedulable";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.NODE_UNSCHEDULABLE);
  }

  /** The pre-filter: whether {@code pod} tolerates the unschedulable taint. */
  boolean preFilter(CompiledPod pod) {
    return Tolerations.toleratesUnschedulable(pod);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    if (node.unschedulable() && !state.toleratesUnschedulable) {
      return Filter.fail(messages, Reason.NODE_UNSCHEDULABLE, Reason.NODE_UNSCHEDULABLE.message());
    }
    return null;
  }
}
