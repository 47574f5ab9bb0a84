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
    private List<Node> previousNodes = List.of();
    private java.util.Set<String> readyNames = java.util.Set.of();
    private java.util.Set<String> destinationNames = java.util.Set.of();
    private Map<String, Node> byName = Map.of();

    /** Names of the Ready nodes of the last {@link #of} (read-only). */
    java.util.Set<String> readyNames() {
      return readyNames;
    }

    /** Names of the nodes of the last {@link #of} that may receive pods ({@link NodeFacts#destination()}; read-only). */
    java.util.Set<String> destinationNames() {
      return destinationNames;
    }

    /** The nodes of the last {@link #of} by name (read-only). */
    Map<String, Node> byName() {
      return byName;
    }

    /**
     * The facts of {@code nodes}, by node object (read-only); the previous loop's facts of unchanged objects are
     * reused, and the previous map itself when the list holds the same objects at the same versions.
     */
    Map<Node, NodeFacts> of(List<Node> nodes) {
      if (unchanged(nodes)) {
        return previous;
      }
      Map<Node, NodeFacts> now = new IdentityHashMap<>(nodes.size() * 2);
      for (Node n : nodes) {
        NodeFacts f = previous.get(n);
        String rv = n.getMetadata().getResourceVersion();
        if (f == null || rv == null || rv.isEmpty() || !rv.equals(f.resourceVersion())) {
          f = read(n);
        }
        now.put(n, f);
      }
      previous = java.util.Collections.unmodifiableMap(now);
      previousNodes = List.copyOf(nodes);
      java.util.Set<String> ready = new java.util.HashSet<>(nodes.size() * 2);
      java.util.Set<String> destinations = new java.util.HashSet<>(nodes.size() * 2);
      Map<String, Node> names = new java.util.HashMap<>(nodes.size() * 2);
      for (Node n : nodes) {
        NodeFacts f = now.get(n);
        names.put(f.name(), n);
        if (f.ready()) {
          ready.add(f.name());
        }
        if (f.destination()) {
          destinations.add(f.name());
        }
      }
      destinationNames = java.util.Collections.unmodifiableSet(destinations);
      readyNames = java.util.Collections.unmodifiableSet(ready);
      byName = java.util.Collections.unmodifiableMap(names);
      return previous;
    }

    private boolean unchanged(List<Node> nodes) {
      if (nodes.size() != previousNodes.size()) {
        return false;
      }
      for (int i = 0; i < nodes.size(); i++) {
        Node n = nodes.get(i);
        if (n != previousNodes.get(i)) {
          return false;
        }
        String rv = n.getMetadata().getResourceVersion();
        if (rv == null || rv.isEmpty() || !rv.equals(previous.get(n).resourceVersion())) {
          return false;
        }
      }
      return true;
    }
  }
}
