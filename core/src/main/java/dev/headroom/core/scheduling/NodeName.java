package dev.headroom.core.scheduling;

import java.util.List;

/** Spec §2.3 row 2: a pod with {@code spec.nodeName} fits only the node of that name. No pre-filter state. */
final class NodeName implements Filter {

  @Override
  public String name() {
    return "NodeName";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.NODE_NAME);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    if (pod.nodeName() != null && !pod.nodeName().equals(node.name())) {
      return Filter.fail(messages, Reason.NODE_NAME, Reason.NODE_NAME.message());
    }
    return null;
  }
}
