package dev.headroom.core.scheduling;

import dev.headroom.core.scheduling.TopologyCounters.CounterDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * The in-memory cluster the simulation mutates (autoscaler spec §2.1), and the one entry point other packages use: a
 * facade over the node store (this class's layers and {@link NodeState}), the {@link LabelIndex}, the
 * {@link TopologyCounters}, the Filter phase ({@link FilterChain}) and the {@link PlacementMemos}.
 *
 * <h2>Layers</h2>
 * {@link #fork()} pushes an empty delta layer (O(1)); every mutation writes copy-on-write entries into the
 * top layer; {@link #revert()} drops the top layer (O(1)); {@link #commit()} folds the top layer into its
 * parent (O(changes)). Reads walk the layers top-down. Node indexes are positions: a node added in a fork
 * gets the next index, and indexes freed by a revert are reused. The topology counters' values and the memos are
 * layered the same way.
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

  private static final NodeState REMOVED = new NodeState(new long[0]);

  private final SchedulingCompiler compiler;
  private final ResourceIds resources;

  // Static per-index data, valid for indexes below top.nodeCount (overwritten when an index is reused).
  private CompiledNode[] nodes = new CompiledNode[64];


  // Label index: key -> value -> nodes carrying it (valid below top.nodeCount).
  private final LabelIndex labelIndex = new LabelIndex();

  // Topology counter definitions and per-node domains (the counters' values are layered).
  private final TopologyCounters topology;

  // The Filter phase, and each class's pre-filter state by class id.
  private final FilterChain filters;
  private PreFilterState[] classStates = new PreFilterState[64];

  private final IntBoxes boxes = new IntBoxes();
  /** The memo layer, or null on the plain path (every filter on every node). */
  private final PlacementMemos memos;

  private Layer top;
  private int depth;

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
    this.resources = compiler.resources();
    this.top = new Layer(null);
    this.top.lastMatchIndex = -1;
    this.topology = new TopologyCounters(compiler, i -> nodes[i], () -> top.nodeCount, nodes.length);
    this.filters = new FilterChain(compiler, topology, this::counter);
  }

  /** The compiler this snapshot belongs to. */
  public SchedulingCompiler compiler() {
    return compiler;
  }

  // ---------------------------------------------------------------- layers

  /** Pushes a delta layer; later mutations can be dropped by {@link #revert()}. O(1). */
  public void fork() {
    Layer l = new Layer(top);
    l.nodeCount = top.nodeCount;
    l.liveNodes = top.liveNodes;
    l.podTotal = top.podTotal;
    l.lastMatchIndex = top.lastMatchIndex;
    top = l;
    depth++;
    if (memos != null) {
      memos.fork();
    }
  }

  /** Drops the top layer and every mutation made since the matching {@link #fork()}. O(1). */
  public void revert() {
    if (top.parent == null) {
      throw new IllegalStateException("revert without fork");
    }
    Layer dropped = top;
    top = top.parent;
    depth--;
    if (memos != null) {
      memos.revert();
    }
    recycle(dropped);
  }

  /** A dropped or folded layer's state array, emptied, for the next layer that writes (forks are frequent). */
  private NodeState[] spareStates;

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

  /** Drops every layer above the base: the snapshot as it was before the first open {@link #fork()}. */
  public void revertAll() {
    while (top.parent != null) {
      revert();
    }
  }

  /** Folds the top layer into its parent, keeping its mutations. O(changes in the layer). */
  public void commit() {
    Layer c = top;
    Layer p = c.parent;
    if (p == null) {
      throw new IllegalStateException("commit without fork");
    }
    if (c.states != null) {
      for (int i = 0; i < c.states.length; i++) {
        if (c.states[i] != null) {
          p.writeState(i, c.states[i]);
        }
      }
    }
    if (c.removed != null) {
      p.removed = c.removed;
    }
    p.nodeNames.putAll(c.nodeNames);
    p.podNodes.putAll(c.podNodes);
    p.counters.putAll(c.counters);
    if (memos != null) {
      memos.commit();
    }
    p.nodeCount = c.nodeCount;
    p.liveNodes = c.liveNodes;
    p.podTotal = c.podTotal;
    p.lastMatchIndex = c.lastMatchIndex;
    top = p;
    depth--;
    recycle(c);
  }

  /** Number of open forks. */
  public int depth() {
    return depth;
  }

  // ---------------------------------------------------------------- reads

  /** Number of node indexes in use (removed nodes keep their index until a revert). */
  public int nodeCount() {
    return top.nodeCount;
  }

  /** Number of nodes not removed. */
  public int liveNodeCount() {
    return top.liveNodes;
  }

  /** Number of pods on all nodes. */
  public int podCount() {
    return top.podTotal;
  }

  /** The node at {@code index}. */
  public CompiledNode node(int index) {
    checkIndex(index);
    return nodes[index];
  }

  /** True when the node at {@code index} was removed. */
  public boolean isRemoved(int index) {
    checkIndex(index);
    BitSet r = removedSet(top);
    return r != null && r.get(index);
  }

  /** Index of the live node named {@code name}, or -1. */
  public int nodeIndex(String name) {
    for (Layer l = top; l != null; l = l.parent) {
      Integer i = l.nodeNames.get(name);
      if (i != null) {
        return i;
      }
    }
    return -1;
  }

  /** Index of the node holding the pod with {@code uid}, or -1. */
  public int nodeOfPod(String uid) {
    for (Layer l = top; l != null; l = l.parent) {
      Integer i = l.podNodes.get(uid);
      if (i != null) {
        return i;
      }
    }
    return -1;
  }

  /** The pod with {@code uid}, or null when it is not in the snapshot. */
  public CompiledPod pod(String uid) {
    int i = nodeOfPod(uid);
    if (i < 0) {
      return null;
    }
    NodeState s = state(i);
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
    return state(index).podList();
  }

  /** Number of pods on node {@code index}. */
  public int podCountOn(int index) {
    checkIndex(index);
    return state(index).podCount;
  }

  /** Sum of effective requests of resource {@code resourceId} on node {@code index}, milli-units. */
  public long requested(int index, int resourceId) {
    checkIndex(index);
    long[] r = state(index).requested;
    return resourceId < r.length ? r[resourceId] : 0;
  }

  /** As {@link #requested}, over the node's virtual pods only. */
  public long virtualRequested(int index, int resourceId) {
    checkIndex(index);
    long[] r = state(index).virtualRequested;
    return r != null && resourceId < r.length ? r[resourceId] : 0;
  }

  /** As {@link #requested}, over the node's DaemonSet and mirror pods. */
  public long daemonSetRequested(int index, int resourceId) {
    checkIndex(index);
    long[] r = state(index).apartRequested;
    return r != null && resourceId < r.length ? r[resourceId] : 0;
  }

  /** Index of the node where the last placement succeeded (-1 before the first). */
  public int lastMatchIndex() {
    return top.lastMatchIndex;
  }

  // ---------------------------------------------------------------- mutations

  /** Adds a node without pods and returns its index. Node names must be unique among live nodes. */
  public int addNode(CompiledNode node) {
    if (nodeIndex(node.name()) >= 0) {
      throw new IllegalArgumentException("node " + node.name() + " already in the snapshot");
    }
    int id = top.nodeCount;
    ensureNodeCapacity(id + 1);
    CompiledNode old = nodes[id];
    if (old != null) {
      labelIndex.remove(old, id);
    }
    nodes[id] = node;
    labelIndex.add(node, id);
    topology.setNode(id, node);
    top.nodeCount = id + 1;
    top.liveNodes++;
    top.writeState(id, new NodeState(new long[resources.size()]));
    top.nodeNames.put(node.name(), boxes.of(id));
    if (top.removed != null && top.removed.get(id)) {
      top.removed.clear(id);
    }
    for (CounterDef def : topology.defs()) {
      DomainCounts c = counterForWrite(def);
      if (c != null && def.eligible(node)) {
        c.addNode(id, topology.domain(def.keyId, id));
      }
    }
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
    NodeState source = from.state(fromIndex);
    if (source.podCount == 0) {
      return id;
    }
    if (!topology.isEmpty()) {
      for (int k = 0; k < source.podCount; k++) {
        addPod(source.pod(k), id);
      }
      return id;
    }
    NodeState copy = source.detachedCopy();
    top.writeState(id, copy);
    for (int j = 0; j < copy.podCount; j++) {
      CompiledPod p = copy.pod(j);
      Integer was = top.podNodes.put(p.uid(), boxes.of(id));
      if (was != null && was >= 0) {
        throw new IllegalArgumentException("pod " + p.uid() + " already in the snapshot");
      }
      top.podTotal++;
      List<AffinityTerm> anti = p.antiAffinity();
      for (int k = 0; k < anti.size(); k++) {
        topology.registerOwnerTerm(anti.get(k));
      }
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
    CompiledNode old = nodes[index];
    if (!old.name().equals(node.name())) {
      throw new IllegalArgumentException("node " + node.name() + " cannot replace " + old.name());
    }
    if (top.parent != null || !topology.isEmpty() || isRemoved(index)) {
      return false;
    }
    labelIndex.remove(old, index);
    if (memos != null) {
      memos.clear(); // remembered failures were for the old version of the node
    }
    nodes[index] = node;
    labelIndex.add(node, index);
    topology.setNode(index, node);
    return true;
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
    return top.nodeCount - top.liveNodes;
  }


  /** Adds a copy of a (template) node named {@code name}; see {@link CompiledNode#copyAs(String)}. */
  public int addNodeCopy(CompiledNode template, String name) {
    return addNode(template.copyAs(name));
  }

  /** Removes the node at {@code index} and its pods. */
  public void removeNode(int index) {
    checkIndex(index);
    if (isRemoved(index)) {
      throw new IllegalArgumentException("node " + index + " already removed");
    }
    for (CompiledPod p : new ArrayList<>(state(index).podList())) {
      removePod(p.uid());
    }
    CompiledNode node = nodes[index];
    for (CounterDef def : topology.defs()) {
      DomainCounts c = counterForWrite(def);
      if (c != null && c.eligible.get(index)) {
        c.removeNode(index, topology.domain(def.keyId, index));
      }
    }
    if (top.removed == null) {
      BitSet inherited = removedSet(top.parent);
      top.removed = inherited == null ? new BitSet() : (BitSet) inherited.clone();
    }
    top.removed.set(index);
    top.writeState(index, REMOVED);
    top.nodeNames.put(node.name(), -1);
    top.liveNodes--;
    markRemoval(index);
  }

  /** Adds a pod to node {@code index} without checking predicates (scheduled pods, committed placements). */
  public void addPod(CompiledPod pod, int index) {
    checkIndex(index);
    if (isRemoved(index)) {
      throw new IllegalArgumentException("node " + index + " was removed");
    }
    if (nodeOfPod(pod.uid()) >= 0) {
      throw new IllegalArgumentException("pod " + pod.uid() + " already in the snapshot");
    }
    addPodAt(pod, index);
  }

  private void addPodAt(CompiledPod pod, int index) {
    NodeState s = stateForWrite(index);
    s.add(pod);
    top.podNodes.put(pod.uid(), boxes.of(index));
    top.podTotal++;
    List<AffinityTerm> anti = pod.antiAffinity();
    for (int k = 0; k < anti.size(); k++) {
      topology.registerOwnerTerm(anti.get(k));
    }
    for (int d = 0; d < topology.defs().size(); d++) {
      CounterDef def = topology.defs().get(d);
      if (def.matches(pod)) {
        DomainCounts c = counterForWrite(def);
        if (c != null && c.eligible.get(index)) {
          c.addCount(topology.domain(def.keyId, index), def.multiplicity(pod));
        }
      }
    }
  }

  /** Adds a pod to the live node named {@code nodeName}. */
  public void addPod(CompiledPod pod, String nodeName) {
    int i = nodeIndex(nodeName);
    if (i < 0) {
      throw new IllegalArgumentException("no node " + nodeName);
    }
    addPod(pod, i);
  }

  /** Removes the pod with {@code uid}; returns false when it is not in the snapshot. */
  public boolean removePod(String uid) {
    int index = nodeOfPod(uid);
    if (index < 0) {
      return false;
    }
    NodeState s = stateForWrite(index);
    CompiledPod pod = s.remove(uid);
    if (top.parent == null) {
      top.podNodes.remove(uid);
    } else {
      top.podNodes.put(uid, -1);
    }
    top.podTotal--;
    for (int d = 0; d < topology.defs().size(); d++) {
      CounterDef def = topology.defs().get(d);
      if (def.matches(pod)) {
        DomainCounts c = counterForWrite(def);
        if (c != null && c.eligible.get(index)) {
          c.addCount(topology.domain(def.keyId, index), -def.multiplicity(pod));
        }
      }
    }
    markRemoval(index);
    return true;
  }

  /**
   * Removes every pod of node {@code index} (the node stays). Same result as {@link #removePod} for each of them;
   * on the base without topology counters the node's state is reset at once.
   */
  public void removePodsOn(int index) {
    checkIndex(index);
    NodeState s = state(index);
    if (s.podCount == 0) {
      return;
    }
    if (top.parent != null || !topology.isEmpty() || isRemoved(index)) {
      for (CompiledPod p : new ArrayList<>(s.podList())) {
        removePod(p.uid());
      }
      return;
    }
    for (int k = 0; k < s.podCount; k++) {
      top.podNodes.remove(s.pod(k).uid());
    }
    top.podTotal -= s.podCount;
    top.writeState(index, new NodeState(new long[resources.size()]));
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
    return schedule(pod, 0, top.nodeCount, null);
  }

  /** Places the pod on the first passing node among those {@code acceptable} accepts. */
  public Placement schedulePodOnAnyNode(CompiledPod pod, IntPredicate acceptable) {
    return schedule(pod, 0, top.nodeCount, acceptable);
  }

  /** As {@link #schedulePodOnAnyNode(CompiledPod, IntPredicate)}, returning the node's index, or -1 when none passes. */
  public int scheduleOnAnyNode(CompiledPod pod, IntPredicate acceptable) {
    return place(pod, 0, top.nodeCount, acceptable);
  }

  /** Places the pod on the first passing node with index in {@code [from, to)}. */
  public Placement schedulePodInRange(CompiledPod pod, int from, int to) {
    return schedule(pod, Math.max(0, from), Math.min(to, top.nodeCount), null);
  }

  private Placement schedule(CompiledPod pod, int from, int to, IntPredicate acceptable) {
    int found = place(pod, from, to, acceptable);
    return found < 0 ? Placement.NO_FIT : new Placement.Placed(found, nodes[found].name());
  }

  /** Places the pod on the first passing node in {@code [from, to)} (round-robin); its index, or -1. */
  private int place(CompiledPod pod, int from, int to, IntPredicate acceptable) {
    if (from >= to || !pod.isSupported()) {
      return -1;
    }
    classState(pod);
    int start = top.lastMatchIndex + 1;
    if (start < from || start >= to) {
      start = from;
    }
    BitSet removed = removedSet(top);
    int found =
        memos != null
            ? memos.firstFit(pod, from, start, to, top.nodeCount, removed, acceptable, i -> firstFailure(pod, i, null))
            : plainFirstFit(pod, from, start, to, removed, acceptable);
    if (found < 0) {
      return -1;
    }
    // a pod being placed is not in the snapshot (pending, virtual, or removed first when moved): checked by the
    // tests' assertions only, since looking it up in every layer is a hash look-up per placement
    assert nodeOfPod(pod.uid()) < 0 : "pod " + pod.uid() + " already in the snapshot";
    addPodAt(pod, found);
    top.lastMatchIndex = found;
    return found;
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
    if (isRemoved(index)) {
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
    for (int i = 0; i < top.nodeCount; i++) {
      if (isRemoved(i)) {
        continue;
      }
      n++;
      FitResult r = check(pod, i);
      if (r instanceof FitResult.Fails f) {
        failures.put(nodes[i].name(), f);
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
    return firstFailure(pod, index, nodes[index], state(index), messages);
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



  // ---------------------------------------------------------------- counters

  /** The counter of {@code def} as seen from the top layer, deriving it from the layers when missing. */
  private DomainCounts counter(CounterDef def) {
    for (Layer l = top; l != null; l = l.parent) {
      DomainCounts c = l.counters.get(def.id);
      if (c != null) {
        return c;
      }
    }
    return derive(def, top);
  }

  private DomainCounts derive(CounterDef def, Layer layer) {
    DomainCounts parent = null;
    if (layer.parent != null) {
      parent = layer.parent.counters.get(def.id);
      if (parent == null) {
        parent = derive(def, layer.parent);
      }
    }
    DomainCounts c = parent == null ? new DomainCounts() : parent.copy();
    if (layer.states != null) {
      for (int i = 0; i < layer.states.length && i < layer.nodeCount; i++) {
        NodeState s = layer.states[i];
        if (s == null) {
          continue;
        }
        if (parent != null && parent.eligible.get(i)) {
          NodeState old = layer.parent == null ? null : stateAt(layer.parent, i);
          if (old != null && old != REMOVED) {
            c.addCount(topology.domain(def.keyId, i), -matching(def, old));
          }
          c.removeNode(i, topology.domain(def.keyId, i));
        }
        if (s != REMOVED && def.eligible(nodes[i])) {
          c.addNode(i, topology.domain(def.keyId, i));
          c.addCount(topology.domain(def.keyId, i), matching(def, s));
        }
      }
    }
    layer.counters.put(def.id, c);
    return c;
  }

  private int matching(CounterDef def, NodeState s) {
    int n = 0;
    for (int k = 0; k < s.podCount; k++) {
      CompiledPod p = s.pod(k);
      if (def.matches(p)) {
        n += def.multiplicity(p);
      }
    }
    return n;
  }

  /** The top layer's own copy of the counter, or null when no layer has derived it yet. */
  private DomainCounts counterForWrite(CounterDef def) {
    DomainCounts own = top.counters.get(def.id);
    if (own != null) {
      return own;
    }
    for (Layer l = top.parent; l != null; l = l.parent) {
      DomainCounts c = l.counters.get(def.id);
      if (c != null) {
        DomainCounts copy = c.copy();
        top.counters.put(def.id, copy);
        return copy;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- node state

  private final class Layer {
    final Layer parent;
    int nodeCount;
    int liveNodes;
    int podTotal;
    int lastMatchIndex;
    NodeState[] states;
    BitSet removed;
    final HashMap<String, Integer> nodeNames = new HashMap<>();
    final HashMap<String, Integer> podNodes = new HashMap<>();
    final HashMap<Integer, DomainCounts> counters = new HashMap<>();

    Layer(Layer parent) {
      this.parent = parent;
    }

    NodeState own(int i) {
      return states != null && i < states.length ? states[i] : null;
    }

    void writeState(int i, NodeState s) {
      if (states == null) {
        int size = Math.max(16, Math.max(i + 1, nodeCount));
        if (spareStates != null && spareStates.length >= size) {
          states = spareStates;
          spareStates = null;
        } else {
          states = new NodeState[size];
        }
      } else if (i >= states.length) {
        states = Arrays.copyOf(states, Math.max(i + 1, states.length * 2));
      }
      states[i] = s;
    }
  }

  private NodeState state(int i) {
    return stateAt(top, i);
  }

  private static NodeState stateAt(Layer from, int i) {
    for (Layer l = from; l != null; l = l.parent) {
      NodeState s = l.own(i);
      if (s != null) {
        return s;
      }
    }
    throw new IllegalStateException("no state for node " + i);
  }

  private NodeState stateForWrite(int i) {
    NodeState own = top.own(i);
    if (own != null) {
      return own;
    }
    NodeState copy = stateAt(top.parent, i).forkCopy();
    top.writeState(i, copy);
    return copy;
  }

  private static BitSet removedSet(Layer from) {
    for (Layer l = from; l != null; l = l.parent) {
      if (l.removed != null) {
        return l.removed;
      }
    }
    return null;
  }

  private void checkIndex(int index) {
    if (index < 0 || index >= top.nodeCount) {
      throw new IndexOutOfBoundsException("node index " + index + " of " + top.nodeCount);
    }
  }

  // ---------------------------------------------------------------- node capacity and label index

  private void ensureNodeCapacity(int n) {
    if (n > nodes.length) {
      int cap = Math.max(n, nodes.length * 2);
      nodes = Arrays.copyOf(nodes, cap);
      topology.ensureCapacity(cap);
    }
  }

  /**
   * Live nodes carrying label {@code key} with value {@code value} (a copy, from the inverted label index).
   */
  public BitSet nodesWithLabel(String key, String value) {
    BitSet b = labelIndex.get(key, value);
    BitSet out = b == null ? new BitSet() : (BitSet) b.clone();
    if (out.length() > top.nodeCount) {
      out.clear(top.nodeCount, out.length());
    }
    BitSet removed = removedSet(top);
    if (removed != null) {
      out.andNot(removed);
    }
    return out;
  }
}
