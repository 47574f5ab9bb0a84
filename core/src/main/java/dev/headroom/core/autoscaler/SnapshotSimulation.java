package dev.headroom.core.autoscaler;

import dev.headroom.core.scheduling.BinpackingEstimator;
import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.CompiledNode;
import dev.headroom.core.scheduling.CompiledPod;
import dev.headroom.core.scheduling.FitResult;
import dev.headroom.core.scheduling.NodeLimiter;
import dev.headroom.core.scheduling.PodClass;
import dev.headroom.core.scheduling.Reason;
import dev.headroom.core.scheduling.ResourceIds;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The production {@link SchedulingSimulation}: a {@link ClusterSnapshot} of the scheduling package with its
 * §2.3 predicates, equivalence classes and binpacking estimator. Pods and nodes are compiled once per loop.
 */
public final class SnapshotSimulation implements SchedulingSimulation {

  private static final Set<Reason> NODE_LEVEL = Set.of(Reason.NODE_UNSCHEDULABLE, Reason.NODE_NAME,
      Reason.UNTOLERATED_TAINT, Reason.NODE_AFFINITY, Reason.TOO_MANY_PODS, Reason.INSUFFICIENT_RESOURCE, Reason.UNSUPPORTED);

  private final SchedulingCompiler compiler;
  private ClusterSnapshot snapshot;
  private final CompileCache.Session cache;
  // the compile functions handed to the cache, made once rather than at every look-up
  private final java.util.function.Function<Pod, CompiledPod> heldOrCompiled = this::heldOrCompiled;
  private final java.util.function.Function<Pod, CompiledPod> compileDetached;
  private final java.util.function.Function<Node, CompiledNode> compileNode;

  public SnapshotSimulation() {
    this(new CompileCache());
  }

  /** A simulation whose compiled pods and nodes come from (and go back to) {@code cache}, kept across loops. */
  public SnapshotSimulation(CompileCache cache) {
    this.cache = cache.begin();
    this.compiler = this.cache.compiler();
    this.compileDetached = this::detached;
    this.compileNode = compiler::compile;
    this.snapshot = newSnapshot();
  }

  private ClusterSnapshot newSnapshot() {
    return new ClusterSnapshot(compiler);
  }

  /** The underlying snapshot (read access for diagnostics). */
  public ClusterSnapshot snapshot() {
    return snapshot;
  }

  private CompiledPod compiled(Pod p) {
    return cache.pod(CompileCache.Kind.AS_IS, p, heldOrCompiled);
  }

  /**
   * The compiled form the snapshot holds for this very pod object (loaded or placed in this loop, so current),
   * else a fresh compilation.
   */
  private CompiledPod heldOrCompiled(Pod p) {
    CompiledPod held = snapshot.pod(SchedulingCompiler.uidOf(p));
    return current(held, p) ? held : compiler.compile(p);
  }

  /**
   * True when {@code form} is the attached form of this very pod object as it is now: compiled from {@code p}, not
   * its moved (detached) form, and not from before the object was marked for deletion (terminating pods do not count
   * for topology spread).
   */
  private static boolean current(CompiledPod form, Pod p) {
    String nodeName = p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty()
        ? null : p.getSpec().getNodeName();
    return form != null && form.pod() == p && java.util.Objects.equals(form.nodeName(), nodeName)
        && form.isTerminating() == SchedulingCompiler.terminating(p.getMetadata());
  }

  /**
   * The detached form of bound pod {@code p}: derived from its current attached form when the cache holds one
   * (the loop loaded it), else compiled from the spec; the two are equal ({@link SchedulingCompiler#detachedOf}).
   */
  private CompiledPod detached(Pod p) {
    CompiledPod attached = cache.cachedPod(CompileCache.Kind.AS_IS, p);
    return current(attached, p) ? compiler.detachedOf(attached) : compiler.compileDetached(p);
  }

  /** A bound pod being moved: compiled without its {@code nodeName} (no copy of the pod), so NodeName does not pin it. */
  private CompiledPod movable(Pod p) {
    if (p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty()) {
      return compiled(p);
    }
    return cache.pod(CompileCache.Kind.DETACHED, p, compileDetached);
  }

  private CompiledNode compiled(Node n) {
    return cache.node(CompileCache.Kind.AS_IS, n, compileNode);
  }

  /**
   * Loads the loop's nodes and bound pods. The loaded state is kept in the cache for the next loop. When that
   * loop knows which pods changed, it reverts this loop's additions and applies only the changes: the changed
   * pods (a pod that changed is re-added at the end of its node's list), and, when nodes differ, removed nodes,
   * new versions of nodes (in place) and new nodes that sort after every kept one (appended, with their pods).
   * Anything else — a new node in the middle of the order, topology counters, many removed nodes — builds the
   * snapshot again, taking unchanged nodes over with their pods. Everything the loop adds afterwards lives in
   * a layer above the loaded state.
   */
  @Override
  public void load(List<Node> nodes, BoundPods pods, Predicate<BoundPod> loadable, java.util.Set<String> changed) {
    List<CompiledNode> compiledNodes = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      compiledNodes.add(compiled(n));
    }
    CompileCache.Base base = cache.previousBase();
    ClusterSnapshot kept = base != null && changed != null ? base.snapshot() : null;
    if (kept != null) {
      kept.revertAll();
      NodeChanges diff = NodeChanges.of(kept, base.nodes(), compiledNodes);
      if (diff != null) {
        apply(kept, diff, pods, loadable, changed);
        cache.reusedBase();
        if (!diff.isEmpty()) {
          cache.changedNodesInPlace();
        }
        snapshot = kept;
      } else {
        snapshot = build(kept, compiledNodes, pods, loadable, changed);
      }
    } else {
      snapshot = build(null, compiledNodes, pods, loadable, changed);
    }
    cache.keepBase(compiledNodes, snapshot);
    snapshot.fork();
  }

  /**
   * How the kept snapshot's nodes ({@code before}, in load order) become {@code after}: null when that cannot
   * be done in place.
   */
  private record NodeChanges(List<Integer> removed, List<Integer> replacedAt, List<CompiledNode> replacements,
      List<CompiledNode> appended) {

    /**
     * Removed nodes the kept snapshot holds on to (their indexes stay in use) before it is built afresh: at least
     * this many, or half the live nodes.
     */
    static final int MIN_HOLES = 64;

    boolean isEmpty() {
      return removed.isEmpty() && replacedAt.isEmpty() && appended.isEmpty();
    }

    static NodeChanges of(ClusterSnapshot s, List<CompiledNode> before, List<CompiledNode> after) {
      if (sameNodes(before, after)) {
        return new NodeChanges(List.of(), List.of(), List.of(), List.of());
      }
      List<Integer> removed = new ArrayList<>();
      List<Integer> replacedAt = new ArrayList<>();
      List<CompiledNode> replacements = new ArrayList<>();
      int i = 0;
      int j = 0;
      while (i < before.size() && j < after.size()) {
        CompiledNode a = before.get(i);
        CompiledNode b = after.get(j);
        int c = a.name().compareTo(b.name());
        if (c == 0) {
          if (a != b) {
            replacedAt.add(s.nodeIndex(a.name()));
            replacements.add(b);
          }
          i++;
          j++;
        } else if (c < 0) {
          removed.add(s.nodeIndex(a.name()));
          i++;
        } else {
          return null; // a node between kept ones: positions follow the load order
        }
      }
      for (; i < before.size(); i++) {
        removed.add(s.nodeIndex(before.get(i).name()));
      }
      List<CompiledNode> appended = after.subList(j, after.size());
      if (!inNameOrder(before) || !inNameOrder(after)) {
        return null; // the merge above applies to lists in name order only
      }
      if (!replacedAt.isEmpty() && s.hasTopologyCounters()) {
        return null;
      }
      if (s.removedNodeCount() + removed.size() > Math.max(MIN_HOLES, after.size() / 2)) {
        return null;
      }
      return new NodeChanges(removed, replacedAt, replacements, appended);
    }

    private static boolean inNameOrder(List<CompiledNode> nodes) {
      for (int k = 1; k < nodes.size(); k++) {
        if (nodes.get(k - 1).name().compareTo(nodes.get(k).name()) >= 0) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Applies the changed pods and {@code diff} to the kept snapshot {@code s} (on its base). Every node a
   * changed pod left or joined gets its pods again from {@code pods}, in their order, as a fresh build would
   * give them; so do appended nodes.
   */
  private void apply(ClusterSnapshot s, NodeChanges diff, BoundPods pods, Predicate<BoundPod> loadable,
      java.util.Set<String> changed) {
    java.util.Set<String> dirty = dirtyNodes(s, pods, changed, loadable);
    List<Integer> refill = new ArrayList<>();
    for (String name : dirty) {
      int i = s.nodeIndex(name);
      if (i >= 0) {
        s.removePodsOn(i);
        refill.add(i);
      }
    }
    for (int index : diff.removed()) {
      s.removeNode(index);
    }
    for (int k = 0; k < diff.replacedAt().size(); k++) {
      if (!s.replaceNode(diff.replacedAt().get(k), diff.replacements().get(k))) {
        throw new IllegalStateException("node " + diff.replacements().get(k).name() + " not replaceable");
      }
    }
    for (CompiledNode n : diff.appended()) {
      refill.add(s.addNode(n));
    }
    for (int i : refill) {
      if (s.isRemoved(i)) {
        continue;
      }
      for (BoundPod b : pods.on(s.node(i).name())) {
        if (loadable.test(b)) {
          s.addPod(compiled(b.pod()), i);
        }
      }
    }
  }

  /**
   * Names of the nodes a changed pod left (in the kept snapshot {@code s}) or joined (now), in that order. A
   * pod that changed in place — still loaded on the same node, and the cache's current compiled form of it is
   * the very one the snapshot holds (a status change of the same object) — leaves its node as it is: a refill
   * would put the same compiled pod back at the same place (a pod keeps its place in the order while it exists).
   */
  private java.util.Set<String> dirtyNodes(ClusterSnapshot s, BoundPods pods, java.util.Set<String> changed,
      Predicate<BoundPod> loadable) {
    java.util.Set<String> dirty = new java.util.LinkedHashSet<>();
    for (String uid : changed) {
      int was = s.nodeOfPod(uid);
      BoundPod now = pods.byUid(uid);
      if (was >= 0 && now != null && now.nodeName().equals(s.node(was).name()) && loadable.test(now)) {
        CompiledPod held = s.pod(uid);
        if (held != null && cache.cachedPod(CompileCache.Kind.AS_IS, now.pod()) == held) {
          continue;
        }
      }
      if (was >= 0) {
        dirty.add(s.node(was).name());
      }
      if (now != null) {
        dirty.add(now.nodeName());
      }
    }
    return dirty;
  }

  /**
   * A new snapshot of {@code nodes}. When {@code previous} (the kept snapshot, with {@code changed} the pods
   * changed since it was loaded) is given, a node that is the same compiled node and none of whose pods changed
   * comes with its pods as they were; every other node gets its pods from {@code pods}, in their order.
   */
  private ClusterSnapshot build(ClusterSnapshot previous, List<CompiledNode> nodes, BoundPods pods,
      Predicate<BoundPod> loadable, java.util.Set<String> changed) {
    java.util.Set<String> dirty = java.util.Set.of();
    if (previous != null) {
      previous.revertAll();
      dirty = dirtyNodes(previous, pods, changed, loadable);
    }
    ClusterSnapshot s = newSnapshot();
    List<CompiledNode> refill = new ArrayList<>();
    for (CompiledNode n : nodes) {
      int i = previous == null ? -1 : previous.nodeIndex(n.name());
      if (i >= 0 && previous.node(i) == n && !dirty.contains(n.name())) {
        s.addNodeWithPodsOf(n, previous, i);
      } else {
        s.addNode(n);
        refill.add(n);
      }
    }
    if (refill.size() * 4 < nodes.size()) {
      // a few nodes: their own pods, in the same order as a pass over all of them would add them
      for (CompiledNode n : refill) {
        for (BoundPod b : pods.on(n.name())) {
          if (loadable.test(b)) {
            s.addPod(compiled(b.pod()), n.name());
          }
        }
      }
    } else if (!refill.isEmpty()) {
      // one look-up per pod: its node's index, which says both whether the node is refilled and where it goes
      java.util.BitSet refilled = new java.util.BitSet(nodes.size());
      for (CompiledNode n : refill) {
        refilled.set(s.nodeIndex(n.name()));
      }
      for (BoundPod b : pods.all()) {
        int i = s.nodeIndex(b.nodeName());
        if (i >= 0 && refilled.get(i) && loadable.test(b)) {
          s.addPod(compiled(b.pod()), i);
        }
      }
    }
    return s;
  }

  private static boolean sameNodes(List<CompiledNode> a, List<CompiledNode> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void addNode(Node node) {
    snapshot.addNode(compiled(node));
  }

  @Override
  public void removeNode(String nodeName) {
    int i = snapshot.nodeIndex(nodeName);
    if (i >= 0) {
      snapshot.removeNode(i);
    }
  }

  @Override
  public void addPod(Pod pod, String nodeName) {
    snapshot.addPod(compiled(pod), nodeName);
  }

  @Override
  public void removePod(Pod pod) {
    snapshot.removePod(SchedulingCompiler.uidOf(pod));
  }

  @Override
  public void closeNode(String nodeName) {
    int i = snapshot.nodeIndex(nodeName);
    if (i < 0) {
      throw new IllegalArgumentException("no node " + nodeName);
    }
    snapshot.closeNode(i);
  }

  @Override
  public void reopenNode(String nodeName) {
    int i = snapshot.nodeIndex(nodeName);
    if (i >= 0) {
      snapshot.reopenNode(i);
    }
  }

  @Override
  public void removePods(String nodeName, List<Pod> pods) {
    int i = snapshot.nodeIndex(nodeName);
    if (i < 0) {
      throw new IllegalArgumentException("no node " + nodeName);
    }
    List<String> uids = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      uids.add(SchedulingCompiler.uidOf(p));
    }
    snapshot.removePodsFrom(i, uids);
  }

  @Override
  public List<Pod> podsOn(String nodeName) {
    int i = snapshot.nodeIndex(nodeName);
    if (i < 0) {
      return List.of();
    }
    List<CompiledPod> on = snapshot.podsOn(i);
    List<Pod> out = new ArrayList<>(on.size());
    for (CompiledPod c : on) {
      out.add(c.pod());
    }
    return out;
  }

  /**
   * The node filter of the last {@link #schedule} call. A caller passes one filter object for as long as its
   * answers stand (a loop's destinations, one drain simulation's), so its answer for a node is asked once: kept
   * per snapshot index with the node it was given for and the filter's round.
   */
  private Predicate<String> lastFilter;
  private int filterRound;
  private int[] verdictRound = new int[0];
  private CompiledNode[] verdictNode = new CompiledNode[0];
  private boolean[] verdict = new boolean[0];
  private final dev.headroom.core.scheduling.NodeFilter indexFilter = new dev.headroom.core.scheduling.NodeFilter() {
    @Override
    public boolean test(int i) {
      return acceptable(i);
    }

    @Override
    public boolean knownToRefuse(int i) {
      // a node asked before in this round that said no: a drain's emptied nodes, which every later pod would pass
      // the predicates on, are skipped without them
      return i < verdict.length && verdictRound[i] == filterRound && !verdict[i] && verdictNode[i] == snapshot.node(i);
    }
  };

  /** Makes {@code acceptableNode} the filter {@link #indexFilter} asks; a new filter object starts a new round. */
  private void useFilter(Predicate<String> acceptableNode) {
    if (acceptableNode != lastFilter) {
      lastFilter = acceptableNode;
      filterRound++;
    }
  }

  private boolean acceptable(int i) {
    CompiledNode n = snapshot.node(i);
    if (i >= verdict.length) {
      int size = Math.max(Math.max(i + 1, snapshot.nodeCount() + 16), verdict.length * 2);
      verdictRound = java.util.Arrays.copyOf(verdictRound, size);
      verdictNode = java.util.Arrays.copyOf(verdictNode, size);
      verdict = java.util.Arrays.copyOf(verdict, size);
    }
    if (verdictRound[i] != filterRound || verdictNode[i] != n) {
      verdictRound[i] = filterRound;
      verdictNode[i] = n;
      verdict[i] = lastFilter.test(n.name());
    }
    return verdict[i];
  }
  private int gpuId = -1;
  private int gpuIdCheckedAt = -1;

  /** The GPU resource's id, -1 while no pod or node has it (looked up again only when new resources appeared). */
  private int gpuId() {
    ResourceIds ids = compiler.resources();
    if (gpuId < 0 && gpuIdCheckedAt != ids.size()) {
      gpuId = ids.find(dev.headroom.core.autoscaler.scaledown.Utilization.GPU);
      gpuIdCheckedAt = ids.size();
    }
    return gpuId;
  }

  /** As the interface's, with one look-up of the node and its allocatable read from the compiled node. */
  @Override
  public dev.headroom.core.autoscaler.scaledown.Utilization.Value utilization(Node node, boolean daemonSetsApart) {
    String name = node.getMetadata() == null ? null : node.getMetadata().getName();
    int i = name == null ? -1 : snapshot.nodeIndex(name);
    if (i < 0 || snapshot.node(i).node() != node || node.getStatus() == null || node.getStatus().getAllocatable() == null
        || node.getStatus().getAllocatable().isEmpty()) {
      return SchedulingSimulation.super.utilization(node, daemonSetsApart);
    }
    CompiledNode c = snapshot.node(i);
    int gpuId = gpuId();
    long cpuAlloc = c.allocatable(ResourceIds.CPU);
    long memAlloc = c.allocatable(ResourceIds.MEMORY);
    long gpuAlloc = gpuId < 0 ? 0 : c.allocatable(gpuId);
    // the parts of requestsAt, without the record (this runs for every node in every loop)
    long dsCpu = daemonSetsApart ? snapshot.daemonSetRequested(i, ResourceIds.CPU) : 0;
    long dsMem = daemonSetsApart ? snapshot.daemonSetRequested(i, ResourceIds.MEMORY) : 0;
    return dev.headroom.core.autoscaler.scaledown.Utilization.of(realRequested(i, ResourceIds.CPU) - dsCpu,
        realRequested(i, ResourceIds.MEMORY) - dsMem, gpuId < 0 ? 0 : realRequested(i, gpuId), dsCpu, dsMem,
        cpuAlloc, memAlloc, gpuAlloc);
  }

  @Override
  public NodeRequests requestsOn(String nodeName, boolean daemonSetsApart) {
    int i = snapshot.nodeIndex(nodeName);
    if (i < 0) {
      return new NodeRequests(0, 0, 0, 0, 0);
    }
    return requestsAt(i, compiler.resources().find(dev.headroom.core.autoscaler.scaledown.Utilization.GPU), daemonSetsApart);
  }

  /** Requests of the real (not virtual) pods on node {@code i} for resource {@code id}. */
  private long realRequested(int i, int id) {
    return snapshot.requested(i, id) - snapshot.virtualRequested(i, id);
  }

  private NodeRequests requestsAt(int i, int gpuId, boolean daemonSetsApart) {
    long cpu = realRequested(i, ResourceIds.CPU);
    long mem = realRequested(i, ResourceIds.MEMORY);
    long gpu = gpuId < 0 ? 0 : realRequested(i, gpuId);
    if (!daemonSetsApart) {
      return new NodeRequests(cpu, mem, gpu, 0, 0);
    }
    long dsCpu = snapshot.daemonSetRequested(i, ResourceIds.CPU);
    long dsMem = snapshot.daemonSetRequested(i, ResourceIds.MEMORY);
    return new NodeRequests(cpu - dsCpu, mem - dsMem, gpu, dsCpu, dsMem);
  }

  @Override
  public Optional<String> schedule(Pod pod, Predicate<String> acceptableNode) {
    CompiledPod c = movable(pod);
    useFilter(acceptableNode);
    int i = snapshot.scheduleOnAnyNode(c, indexFilter);
    return i < 0 ? Optional.empty() : Optional.of(snapshot.node(i).name());
  }

  @Override
  public List<String> scheduleAll(List<Pod> pods, Predicate<String> acceptableNode) {
    CompiledPod[] compiledPods = cache.cachedList(pods);
    if (compiledPods == null) {
      compiledPods = new CompiledPod[pods.size()];
      for (int k = 0; k < compiledPods.length; k++) {
        compiledPods[k] = movable(pods.get(k));
      }
      cache.rememberList(pods, compiledPods);
    }
    useFilter(acceptableNode);
    String[] out = new String[compiledPods.length];
    for (int k = 0; k < compiledPods.length; k++) {
      int i = snapshot.scheduleOnAnyNode(compiledPods[k], indexFilter);
      out[k] = i < 0 ? null : snapshot.node(i).name();
    }
    return java.util.Arrays.asList(out);
  }

  @Override
  public void fork() {
    snapshot.fork();
  }

  @Override
  public void revert() {
    snapshot.revert();
  }

  @Override
  public void commit() {
    snapshot.commit();
  }

  @Override
  public Optional<String> checkOnTemplate(Pod pod, Node template) {
    FitResult r = snapshot.checkOnTemplate(compiled(pod), compiled(template));
    return r instanceof FitResult.Fails f ? Optional.of(f.message()) : Optional.empty();
  }

  @Override
  public boolean fitsEmptyNode(Pod pod, Node node) {
    CompiledNode empty = cache.node(CompileCache.Kind.EMPTIED, node,
        n -> compiler.compile(Nodes.sanitizedCopy(n, n.getMetadata().getName() + "-feasibility")));
    FitResult r = snapshot.checkOnTemplate(compiled(pod), empty);
    return !(r instanceof FitResult.Fails f) || !NODE_LEVEL.contains(f.reason());
  }

  @Override
  public List<List<Pod>> equivalenceGroups(List<Pod> list) {
    List<CompiledPod> compiledPods = new ArrayList<>(list.size());
    for (Pod p : list) {
      compiledPods.add(compiled(p));
    }
    List<List<Pod>> out = new ArrayList<>();
    for (PodClass c : PodClass.group(compiledPods)) {
      List<Pod> members = new ArrayList<>(c.size());
      for (CompiledPod m : c.pods()) {
        members.add(m.pod());
      }
      out.add(members);
    }
    return out;
  }

  @Override
  public Map<String, Long> requests(Pod pod) {
    return compiled(pod).requestMap();
  }

  @Override
  public long allocatableMilli(Node node, String resource) {
    if (node.getStatus() == null || node.getStatus().getAllocatable() == null || node.getStatus().getAllocatable().isEmpty()
        || ResourceIds.PODS.equals(resource)) {
      return SchedulingSimulation.super.allocatableMilli(node, resource);
    }
    int id = compiler.resources().find(resource);
    if (id < 0) {
      return 0;
    }
    // the node as the snapshot holds it, when it was compiled from this very object
    int i = node.getMetadata() == null ? -1 : snapshot.nodeIndex(node.getMetadata().getName());
    CompiledNode inSnapshot = i < 0 ? null : snapshot.node(i);
    return inSnapshot != null && inSnapshot.node() == node ? inSnapshot.allocatable(id) : compiled(node).allocatable(id);
  }

  /** As the default, from the snapshot's per-node request sums (no pod is read). */
  @Override
  public ChunkRoom chunkRoom(Pod chunk, List<Node> nodes) {
    CompiledPod c = compiled(chunk);
    int r = compiler.resources().size();
    int count = 0;
    for (int id = 0; id < r; id++) {
      if (c.request(id) > 0) {
        count++;
      }
    }
    if (count == 0) {
      return ChunkRoom.NONE;
    }
    int[] ids = new int[count];
    for (int id = 0, k = 0; id < r; id++) {
      if (c.request(id) > 0) {
        ids[k++] = id;
      }
    }
    long onNodes = 0;
    long[] pooled = new long[count];
    for (Node n : nodes) {
      int i = snapshot.nodeIndex(n.getMetadata().getName());
      if (i < 0) {
        continue;
      }
      CompiledNode cn = snapshot.node(i);
      long fit = Long.MAX_VALUE;
      for (int k = 0; k < count; k++) {
        long free = Math.max(0, cn.allocatable(ids[k]) - snapshot.requested(i, ids[k]) + snapshot.virtualRequested(i, ids[k]));
        pooled[k] += free;
        fit = Math.min(fit, free / c.request(ids[k]));
      }
      onNodes += fit;
    }
    long total = Long.MAX_VALUE;
    for (int k = 0; k < count; k++) {
      total = Math.min(total, pooled[k] / c.request(ids[k]));
    }
    return new ChunkRoom(onNodes, total);
  }

  @Override
  public List<NewNode> provision(List<Pod> pods, List<Node> templates, boolean[] open, int maxNodes, Preference preference,
      boolean ownNodesFirst) {
    List<CompiledPod> compiledPods = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      compiledPods.add(compiled(p));
    }
    List<CompiledNode> compiledTemplates = new ArrayList<>(templates.size());
    for (Node t : templates) {
      compiledTemplates.add(compiled(t));
    }
    dev.headroom.core.scheduling.Provisioner.Result r =
        new dev.headroom.core.scheduling.Provisioner(snapshot, compiledTemplates, open, maxNodes,
            (exemplar, count, ts, perNode) -> preference.prefer(exemplar.pod(), count, ts, perNode),
            ownNodesFirst ? dev.headroom.core.scheduling.Provisioner.Order.OWN_NODES_FIRST
                : dev.headroom.core.scheduling.Provisioner.Order.DESCENDING).run(compiledPods);
    List<NewNode> out = new ArrayList<>(r.nodes().size());
    for (dev.headroom.core.scheduling.Provisioner.NewNode n : r.nodes()) {
      List<Pod> on = new ArrayList<>(n.pods().size());
      for (CompiledPod c : n.pods()) {
        on.add(c.pod());
      }
      out.add(new NewNode(List.copyOf(on), n.candidates()));
    }
    return out;
  }

  @Override
  public Estimate estimate(List<Pod> candidates, Node template, String namePrefix, int maxNodes) {
    List<CompiledPod> compiledPods = new ArrayList<>(candidates.size());
    for (Pod p : candidates) {
      compiledPods.add(compiled(p));
    }
    dev.headroom.core.scheduling.Estimate e = BinpackingEstimator.estimate(snapshot, compiled(template),
        PodClass.group(compiledPods), NodeLimiter.ofLimits(maxNodes), namePrefix + "-");
    List<Pod> placed = new ArrayList<>(e.scheduled().size());
    for (CompiledPod c : e.scheduled()) {
      placed.add(c.pod());
    }
    return new Estimate(e.nodeCount(), placed);
  }
}
