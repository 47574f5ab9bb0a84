package dev.headroom.core.scheduling;

import java.util.List;

/**
 * Spec §2.3 row 4: the pod's {@code nodeSelector} and required node affinity ({@link NodeAffinityMatcher}, parsed
 * by the compiler) must match the node's labels and name. No pre-filter state.
 */
final class NodeAffinity implements Filter {

  @Override
  public String name() {
    return "NodeAffinity";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.NODE_AFFINITY);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    if (!pod.nodeAffinity().isAny() && !pod.nodeAffinity().matches(node.labels(), node.name())) {
      return Filter.fail(messages, Reason.NODE_AFFINITY, Reason.NODE_AFFINITY.message());
    }
    return null;
  }
}
