package dev.headroom.core.scheduling;

import java.util.List;

/**
 * Spec §2.3 row 6: one more pod must stay within the node's pod capacity, and every requested resource within
 * allocatable minus what the node's pods request ({@link NodeState#requested}). With messages collected it reports
 * every shortage ({@code Too many pods}, then {@code Insufficient <resource>} per resource), as the scheduler does;
 * without, it stops at the first. No pre-filter state: the pod's request vector is compiled.
 */
final class NodeResourcesFit implements Filter {

  private final ResourceIds resources;

  NodeResourcesFit(ResourceIds resources) {
    this.resources = resources;
  }

  @Override
  public String name() {
    return "NodeResourcesFit";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.TOO_MANY_PODS, Reason.INSUFFICIENT_RESOURCE);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    Reason fit = null;
    if (aggregates.podCount + 1L > node.maxPods()) {
      fit = Filter.fail(messages, Reason.TOO_MANY_PODS, Reason.TOO_MANY_PODS.message());
      if (messages == null) {
        return fit;
      }
    }
    long[] req = pod.requestVector();
    long[] used = aggregates.requested;
    for (int id : pod.requestIds()) {
      long u = id < used.length ? used[id] : 0;
      if (req[id] > node.allocatable(id) - u) {
        if (fit == null) {
          fit = Reason.INSUFFICIENT_RESOURCE;
        }
        if (messages == null) {
          return fit;
        }
        messages.add(Reason.INSUFFICIENT_RESOURCE.message(resources.name(id)));
      }
    }
    return fit;
  }
}
