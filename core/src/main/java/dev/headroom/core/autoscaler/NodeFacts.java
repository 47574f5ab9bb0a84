package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Node;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an iteration reads of a Node object: its name and the flags of {@link Nodes} it checks for every node
 * (Ready, being deleted, cordoned, scale-down disabled). Read once per node object and version: a node with
 * the same object and the same non-empty resourceVersion as in the previous loop keeps its facts (an API
 * server writes a new version with every change, and so does the simulator); any other node is read again.
 */
public record NodeFacts(String name, boolean ready, boolean beingDeleted, boolean cordoned, boolean scaleDownDisabled,
    String resourceVersion) {

  static NodeFacts read(Node n) {
    return new NodeFacts(n.getMetadata().getName(), Nodes.isReady(n), Nodes.isBeingDeleted(n), Nodes.isCordoned(n),
        Nodes.scaleDownDisabled(n), n.getMetadata().getResourceVersion());
  }

  /** True when the node may receive pods in the simulation: Ready, not being deleted, not cordoned. */
  public boolean destination() {
    return ready && !beingDeleted && !cordoned;
  }

  /** The facts of one loop's nodes, kept for the next loop. */
  static final class Cache {
    private Map<Node, NodeFacts> previous = new IdentityHashMap<>();

    /** The facts of {@code nodes}, by node object; the previous loop's facts of unchanged objects are reused. */
    Map<Node, NodeFacts> of(List<Node> nodes) {
      Map<Node, NodeFacts> now = new IdentityHashMap<>(nodes.size() * 2);
      for (Node n : nodes) {
        NodeFacts f = previous.get(n);
        String rv = n.getMetadata().getResourceVersion();
        if (f == null || rv == null || rv.isEmpty() || !rv.equals(f.resourceVersion())) {
          f = read(n);
        }
        now.put(n, f);
      }
      previous = now;
      return now;
    }
  }
}
