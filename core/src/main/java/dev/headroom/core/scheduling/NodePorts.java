package dev.headroom.core.scheduling;

import java.util.List;

/**
 * Spec §2.3 row 5: none of the pod's host ports may conflict with a port a pod on the node already uses
 * ({@link HostPort#conflictsWith}); the node's used ports are kept in its {@link NodeState}. No pre-filter state.
 */
final class NodePorts implements Filter {

  @Override
  public String name() {
    return "NodePorts";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.NODE_PORTS);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    if (!pod.hostPorts().isEmpty() && aggregates.ports != null) {
      for (HostPort want : pod.hostPorts()) {
        for (HostPort used : aggregates.ports) {
          if (want.conflictsWith(used)) {
            return Filter.fail(messages, Reason.NODE_PORTS, Reason.NODE_PORTS.message());
          }
        }
      }
    }
    return null;
  }
}
