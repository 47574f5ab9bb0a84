package dev.headroom.core.scheduling;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;

/**
 * The node store of a {@link ClusterSnapshot}: nodes and their pods by node index, as a base with a stack of
 * copy-on-write delta layers (kube-scheduler's snapshot with the autoscaler's fork and commit).
 *
 * <ul>
 *   <li>{@link #fork()} pushes an empty layer (O(1)); every write lands in the top layer, copying a node's
 *       {@link NodeState} from below on its first write there ({@link #stateForWrite}); {@link #revert()} drops the
 *       top layer (O(1)); {@link #commit()} folds it into its parent (O(changes)). Reads walk the layers top-down.
 *   <li>Node indexes are positions: an added node takes index {@link #nodeCount()}; a removed node keeps its index
 *       (marked in the removed set, its state {@link #REMOVED}) until a revert drops the layer that added it, after
 *       which the index is reused by the next add.
 *   <li>Each layer also carries the layered values of the snapshot's other parts that must drop and fold with the
 *       node states they were derived from: the topology counters' per-domain counts ({@link Layer#counters}, which
 *       {@link TopologyCounters} reads and writes) and the index of the last successful placement.
 * </ul>
 *
 * <p>The store holds storage only: it checks no predicate, keeps no index other than names and pod uids, and does
 * not validate indexes (the facade does).
 */
final class NodeStore {

  /** The state of a removed node. */
  static final NodeState REMOVED = new NodeState(new long[0]);

  /** One layer: its scalars as seen from it, and the entries written in it. */
  static final class Layer {
    final Layer parent;
    int nodeCount;
    int liveNodes;
    int podTotal;
    int lastMatchIndex;
    /** States written in this layer by node index (null entries: read below); null until the first write. */
    NodeState[] states;
    /** The removed set as seen from this layer, when this layer removed a node (a copy of the one below). */
    BitSet removed;
    /** The closed set as seen from this layer, when this layer closed a node (a copy of the one below). */
    BitSet closed;
    /** Name to index of nodes added in this layer (-1: removed in it). */
    final HashMap<String, Integer> nodeNames = new HashMap<>();
    /** Pod uid to node index of pods added in this layer (-1: removed in it, above the base). */
    final HashMap<String, Integer> podNodes = new HashMap<>();
    /** The topology counters' per-domain counts by definition id, as this layer sees them (see TopologyCounters). */
    final HashMap<Integer, DomainCounts> counters = new HashMap<>();

    Layer(Layer parent) {
      this.parent = parent;
    }

    /** The state written for node {@code i} in this layer, or null. */
    NodeState own(int i) {
      return states != null && i < states.length ? states[i] : null;
    }
  }

  private final ResourceIds resources;
  private final IntBoxes boxes = new IntBoxes();

  /** Per-index node, valid below the top layer's node count (a slot above it awaits reuse). */
  private CompiledNode[] nodes = new CompiledNode[64];

  private Layer top;
  private int depth;
  /** A dropped or folded layer's state array, emptied, for the next layer that writes (forks are frequent). */
  private NodeState[] spareStates;

  /** An empty store whose node states sum requests over {@code resources}. */
  NodeStore(ResourceIds resources) {
    this.resources = resources;
    this.top = new Layer(null);
    this.top.lastMatchIndex = -1;
  }

  // ---------------------------------------------------------------- layers

  /** Pushes an empty layer. O(1). */
  void fork() {
    Layer l = new Layer(top);
    l.nodeCount = top.nodeCount;
    l.liveNodes = top.liveNodes;
    l.podTotal = top.podTotal;
    l.lastMatchIndex = top.lastMatchIndex;
    top = l;
    depth++;
  }

  /** Drops the top layer. O(1). */
  void revert() {
    if (top.parent == null) {
      throw new IllegalStateException("revert without fork");
    }
    Layer dropped = top;
    top = top.parent;
    depth--;
    recycle(dropped);
  }

  /** Folds the top layer into its parent, keeping its writes. O(changes in the layer). */
  void commit() {
    Layer c = top;
    Layer p = c.parent;
    if (p == null) {
      throw new IllegalStateException("commit without fork");
    }
    if (c.states != null) {
      for (int i = 0; i < c.states.length; i++) {
        if (c.states[i] != null) {
          writeState(p, i, c.states[i]);
        }
      }
    }
    if (c.removed != null) {
      p.removed = c.removed;
    }
    if (c.closed != null) {
      p.closed = c.closed;
    }
    p.nodeNames.putAll(c.nodeNames);
    p.podNodes.putAll(c.podNodes);
    p.counters.putAll(c.counters);
    p.nodeCount = c.nodeCount;
    p.liveNodes = c.liveNodes;
    p.podTotal = c.podTotal;
    p.lastMatchIndex = c.lastMatchIndex;
    top = p;
    depth--;
    recycle(c);
  }

  private void recycle(Layer dropped) {
    NodeState[] a = dropped.states;
    if (a != null) {
      dropped.states = null;
      Arrays.fill(a, null);
      if (spareStates == null || a.length > spareStates.length) {
        spareStates = a;
      }
    }
  }

  /** Number of open forks. */
  int depth() {
    return depth;
  }

  /** True when a fork is open (writes go to a layer above the base). */
  boolean forked() {
    return top.parent != null;
  }

  /** The top layer (for the layered values other parts keep in it). */
  Layer top() {
    return top;
  }

  // ---------------------------------------------------------------- reads

  /** Number of node indexes in use (removed nodes keep theirs). */
  int nodeCount() {
    return top.nodeCount;
  }

  /** Number of nodes not removed. */
  int liveNodeCount() {
    return top.liveNodes;
  }

  /** Number of pods on all nodes. */
  int podCount() {
    return top.podTotal;
  }

  /** Index of the node of the last successful placement, as the top layer sees it (-1 before the first). */
  int lastMatchIndex() {
    return top.lastMatchIndex;
  }

  void setLastMatchIndex(int index) {
    top.lastMatchIndex = index;
  }

  /** The node at {@code index} (below {@link #nodeCount()}; not checked). */
  CompiledNode node(int index) {
    return nodes[index];
  }

  /** The node last stored at {@code index}, also above {@link #nodeCount()} (a freed index), or null. */
  CompiledNode slot(int index) {
    return index < nodes.length ? nodes[index] : null;
  }

  /** Number of node indexes the per-index arrays hold. */
  int capacity() {
    return nodes.length;
  }

  /** The removed nodes as the top layer sees them, or null when none was removed (not to be modified). */
  BitSet removed() {
    return removedSet(top);
  }

  /** True when node {@code index} was removed. */
  boolean isRemoved(int index) {
    BitSet r = removedSet(top);
    return r != null && r.get(index);
  }

  /** Index of the live node named {@code name}, or -1. */
  int nodeIndex(String name) {
    for (Layer l = top; l != null; l = l.parent) {
      Integer i = l.nodeNames.get(name);
      if (i != null) {
        return i;
      }
    }
    return -1;
  }

  /** Index of the node holding the pod with {@code uid}, or -1. */
  int nodeOfPod(String uid) {
    for (Layer l = top; l != null; l = l.parent) {
      Integer i = l.podNodes.get(uid);
      if (i != null) {
        return i;
      }
    }
    return -1;
  }

  /** Node {@code index}'s state as the top layer sees it (read only). */
  NodeState state(int index) {
    return stateAt(top, index);
  }

  /** Node {@code index}'s state as {@code from} sees it. */
  static NodeState stateAt(Layer from, int index) {
    for (Layer l = from; l != null; l = l.parent) {
      NodeState s = l.own(index);
      if (s != null) {
        return s;
      }
    }
    throw new IllegalStateException("no state for node " + index);
  }

  /** Node {@code index}'s state in the top layer, copied from below on the layer's first write. */
  NodeState stateForWrite(int index) {
    NodeState own = top.own(index);
    if (own != null) {
      return own;
    }
    NodeState copy = stateAt(top.parent, index).forkCopy();
    writeState(top, index, copy);
    return copy;
  }

  // ---------------------------------------------------------------- writes

  /** Stores {@code node} without pods at the next index and returns it (the name must not be live). */
  int addNode(CompiledNode node) {
    int id = top.nodeCount;
    ensureCapacity(id + 1);
    nodes[id] = node;
    top.nodeCount = id + 1;
    top.liveNodes++;
    writeState(top, id, emptyState());
    top.nodeNames.put(node.name(), boxes.of(id));
    if (top.removed != null && top.removed.get(id)) {
      top.removed.clear(id);
    }
    if (top.closed != null && top.closed.get(id)) {
      top.closed.clear(id);
    }
    unavailableFor = null;
    return id;
  }

  /**
   * Closes node {@code index} to placements in this layer (a revert reopens it): it keeps its pods and counts for
   * everything else, but {@link #unavailable()} holds it.
   */
  void close(int index) {
    if (top.closed == null) {
      BitSet inherited = closedSet(top.parent);
      top.closed = inherited == null ? new BitSet() : (BitSet) inherited.clone();
    }
    top.closed.set(index);
    unavailableFor = null;
  }

  /** Reopens node {@code index} to placements in this layer (a revert closes it again if it was closed below). */
  void reopen(int index) {
    BitSet seen = closedSet(top);
    if (seen == null || !seen.get(index)) {
      return;
    }
    if (top.closed == null) {
      top.closed = (BitSet) seen.clone();
    }
    top.closed.clear(index);
    unavailableFor = null;
  }

  /** True when node {@code index} is closed to placements. */
  boolean isClosed(int index) {
    BitSet c = closedSet(top);
    return c != null && c.get(index);
  }

  /** The layer {@link #unavailable} was computed for (null: to be computed again), and its answer. */
  private Layer unavailableFor;
  private BitSet unavailable;

  /**
   * The nodes a placement skips as the top layer sees them: removed or closed; null when none is. Not to be modified;
   * computed again after a node is added, removed or closed, or the top layer changes.
   */
  BitSet unavailable() {
    if (unavailableFor != top) {
      BitSet r = removedSet(top);
      BitSet c = closedSet(top);
      if (c == null) {
        unavailable = r;
      } else if (r == null) {
        unavailable = c;
      } else {
        unavailable = (BitSet) r.clone();
        unavailable.or(c);
      }
      unavailableFor = top;
    }
    return unavailable;
  }

  /** Puts {@code node} (a new version of the same name) at {@code index} in place, in every layer. */
  void replaceNode(int index, CompiledNode node) {
    nodes[index] = node;
  }

  /** Marks node {@code index}, whose pods were removed, as removed. */
  void removeNode(int index) {
    if (top.removed == null) {
      BitSet inherited = removedSet(top.parent);
      top.removed = inherited == null ? new BitSet() : (BitSet) inherited.clone();
    }
    top.removed.set(index);
    unavailableFor = null;
    writeState(top, index, REMOVED);
    top.nodeNames.put(nodes[index].name(), -1);
    top.liveNodes--;
  }

  /** Stores {@code pod} on node {@code index} (neither checked). */
  void addPod(CompiledPod pod, int index) {
    stateForWrite(index).add(pod);
    top.podNodes.put(pod.uid(), boxes.of(index));
    top.podTotal++;
  }

  /**
   * Stores {@code pod} on node {@code index} unless a pod with its UID is stored already (then nothing changes and
   * the answer is false). On the base the map's own answer says so, one look-up per pod instead of two.
   */
  boolean addPodIfAbsent(CompiledPod pod, int index) {
    String uid = pod.uid();
    Integer box = boxes.of(index);
    if (top.parent == null) {
      Integer was = top.podNodes.putIfAbsent(uid, box);
      if (was != null) {
        if (was >= 0) {
          return false;
        }
        top.podNodes.put(uid, box); // a removal a commit left as -1
      }
    } else {
      if (nodeOfPod(uid) >= 0) {
        return false;
      }
      top.podNodes.put(uid, box);
    }
    stateForWrite(index).add(pod);
    top.podTotal++;
    return true;
  }

  /** Removes the pod with {@code uid} from node {@code index}, which holds it, and returns it. */
  CompiledPod removePod(String uid, int index) {
    CompiledPod pod = stateForWrite(index).remove(uid);
    if (top.parent == null) {
      top.podNodes.remove(uid);
    } else {
      top.podNodes.put(uid, -1);
    }
    top.podTotal--;
    return pod;
  }

  /** Removes the pods with {@code uids} from node {@code index}, which holds them all; returns them in that order. */
  CompiledPod[] removePods(List<String> uids, int index) {
    CompiledPod[] out = stateForWrite(index).removeAll(uids);
    for (String uid : uids) {
      if (top.parent == null) {
        top.podNodes.remove(uid);
      } else {
        top.podNodes.put(uid, -1);
      }
    }
    top.podTotal -= out.length;
    return out;
  }

  /**
   * Gives node {@code index} (just added, without pods) a copy of {@code source}'s pods and sums (a state of another
   * store of the same compiler) and returns the copy. Throws when one of the pods is already stored.
   */
  NodeState putPodsOf(int index, NodeState source) {
    NodeState copy = source.detachedCopy();
    writeState(top, index, copy);
    for (int j = 0; j < copy.podCount; j++) {
      Integer was = top.podNodes.put(copy.pod(j).uid(), boxes.of(index));
      if (was != null && was >= 0) {
        throw new IllegalArgumentException("pod " + copy.pod(j).uid() + " already in the snapshot");
      }
      top.podTotal++;
    }
    return copy;
  }

  /** Empties node {@code index} at once: only on the base (no layer below keeps the old state). */
  void clearPodsOnBase(int index) {
    NodeState s = state(index);
    for (int k = 0; k < s.podCount; k++) {
      top.podNodes.remove(s.pod(k).uid());
    }
    top.podTotal -= s.podCount;
    writeState(top, index, emptyState());
  }

  private NodeState emptyState() {
    return new NodeState(new long[resources.size()]);
  }

  private void writeState(Layer layer, int i, NodeState s) {
    if (layer.states == null) {
      int size = Math.max(16, Math.max(i + 1, layer.nodeCount));
      if (spareStates != null && spareStates.length >= size) {
        layer.states = spareStates;
        spareStates = null;
      } else {
        layer.states = new NodeState[size];
      }
    } else if (i >= layer.states.length) {
      layer.states = Arrays.copyOf(layer.states, Math.max(i + 1, layer.states.length * 2));
    }
    layer.states[i] = s;
  }

  private static BitSet closedSet(Layer from) {
    for (Layer l = from; l != null; l = l.parent) {
      if (l.closed != null) {
        return l.closed;
      }
    }
    return null;
  }

  private static BitSet removedSet(Layer from) {
    for (Layer l = from; l != null; l = l.parent) {
      if (l.removed != null) {
        return l.removed;
      }
    }
    return null;
  }

  private void ensureCapacity(int n) {
    if (n > nodes.length) {
      nodes = Arrays.copyOf(nodes, Math.max(n, nodes.length * 2));
    }
  }
}
