package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * The in-memory cluster the simulation mutates (autoscaler spec §2.1), and the one entry point other packages use: a
 * facade over the {@link NodeStore} (nodes and pods by index in fork/commit layers), the {@link LabelIndex}, the
 * {@link TopologyCounters}, the Filter phase ({@link FilterChain}) and the {@link PlacementMemos}. Every mutation
 * writes the store and then tells the index, the counters and the memos.
 *
 * <h2>Layers</h2>
 * {@link #fork()} pushes an empty delta layer (O(1)); every mutation writes copy-on-write entries into the
 * top layer; {@link #revert()} drops the top layer (O(1)); {@link #commit()} folds the top layer into its
 * parent (O(changes)). Node indexes are positions: a node added in a fork gets the next index, and indexes freed by
 * a revert are reused. The topology counters' values live in the store's layers; the memos keep layers of their own,
 * forked, reverted and committed with the store's.
 *
 * <h2>Placement</h2>
 * {@link #schedulePodOnAnyNode(CompiledPod)} is the placement primitive of spec §2.4: the filters of §2.3
 * ({@link #check}) in order, first failure wins, nodes visited round-robin from {@code lastMatchIndex + 1}, first
 * passing node wins. With the memos (the default) nodes a class already failed on for a
 * {@linkplain Reason.Durability STATIC or MONOTONE} reason are skipped; the plain path runs every filter on every
 * node. Both equal a naive scan (tested against one).
 *
 * <p>Not thread-safe. Every pod and node must come from the compiler given to the constructor.
 */
public final class ClusterSnapshot {

  private final SchedulingCompiler compiler;

  /** Nodes and pods by index, in layers. */
  private final NodeStore store;

  /** Label key -> value -> nodes carrying it (valid below the store's node count). */
  private final LabelIndex labelIndex = new LabelIndex();

  /** Topology counter definitions, per-node domains, and the counters' values (in the store's layers). */
  private final TopologyCounters topology;

  /** The Filter phase, and each class's pre-filter state by class id. */
  private final FilterChain filters;
  private PreFilterState[] classStates = new PreFilterState[64];

  /** The memo layer, or null on the plain path (every filter on every node). */
  private final PlacementMemos memos;

  /** An empty snapshot over nodes and pods compiled by {@code compiler}, placing with the memos. */
  public ClusterSnapshot(SchedulingCompiler compiler) {
    this(compiler, true);
  }

  /**
   * An empty snapshot; with {@code memoised} false every placement runs every filter on every node it visits (the
   * plain path, which the memoised one must equal).
   */
  ClusterSnapshot(SchedulingCompiler compiler, boolean memoised) {
    this.memos = memoised ? new PlacementMemos(labelIndex) : null;
    this.compiler = Objects.requireNonNull(compiler);
    this.store = new NodeStore(compiler.resources());
    this.topology = new TopologyCounters(compiler, store);
    this.filters = new FilterChain(compiler, topology, topology::counts);
  }

  /** The compiler this snapshot belongs to. */
  public SchedulingCompiler compiler() {
    return compiler;
  }

  // ---------------------------------------------------------------- layers

  /** Pushes a delta layer; later mutations can be dropped by {@link #revert()}. O(1). */
  public void fork() {
    store.fork();
    if (memos != null) {
      memos.fork();
    }
  }

  /** Drops the top layer and every mutation made since the matching {@link #fork()}. O(1). */
  public void revert() {
    store.revert();
    if (memos != null) {
      memos.revert();
    }
  }

  /** Drops every layer above the base: the snapshot as it was before the first open {@link #fork()}. */
  public void revertAll() {
    while (store.forked()) {
      revert();
    }
  }

  /** Folds the top layer into its parent, keeping its mutations. O(changes in the layer). */
  public void commit() {
    store.commit();
    if (memos != null) {
      memos.commit();
    }
  }

  /** Number of open forks. */
  public int depth() {
    return store.depth();
  }

  // ---------------------------------------------------------------- reads

  /** Number of node indexes in use (removed nodes keep their index until a revert). */
  public int nodeCount() {
    return store.nodeCount();
  }

  /** Number of nodes not removed. */
  public int liveNodeCount() {
    return store.liveNodeCount();
  }

  /** Number of pods on all nodes. */
  public int podCount() {
    return store.podCount();
  }

  /** The node at {@code index}. */
  public CompiledNode node(int index) {
    checkIndex(index);
    return store.node(index);
  }

  /** True when the node at {@code index} was removed. */
  public boolean isRemoved(int index) {
    checkIndex(index);
    return store.isRemoved(index);
  }

  /** Index of the live node named {@code name}, or -1. */
  public int nodeIndex(String name) {
    return store.nodeIndex(name);
  }

  /** Index of the node holding the pod with {@code uid}, or -1. */
  public int nodeOfPod(String uid) {
    return store.nodeOfPod(uid);
  }

  /** The pod with {@code uid}, or null when it is not in the snapshot. */
  public CompiledPod pod(String uid) {
    int i = store.nodeOfPod(uid);
    if (i < 0) {
      return null;
    }
    NodeState s = store.state(i);
    for (int k = 0; k < s.podCount; k++) {
      CompiledPod p = s.pod(k);
      if (p.uid().equals(uid)) {
        return p;
      }
    }
    return null;
  }

  /** The pods on node {@code index}, in insertion order (unmodifiable). */
  public List<CompiledPod> podsOn(int index) {
    checkIndex(index);
    return store.state(index).podList();
  }

  /** Number of pods on node {@code index}. */
  public int podCountOn(int index) {
    checkIndex(index);
    return store.state(index).podCount;
  }

  /** Sum of effective requests of resource {@code resourceId} on node {@code index}, milli-units. */
  public long requested(int index, int resourceId) {
    checkIndex(index);
    long[] r = store.state(index).requested;
    return resourceId < r.length ? r[resourceId] : 0;
  }

  /** As {@link #requested}, over the node's virtual pods only. */
  public long virtualRequested(int index, int resourceId) {
    checkIndex(index);
    long[] r = store.state(index).virtualRequested;
    return r != null && resourceId < r.length ? r[resourceId] : 0;
  }

  /** As {@link #requested}, over the node's DaemonSet and mirror pods. */
  public long daemonSetRequested(int index, int resourceId) {
    checkIndex(index);
    long[] r = store.state(index).apartRequested;
    return r != null && resourceId < r.length ? r[resourceId] : 0;
  }

  /** Index of the node where the last placement succeeded (-1 before the first). */
  public int lastMatchIndex() {
    return store.lastMatchIndex();
  }

  /** Live nodes carrying label {@code key} with value {@code value} (a copy, from the inverted label index). */
  public BitSet nodesWithLabel(String key, String value) {
    BitSet b = labelIndex.get(key, value);
    BitSet out = b == null ? new BitSet() : (BitSet) b.clone();
    if (out.length() > store.nodeCount()) {
      out.clear(store.nodeCount(), out.length());
    }
    BitSet removed = store.removed();
    if (removed != null) {
      out.andNot(removed);
    }
    return out;
  }

  /** The topology keys of the required anti-affinity terms of the pods in the snapshot (which new pods must respect). */
  Set<String> ownerTopologyKeys() {
    return topology.ownerTopologyKeys();
  }

  /** True once a pod registered a topology counter (topology spread or inter-pod (anti-)affinity). */
  public boolean hasTopologyCounters() {
    return !topology.isEmpty();
  }

  /** Number of removed nodes still holding an index (the base keeps them until it is built afresh). */
  public int removedNodeCount() {
    return store.nodeCount() - store.liveNodeCount();
  }

  // ---------------------------------------------------------------- mutations

  /** Adds a node without pods and returns its index. Node names must be unique among live nodes. */
  public int addNode(CompiledNode node) {
    if (store.nodeIndex(node.name()) >= 0) {
      throw new IllegalArgumentException("node " + node.name() + " already in the snapshot");
    }
    CompiledNode reused = store.slot(store.nodeCount());
    int id = store.addNode(node);
    if (reused != null) {
      labelIndex.remove(reused, id);
    }
    labelIndex.add(node, id);
    topology.nodeAdded(id, node);
    return id;
  }

  /**
   * Adds a node holding the pods that {@code from} (a snapshot of the same compiler) holds on its node
   * {@code fromIndex}, in the same order: {@link #addNode} and {@link #addPod} for each of those pods, with the
   * node's request sums copied instead of summed again.
   */
  public int addNodeWithPodsOf(CompiledNode node, ClusterSnapshot from, int fromIndex) {
    if (from.compiler != compiler) {
      throw new IllegalArgumentException("snapshots of different compilers");
    }
    int id = addNode(node);
    NodeState source = from.store.state(fromIndex);
    if (source.podCount == 0) {
      return id;
    }
    if (!topology.isEmpty()) {
      for (int k = 0; k < source.podCount; k++) {
        addPod(source.pod(k), id);
      }
      return id;
    }
    NodeState copy = store.putPodsOf(id, source);
    for (int j = 0; j < copy.podCount; j++) {
      topology.registerOwnerTerms(copy.pod(j));
    }
    return id;
  }

  /**
   * Puts {@code node} (a new version of the node of the same name, e.g. one that turned Ready) at
   * {@code index}, keeping the node's pods and their sums. Only on the base (no open fork) and while no pod
   * has registered a topology counter (spread or inter-pod affinity), whose per-domain counts would have to be
   * moved: returns false without changing anything otherwise.
   */
  public boolean replaceNode(int index, CompiledNode node) {
    checkIndex(index);
    CompiledNode old = store.node(index);
    if (!old.name().equals(node.name())) {
      throw new IllegalArgumentException("node " + node.name() + " cannot replace " + old.name());
    }
    if (store.forked() || !topology.isEmpty() || store.isRemoved(index)) {
      return false;
    }
    labelIndex.remove(old, index);
    if (memos != null) {
      memos.clear(); // remembered failures were for the old version of the node
    }
    store.replaceNode(index, node);
    labelIndex.add(node, index);
    topology.setNode(index, node);
    return true;
  }

  /** Adds a copy of a (template) node named {@code name}; see {@link CompiledNode#copyAs(String)}. */
  public int addNodeCopy(CompiledNode template, String name) {
    return addNode(template.copyAs(name));
  }

  /** Removes the node at {@code index} and its pods. */
  public void removeNode(int index) {
    checkIndex(index);
    if (store.isRemoved(index)) {
      throw new IllegalArgumentException("node " + index + " already removed");
    }
    for (CompiledPod p : new ArrayList<>(store.state(index).podList())) {
      removePod(p.uid());
    }
    topology.nodeRemoved(index);
    store.removeNode(index);
    markRemoval(index);
  }

  /** Adds a pod to node {@code index} without checking predicates (scheduled pods, committed placements). */
  public void addPod(CompiledPod pod, int index) {
    checkIndex(index);
    if (store.isRemoved(index)) {
      throw new IllegalArgumentException("node " + index + " was removed");
    }
    if (!store.addPodIfAbsent(pod, index)) {
      throw new IllegalArgumentException("pod " + pod.uid() + " already in the snapshot");
    }
    topology.podAdded(pod, index);
  }

  private void addPodAt(CompiledPod pod, int index) {
    store.addPod(pod, index);
    topology.podAdded(pod, index);
  }

  /** Adds a pod to the live node named {@code nodeName}. */
  public void addPod(CompiledPod pod, String nodeName) {
    int i = store.nodeIndex(nodeName);
    if (i < 0) {
      throw new IllegalArgumentException("no node " + nodeName);
    }
    addPod(pod, i);
  }

  /** Removes the pod with {@code uid}; returns false when it is not in the snapshot. */
  public boolean removePod(String uid) {
    int index = store.nodeOfPod(uid);
    if (index < 0) {
      return false;
    }
    CompiledPod pod = store.removePod(uid, index);
    topology.podRemoved(pod, index);
    markRemoval(index);
    return true;
  }

  /**
   * Closes node {@code index} to placements until the fork it was closed in is reverted, or it is
   * {@linkplain #reopenNode reopened}: no pod is placed on it, while its pods, labels and resources count for everything else
   * (topology counters, inter-pod affinity, the fit checks asked of it). A drain closes the node it empties.
   */
  public void closeNode(int index) {
    checkIndex(index);
    store.close(index);
  }

  /** True when node {@code index} is closed to placements. */
  public boolean isClosed(int index) {
    checkIndex(index);
    return store.isClosed(index);
  }

  /** Opens node {@code index} to placements again (in the top layer: a revert undoes it). */
  public void reopenNode(int index) {
    checkIndex(index);
    store.reopen(index);
  }

  /**
   * Removes the pod with {@code uid} from node {@code index}, where it must be (else this throws and nothing
   * changes): {@link #removePod} without looking the node up, for a caller that knows it (a drain).
   */
  public void removePodFrom(int index, String uid) {
    removePodsFrom(index, List.of(uid));
  }

  /**
   * Removes the pods with {@code uids} from node {@code index}, which must hold them all (else this throws): the same
   * result as {@link #removePodFrom} for each in turn, in one pass over the node's pods when they come in its order.
   */
  public void removePodsFrom(int index, List<String> uids) {
    checkIndex(index);
    if (uids.isEmpty()) {
      return;
    }
    for (CompiledPod pod : store.removePods(uids, index)) {
      topology.podRemoved(pod, index);
    }
    markRemoval(index);
  }

  /**
   * Removes every pod of node {@code index} (the node stays). Same result as {@link #removePod} for each of them;
   * on the base without topology counters the node's state is reset at once.
   */
  public void removePodsOn(int index) {
    checkIndex(index);
    NodeState s = store.state(index);
    if (s.podCount == 0) {
      return;
    }
    if (store.forked() || !topology.isEmpty() || store.isRemoved(index)) {
      for (CompiledPod p : new ArrayList<>(s.podList())) {
        removePod(p.uid());
      }
      return;
    }
    store.clearPodsOnBase(index);
    markRemoval(index);
  }

  private void markRemoval(int index) {
    if (memos != null) {
      memos.podRemoved(index);
    }
  }

  // ---------------------------------------------------------------- placement

  /** Places the pod on the first passing node of all nodes (spec §2.4); see the type comment. */
  public Placement schedulePodOnAnyNode(CompiledPod pod) {
    return schedule(pod, 0, store.nodeCount(), null);
  }

  /** Places the pod on the first passing node among those {@code acceptable} accepts. */
  public Placement schedulePodOnAnyNode(CompiledPod pod, IntPredicate acceptable) {
    return schedule(pod, 0, store.nodeCount(), acceptable);
  }

  /** As {@link #schedulePodOnAnyNode(CompiledPod, IntPredicate)}, returning the node's index, or -1 when none passes. */
  public int scheduleOnAnyNode(CompiledPod pod, IntPredicate acceptable) {
    return place(pod, 0, store.nodeCount(), acceptable);
  }

  /** Places the pod on the first passing node with index in {@code [from, to)}. */
  public Placement schedulePodInRange(CompiledPod pod, int from, int to) {
    return schedule(pod, Math.max(0, from), Math.min(to, store.nodeCount()), null);
  }

  private Placement schedule(CompiledPod pod, int from, int to, IntPredicate acceptable) {
    int found = place(pod, from, to, acceptable);
    return found < 0 ? Placement.NO_FIT : new Placement.Placed(found, store.node(found).name());
  }

  /** Places the pod on the first passing node in {@code [from, to)} (round-robin); its index, or -1. */
  private int place(CompiledPod pod, int from, int to, IntPredicate acceptable) {
    if (from >= to || !pod.isSupported()) {
      return -1;
    }
    classState(pod);
    int start = store.lastMatchIndex() + 1;
    if (start < from || start >= to) {
      start = from;
    }
    BitSet removed = store.unavailable(); // removed or closed
    int found =
        memos != null
            ? memos.firstFit(pod, from, start, to, store.nodeCount(), removed, acceptable, i -> firstFailure(pod, i, null),
                spreadDomain(pod))
            : plainFirstFit(pod, from, start, to, removed, acceptable);
    if (found < 0) {
      return -1;
    }
    // a pod being placed is not in the snapshot (pending, virtual, or removed first when moved): checked by the
    // tests' assertions only, since looking it up in every layer is a hash look-up per placement
    assert store.nodeOfPod(pod.uid()) < 0 : "pod " + pod.uid() + " already in the snapshot";
    addPodAt(pod, found);
    store.setLastMatchIndex(found);
    return found;
  }

  /**
   * For a pod whose spread constraints are all on one topology key other than the hostname: node index → its domain of
   * that key (-1 without the label), so a placement skips the nodes of a domain that failed PodTopologySpread
   * ({@link PlacementMemos#firstFit}); null otherwise (no spread, several keys, or hostname, where every node is a
   * domain of its own).
   */
  private java.util.function.IntUnaryOperator spreadDomain(CompiledPod pod) {
    PodTopologySpread.State st = classState(pod).spread;
    if (st == null || st.spreadDefs.length == 0) {
      return null;
    }
    int key = st.spreadDefs[0].keyId;
    for (TopologyCounters.CounterDef def : st.spreadDefs) {
      if (def.keyId != key) {
        return null;
      }
    }
    if (CompiledNode.HOSTNAME_LABEL.equals(topology.keyName(key))) {
      return null;
    }
    return i -> topology.domain(key, i);
  }

  /** The plain path: the first node in {@code [start, to)}, then {@code [from, start)}, passing every filter and accepted. */
  private int plainFirstFit(CompiledPod pod, int from, int start, int to, BitSet removed, IntPredicate acceptable) {
    for (int i = start; i < to; i++) {
      if ((removed == null || !removed.get(i)) && firstFailure(pod, i, null) == null && (acceptable == null || acceptable.test(i))) {
        return i;
      }
    }
    for (int i = from; i < start; i++) {
      if ((removed == null || !removed.get(i)) && firstFailure(pod, i, null) == null && (acceptable == null || acceptable.test(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Runs the predicate table of spec §2.3 for the pod on node {@code index}, without side effects. */
  public FitResult check(CompiledPod pod, int index) {
    checkIndex(index);
    if (store.isRemoved(index)) {
      throw new IllegalArgumentException("node " + index + " was removed");
    }
    List<String> messages = new ArrayList<>(2);
    Reason r = firstFailure(pod, index, messages);
    return r == null ? FitResult.FITS : new FitResult.Fails(r, messages);
  }

  /** The first failing predicate's reason for the pod on node {@code index}, or null when it fits (no messages built). */
  Reason failure(CompiledPod pod, int index) {
    return firstFailure(pod, index, null);
  }

  /**
   * Runs the predicates for the pod against an empty node that does not exist yet (a node-group template),
   * as if it had been added: same answer as fork, add, check, revert, without touching the snapshot.
   */
  public FitResult checkOnTemplate(CompiledPod pod, CompiledNode template) {
    List<String> messages = new ArrayList<>(2);
    Reason r = firstFailure(pod, -1, template, new NodeState(new long[0]), messages);
    return r == null ? FitResult.FITS : new FitResult.Fails(r, messages);
  }

  /** Why the pod fits none of the live nodes (nodes where it fits are counted as available). */
  public Diagnosis diagnose(CompiledPod pod) {
    Map<String, FitResult.Fails> failures = new LinkedHashMap<>();
    TreeMap<String, Integer> counts = new TreeMap<>();
    int n = 0;
    for (int i = 0; i < store.nodeCount(); i++) {
      if (store.isRemoved(i)) {
        continue;
      }
      n++;
      FitResult r = check(pod, i);
      if (r instanceof FitResult.Fails f) {
        failures.put(store.node(i).name(), f);
        for (String m : f.messages()) {
          counts.merge(m, 1, Integer::sum);
        }
      }
    }
    return new Diagnosis(n, failures, counts);
  }

  // ---------------------------------------------------------------- predicates

  /** The first failing reason, or null; fills {@code messages} when not null. */
  private Reason firstFailure(CompiledPod pod, int index, List<String> messages) {
    return firstFailure(pod, index, store.node(index), store.state(index), messages);
  }

  /**
   * The filters against node {@code node} with aggregates {@code s}; {@code index} is -1 for a template
   * (not yet added) empty node, whose topology domains are looked up without being added to the counters.
   */
  private Reason firstFailure(CompiledPod pod, int index, CompiledNode node, NodeState s, List<String> messages) {
    if (!pod.isSupported()) {
      return FilterChain.unsupported(pod, messages);
    }
    return filters.firstFailure(pod, classState(pod), index, node, s, messages);
  }

  // ---------------------------------------------------------------- pre-filter state per class

  /** The class's pre-filter state, made on the class's first contact with the snapshot (and its memo shape). */
  private PreFilterState classState(CompiledPod pod) {
    int id = pod.classId();
    if (id >= classStates.length) {
      int n = Math.max(id + 1, classStates.length * 2);
      classStates = Arrays.copyOf(classStates, n);
    }
    PreFilterState st = classStates[id];
    if (st == null) {
      if (memos != null) {
        memos.addClass(pod);
      }
      st = filters.preFilter(pod);
      classStates[id] = st;
    }
    return st;
  }

  private void checkIndex(int index) {
    if (index < 0 || index >= store.nodeCount()) {
      throw new IndexOutOfBoundsException("node index " + index + " of " + store.nodeCount());
    }
  }
}
