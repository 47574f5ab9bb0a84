package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One provisioning pass over a catalogue of node-group templates (autoscaler spec §3, Headroom): the pods are
 * placed in order onto <em>open new nodes</em>, each of which carries the set of templates still compatible with
 * every pod on it; the caller resolves each node to one template at the end (the expander).
 *
 * <p>The pass, for each pod (real before virtual, then CPU and memory descending, stable):
 * <ol>
 *   <li>place it on an open new node where every predicate passes ({@link ClusterSnapshot#schedulePodInRange});
 *       the node's candidate set is narrowed to the templates that pass the pod's node-level predicates and still
 *       hold the node's summed requests;</li>
 *   <li>otherwise open a node: the template the caller's {@link Preference} (the expander) prefers for pods of this
 *       node-level shape, if the pod passes every predicate on it in the current snapshot; else, among the
 *       templates compatible with the pod (node-level predicates, resources) with room left, the largest
 *       (allocatable CPU, then memory, then catalogue order) on which it does. The snapshot holds a copy of that template (the
 *       <em>representative</em>): later pods join the node only when they fit it, its candidates are narrowed to
 *       the templates that also hold them, and because the representative always stays a candidate, the set never
 *       becomes empty.</li>
 * </ol>
 *
 * <p>Inter-pod predicates (affinity, anti-affinity, spread) are evaluated on the representative's labels. So that
 * the resolved template cannot break them, a node's candidates share the representative's value of every
 * topology key in use (the pods' spread and affinity keys and those of the pods already in the snapshot;
 * {@code kubernetes.io/hostname} is unique per node anyway). A key nobody uses (often zone and capacity type)
 * stays open and is narrowed only by node selectors and affinity.
 *
 * <p>Spread domains: like Karpenter (and unlike CA, which counts only the domains of nodes that exist), every
 * domain of a spread constraint's topology key that an open template offers counts, with zero pods, before a node
 * exists there: the pass adds one empty stand-in node per such domain (without a hostname, so hostname-keyed
 * constraints do not see it) below the new nodes, where no pod is ever placed. Zonal spread therefore spreads the
 * new nodes over the zones the catalogue offers.
 *
 * <p>Shared work: a template's node-level verdict for a pod depends on the pod's node affinity, tolerations and
 * requests only, so it is computed once per distinct triple; and templates that differ only in zone or capacity
 * type labels ({@link #OFFERING_KEYS}) share the label part of that verdict unless the pod's node affinity reads
 * one of those keys.
 *
 * <p>Own nodes first ({@link Order#OWN_NODES_FIRST}, chosen by the caller where every node the pass opens is
 * launched, salvo scale-up): the pods that need a node of their own ({@link #needsOwnNode}: a required pod
 * anti-affinity term on {@code kubernetes.io/hostname} that selects the pod itself) go first, among the real (or the
 * virtual) pods, and a node one of them opens takes the smallest compatible template (allocatable CPU, then memory,
 * ascending; the lowest catalogue index among equal sizes) on which it passes every predicate and which holds an even
 * share of the pass's requests (their sum over the number of such pods), not the preferred or the largest one. The other pods then fill the slack of those nodes before they open nodes of their own: with
 * the default order they open nodes on large templates first, and each pod that needs a node alone comes last and
 * opens a node that holds nothing else (the waste in {@code docs/performance.md}, issue #25). Where only one option
 * of the pass is executed per loop the default order stays: it decides no worse than the per-group path in fewer
 * cases there ({@code ScaleUpPlannerDifferentialTest}).
 *
 * <p>The pass runs in a fork of the snapshot and reverts it.
 */
public final class Provisioner {

  /** Labels that tell apart the offerings of one instance type (zone, capacity type). */
  public static final Set<String> OFFERING_KEYS = Set.of(
      "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone", "karpenter.sh/capacity-type");

  /**
   * Which template a new node for a pod should open with, asked once per distinct node-level shape of pod (node
   * affinity, tolerations, requests): the caller's expander judges, for each compatible template with room, the
   * option "as many nodes of this template as the {@code count} pods of this shape need".
   */
  @FunctionalInterface
  public interface Preference {
    /**
     * @param exemplar a pod of the shape
     * @param count the pods of this shape in the pass
     * @param templates the compatible templates with room (indexes into the pass's list), ascending
     * @param podsPerNode for each entry of {@code templates}, how many such pods one empty node holds (at least 1)
     * @return the preferred template index, or -1 for none
     */
    int prefer(CompiledPod exemplar, int count, int[] templates, int[] podsPerNode);

    /** No preference: the largest compatible template. */
    Preference LARGEST = (p, c, t, n) -> -1;
  }

  /** The order in which the pass places its pods. */
  public enum Order {
    /** Real before virtual, then CPU and memory descending (stable). */
    DESCENDING,
    /**
     * Real before virtual; within each, the pods that need a node of their own ({@link #needsOwnNode}) first, each
     * opening a node on the smallest template that takes it and an even share of the pass's requests; then CPU and
     * memory descending (stable).
     */
    OWN_NODES_FIRST
  }

  /**
   * An open new node at the end of the pass.
   *
   * @param pods the pods placed on it, in placement order
   * @param candidates indexes (into the pass's template list) of the templates that hold every pod on it, ascending
   * @param representative the template the snapshot held for it (one of the candidates)
   */
  public record NewNode(List<CompiledPod> pods, int[] candidates, int representative) {}

  /**
   * The pass's result.
   *
   * @param nodes the open new nodes, in opening order
   * @param unplaced the pods placed on no node, in pass order
   */
  public record Result(List<NewNode> nodes, List<CompiledPod> unplaced) {}

  private final ClusterSnapshot snapshot;
  private final List<CompiledNode> templates;
  private final boolean[] open;
  private final int maxNodes;
  /** Template indexes, largest first. */
  private final int[] bySize;
  /** Position of each template in {@link #bySize}. */
  private final int[] rank;
  /** Templates that differ only in offering labels share a shape id. */
  private final int[] shape;
  private final Map<NodeLevel, BitSet> compatible = new HashMap<>();
  private final Map<LabelKey, BitSet> labelsOk = new HashMap<>();
  private Set<String> topologyKeys = Set.of();
  private final Preference preference;
  private final Order order;
  /** Template indexes, smallest first (allocatable CPU, memory, then catalogue order, ascending). */
  private final int[] smallestFirst;
  /**
   * With {@link Order#OWN_NODES_FIRST}: the pass's CPU and memory requests over the number of pods that need a node
   * of their own, the even share of every pod's requests over the nodes that must exist anyway.
   */
  private long shareCpu;
  private long shareMemory;
  private final Map<NodeLevel, Integer> shapeCounts = new HashMap<>();
  private final Map<NodeLevel, Integer> preferred = new HashMap<>();
  /** Per domain id, the templates (by rank) of that id; built on first use. */
  private final Map<Integer, BitSet> domainMasks = new HashMap<>();
  /** Per template, an id of its values of the topology keys in use (equal ids, equal domains). */
  private int[] domainId = new int[0];

  /**
   * @param snapshot the loop's snapshot (existing and upcoming nodes, filter-out-schedulable's placements)
   * @param templates the templates new nodes may have (one per node group)
   * @param open whether template {@code i} may open nodes at all (valid group with room)
   * @param maxNodes the most new nodes the pass may open
   */
  public Provisioner(ClusterSnapshot snapshot, List<CompiledNode> templates, boolean[] open, int maxNodes) {
    this(snapshot, templates, open, maxNodes, Preference.LARGEST);
  }

  /** As above, with the template new nodes open with chosen by {@code preference} where it can be. */
  public Provisioner(ClusterSnapshot snapshot, List<CompiledNode> templates, boolean[] open, int maxNodes, Preference preference) {
    this(snapshot, templates, open, maxNodes, preference, Order.DESCENDING);
  }

  /** As above, placing the pods in {@code order}. */
  public Provisioner(ClusterSnapshot snapshot, List<CompiledNode> templates, boolean[] open, int maxNodes, Preference preference,
      Order order) {
    this.preference = preference;
    this.order = Objects.requireNonNull(order);
    this.snapshot = snapshot;
    this.templates = List.copyOf(templates);
    this.open = open.clone();
    this.maxNodes = maxNodes;
    int n = templates.size();
    // largest first and smallest first, both with the lowest catalogue index first among equal sizes
    bySize = indexesBySize(templates, -1);
    smallestFirst = indexesBySize(templates, 1);
    rank = new int[n];
    for (int r = 0; r < n; r++) {
      rank[bySize[r]] = r;
    }
    shape = new int[n];
    Map<List<Object>, Integer> shapes = new HashMap<>();
    for (int i = 0; i < n; i++) {
      CompiledNode t = templates.get(i);
      Map<String, String> labels = new HashMap<>(t.labels());
      labels.keySet().removeAll(OFFERING_KEYS);
      labels.remove(CompiledNode.HOSTNAME_LABEL);
      shape[i] = shapes.computeIfAbsent(List.of(labels, t.taints(), t.unschedulable()), k -> shapes.size());
    }
  }

  /** Template indexes by allocatable CPU, then memory ({@code sign} 1: ascending, -1: descending), then index ascending. */
  private static int[] indexesBySize(List<CompiledNode> templates, int sign) {
    Integer[] order = new Integer[templates.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingLong((Integer i) -> sign * templates.get(i).allocatable(ResourceIds.CPU))
        .thenComparingLong(i -> sign * templates.get(i).allocatable(ResourceIds.MEMORY))
        .thenComparingInt(i -> i));
    int[] out = new int[order.length];
    for (int k = 0; k < out.length; k++) {
      out[k] = order[k];
    }
    return out;
  }

  /** Runs the pass over {@code pods} (any order; the pass sorts a copy). */
  public Result run(List<CompiledPod> pods) {
    Map<Integer, Boolean> ownByClass = new HashMap<>();
    java.util.function.Predicate<CompiledPod> own =
        order == Order.OWN_NODES_FIRST ? p -> ownByClass.computeIfAbsent(p.classId(), c -> needsOwnNode(p)) : p -> false;
    // real before virtual, then (own nodes first) the pods that need a node alone, each bucket by CPU and memory
    // descending, stable: the order of one stable sort by the four keys, without a look-up per comparison
    List<List<CompiledPod>> buckets = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (CompiledPod p : pods) {
      buckets.get((p.isVirtual() ? 2 : 0) + (own.test(p) ? 0 : 1)).add(p);
    }
    Comparator<CompiledPod> descending = Comparator.comparingLong((CompiledPod p) -> p.request(ResourceIds.CPU)).reversed()
        .thenComparing(Comparator.comparingLong((CompiledPod p) -> p.request(ResourceIds.MEMORY)).reversed());
    List<CompiledPod> queue = new ArrayList<>(pods.size());
    for (List<CompiledPod> b : buckets) {
      b.sort(descending);
      queue.addAll(b);
    }
    topologyKeys = topologyKeys(queue);
    if (order == Order.OWN_NODES_FIRST) {
      long cpu = 0;
      long mem = 0;
      int owners = 0;
      for (CompiledPod p : queue) {
        if (own.test(p)) {
          owners++;
        }
        cpu += p.request(ResourceIds.CPU);
        mem += p.request(ResourceIds.MEMORY);
      }
      if (owners > 0) {
        shareCpu = cpu / owners;
        shareMemory = mem / owners;
      }
    }
    for (CompiledPod p : queue) {
      shapeCounts.merge(nodeLevel(p), 1, Integer::sum);
    }
    domainId = new int[templates.size()];
    domainMasks.clear();
    Map<List<String>, Integer> ids = new HashMap<>();
    for (int t = 0; t < templates.size(); t++) {
      domainId[t] = ids.computeIfAbsent(domains(t), k -> ids.size());
    }

    List<List<CompiledPod>> placed = new ArrayList<>();
    List<BitSet> candidates = new ArrayList<>();
    // per node, the last pod-compatibility set intersected into its candidates (pods of one shape share one)
    List<BitSet> lastAnded = new ArrayList<>();
    List<Integer> representatives = new ArrayList<>();
    List<CompiledPod> unplaced = new ArrayList<>();
    snapshot.fork();
    try {
      addDomainStandIns(queue);
      int base = snapshot.nodeCount();
      for (CompiledPod pod : queue) {
        Placement p = snapshot.schedulePodInRange(pod, base, snapshot.nodeCount());
        if (p instanceof Placement.Placed on) {
          int k = on.nodeIndex() - base;
          placed.get(k).add(pod);
          BitSet podCompatible = compatible(pod);
          if (lastAnded.get(k) != podCompatible) {
            candidates.get(k).and(podCompatible);
            lastAnded.set(k, podCompatible);
          }
          continue;
        }
        int rep = placed.size() >= maxNodes ? -1 : own.test(pod) ? smallest(pod) : representative(pod);
        if (rep < 0) {
          unplaced.add(pod);
          continue;
        }
        int index = snapshot.addNodeCopy(templates.get(rep), "new-" + placed.size());
        snapshot.addPod(pod, index);
        BitSet podCompatible = compatible(pod);
        BitSet c = (BitSet) podCompatible.clone();
        sameTopology(c, rep);
        placed.add(new ArrayList<>(List.of(pod)));
        candidates.add(c);
        lastAnded.add(podCompatible);
        representatives.add(rep);
      }
      for (int k = 0; k < placed.size(); k++) {
        holding(candidates.get(k), placed.get(k), base + k);
      }
    } finally {
      snapshot.revert();
    }
    List<NewNode> nodes = new ArrayList<>(placed.size());
    for (int k = 0; k < placed.size(); k++) {
      BitSet byRank = candidates.get(k);
      BitSet byIndex = new BitSet(templates.size());
      for (int r = byRank.nextSetBit(0); r >= 0; r = byRank.nextSetBit(r + 1)) {
        byIndex.set(bySize[r]);
      }
      int[] idx = new int[byIndex.cardinality()];
      int j = 0;
      for (int t = byIndex.nextSetBit(0); t >= 0; t = byIndex.nextSetBit(t + 1)) {
        idx[j++] = t;
      }
      nodes.add(new NewNode(List.copyOf(placed.get(k)), idx, representatives.get(k)));
    }
    return new Result(nodes, List.copyOf(unplaced));
  }

  /** One empty stand-in node per domain of the (non-hostname) spread keys that the open templates offer. */
  private void addDomainStandIns(List<CompiledPod> pods) {
    java.util.TreeSet<String> keys = new java.util.TreeSet<>();
    Set<Integer> seen = new HashSet<>();
    for (CompiledPod p : pods) {
      if (seen.add(p.classId())) {
        for (SpreadConstraint s : p.spread()) {
          keys.add(s.topologyKey());
        }
      }
    }
    keys.remove(CompiledNode.HOSTNAME_LABEL);
    if (keys.isEmpty()) {
      return;
    }
    Set<List<String>> domains = new HashSet<>();
    for (int t = 0; t < templates.size(); t++) {
      if (!open[t]) {
        continue;
      }
      Map<String, String> labels = templates.get(t).labels();
      List<String> d = new ArrayList<>(keys.size());
      for (String k : keys) {
        d.add(labels.get(k));
      }
      if (!d.contains(null) && domains.add(d)) {
        snapshot.addNode(templates.get(t).domainStandIn("domain-" + domains.size()));
      }
    }
  }

  /**
   * The template a new node for {@code pod} opens with: the largest compatible one with room on which the pod
   * passes every predicate; -1 when there is none. A failure there is inter-pod (the node-level part is known to
   * pass), which depends on the template's topology domains only, so other templates of the same domains are
   * skipped.
   */
  private int representative(CompiledPod pod) {
    BitSet c = compatible(pod);
    int want = preferred(pod, c);
    if (want >= 0 && open[want] && snapshot.checkOnTemplate(pod, templates.get(want)) instanceof FitResult.Fits) {
      return want;
    }
    BitSet failedDomains = new BitSet();
    for (int r = c.nextSetBit(0); r >= 0; r = c.nextSetBit(r + 1)) {
      int t = bySize[r];
      if (!open[t] || failedDomains.get(domainId[t])) {
        continue;
      }
      if (snapshot.checkOnTemplate(pod, templates.get(t)) instanceof FitResult.Fits) {
        return t;
      }
      failedDomains.set(domainId[t]);
    }
    return -1;
  }

  /**
   * For a pod that needs a node of its own: the smallest compatible template with room on which the pod passes every
   * predicate ({@link #smallestFirst}) and whose allocatable CPU and memory hold an even share of the pass's requests
   * ({@link #shareCpu}, {@link #shareMemory}), so that the other pods fit into the nodes that must exist anyway; the
   * largest such template on which the pod passes when none holds the share; -1 when the pod passes on none. Skips
   * other templates of a failed one's domains as {@link #representative} does. The node is resolved to a group at the
   * end like any other, among the candidates that hold what it was given, so a share it did not fill costs nothing.
   */
  private int smallest(CompiledPod pod) {
    BitSet c = compatible(pod);
    BitSet failedDomains = new BitSet();
    int fallback = -1;
    for (int t : smallestFirst) {
      if (!c.get(rank[t]) || !open[t] || failedDomains.get(domainId[t])) {
        continue;
      }
      if (snapshot.checkOnTemplate(pod, templates.get(t)) instanceof FitResult.Fits) {
        CompiledNode n = templates.get(t);
        if (n.allocatable(ResourceIds.CPU) >= shareCpu && n.allocatable(ResourceIds.MEMORY) >= shareMemory) {
          return t;
        }
        fallback = t;
        continue;
      }
      failedDomains.set(domainId[t]);
    }
    return fallback;
  }

  /**
   * True when no two pods like {@code pod} may share a node: one of its required pod anti-affinity terms has the
   * topology key {@code kubernetes.io/hostname} and selects the pod itself (its namespace by name or all
   * namespaces, its labels; a term that reaches the pod's namespace only by a namespace selector does not count).
   */
  public static boolean needsOwnNode(CompiledPod pod) {
    for (AffinityTerm t : pod.antiAffinity()) {
      if (CompiledNode.HOSTNAME_LABEL.equals(t.topologyKey())
          && (t.allNamespaces() || t.namespaces().contains(pod.namespace()))
          && t.selector().matches(pod.labels())) {
        return true;
      }
    }
    return false;
  }

  /** The template {@link #preference} prefers for pods of this node-level shape, asked once per shape; -1 for none. */
  private int preferred(CompiledPod pod, BitSet compatibleByRank) {
    NodeLevel key = nodeLevel(pod);
    Integer known = preferred.get(key);
    if (known != null) {
      return known;
    }
    int[] ids = pod.requestIds();
    long[] req = pod.requestVector();
    List<Integer> ts = new ArrayList<>();
    for (int r = compatibleByRank.nextSetBit(0); r >= 0; r = compatibleByRank.nextSetBit(r + 1)) {
      if (open[bySize[r]]) {
        ts.add(bySize[r]);
      }
    }
    ts.sort(null);
    int[] t = new int[ts.size()];
    int[] perNode = new int[ts.size()];
    for (int k = 0; k < t.length; k++) {
      t[k] = ts.get(k);
      CompiledNode n = templates.get(t[k]);
      long fit = n.maxPods();
      for (int id : ids) {
        if (req[id] > 0) {
          fit = Math.min(fit, n.allocatable(id) / req[id]);
        }
      }
      perNode[k] = (int) Math.max(1, Math.min(Integer.MAX_VALUE, fit));
    }
    int choice = t.length == 0 ? -1 : preference.prefer(pod, shapeCounts.getOrDefault(key, 1), t, perNode);
    preferred.put(key, choice);
    return choice;
  }

  private static NodeLevel nodeLevel(CompiledPod pod) {
    return new NodeLevel(pod.nodeAffinity(), pod.tolerations(), pod.nodeName(), pod.isSupported(),
        new Requests(pod.requestIds(), pod.requestVector()));
  }

  /** Keeps the candidates (by rank) whose values of the topology keys in use equal template {@code rep}'s. */
  private void sameTopology(BitSet byRank, int rep) {
    if (topologyKeys.isEmpty()) {
      return;
    }
    byRank.and(domainMasks.computeIfAbsent(domainId[rep], d -> {
      BitSet mask = new BitSet(templates.size());
      for (int r = 0; r < bySize.length; r++) {
        if (domainId[bySize[r]] == d) {
          mask.set(r);
        }
      }
      return mask;
    }));
  }

  /**
   * Drops the candidates (by rank) that do not hold the node's pods: their count and summed requests at the end of the
   * pass. Requests only grow as pods join, so this keeps exactly the templates that held the node after every
   * placement; it runs once per node rather than once per placed pod.
   */
  private void holding(BitSet byRank, List<CompiledPod> pods, int node) {
    int count = snapshot.podCountOn(node);
    java.util.TreeSet<Integer> requested = new java.util.TreeSet<>();
    for (CompiledPod p : pods) {
      for (int id : p.requestIds()) {
        requested.add(id);
      }
    }
    int[] ids = new int[requested.size()];
    long[] sums = new long[ids.length];
    int j = 0;
    for (int id : requested) {
      ids[j] = id;
      sums[j++] = snapshot.requested(node, id);
    }
    for (int r = byRank.nextSetBit(0); r >= 0; r = byRank.nextSetBit(r + 1)) {
      CompiledNode t = templates.get(bySize[r]);
      boolean holds = count <= t.maxPods();
      for (int k = 0; holds && k < ids.length; k++) {
        holds = sums[k] <= t.allocatable(ids[k]);
      }
      if (!holds) {
        byRank.clear(r);
      }
    }
  }

  /** The templates (by rank) an empty copy of which passes the pod's node-level predicates; shared, do not modify. */
  private BitSet compatible(CompiledPod pod) {
    NodeLevel key = nodeLevel(pod);
    BitSet known = compatible.get(key);
    if (known != null) {
      return known;
    }
    BitSet labels = labelsOk(pod);
    BitSet out = new BitSet(templates.size());
    if (pod.isSupported() && pod.nodeName() == null) {
      int[] ids = pod.requestIds();
      long[] req = pod.requestVector();
      for (int r = labels.nextSetBit(0); r >= 0; r = labels.nextSetBit(r + 1)) {
        CompiledNode t = templates.get(bySize[r]);
        boolean fits = t.maxPods() >= 1;
        for (int k = 0; fits && k < ids.length; k++) {
          fits = req[ids[k]] <= t.allocatable(ids[k]);
        }
        if (fits) {
          out.set(r);
        }
      }
    }
    compatible.put(key, out);
    return out;
  }

  /** Templates (by rank) whose labels and taints the pod accepts; shared by shape unless offering labels matter. */
  private BitSet labelsOk(CompiledPod pod) {
    LabelKey key = new LabelKey(pod.nodeAffinity(), pod.tolerations());
    BitSet known = labelsOk.get(key);
    if (known != null) {
      return known;
    }
    boolean readsOffering = reads(pod.nodeAffinity(), OFFERING_KEYS);
    Map<Integer, Boolean> byShape = new HashMap<>();
    BitSet out = new BitSet(templates.size());
    for (int t = 0; t < templates.size(); t++) {
      CompiledNode node = templates.get(t);
      boolean ok = readsOffering ? accepts(pod, node) : byShape.computeIfAbsent(shape[t], s -> accepts(pod, node));
      if (ok) {
        out.set(rank[t]);
      }
    }
    labelsOk.put(key, out);
    return out;
  }

  /** NodeUnschedulable, TaintToleration and NodeAffinity of spec §2.3 on an empty copy of the template. */
  private static boolean accepts(CompiledPod pod, CompiledNode node) {
    if (node.unschedulable() && !Tolerations.toleratesUnschedulable(pod)) {
      return false;
    }
    if (Tolerations.untolerated(node, pod) != null) {
      return false;
    }
    return pod.nodeAffinity().isAny() || pod.nodeAffinity().matches(node.labels(), node.name());
  }

  private static boolean reads(NodeAffinityMatcher m, Set<String> keys) {
    for (String k : m.nodeSelector().keySet()) {
      if (keys.contains(k)) {
        return true;
      }
    }
    if (m.terms() != null) {
      for (NodeAffinityMatcher.Term t : m.terms()) {
        for (NodeAffinityMatcher.Requirement r : t.requirements()) {
          if (keys.contains(r.key())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The template's values of the topology keys in use, in key order. */
  private List<String> domains(int template) {
    Map<String, String> labels = templates.get(template).labels();
    List<String> out = new ArrayList<>(topologyKeys.size());
    for (String k : topologyKeys) {
      out.add(Objects.requireNonNullElse(labels.get(k), ""));
    }
    return out;
  }

  /** Topology keys of the pods' spread constraints and affinity terms and of the snapshot's pods, without hostname. */
  private Set<String> topologyKeys(List<CompiledPod> pods) {
    java.util.TreeSet<String> keys = new java.util.TreeSet<>(snapshot.ownerTopologyKeys());
    Set<Integer> seen = new HashSet<>();
    for (CompiledPod p : pods) {
      if (!seen.add(p.classId())) {
        continue;
      }
      for (SpreadConstraint s : p.spread()) {
        keys.add(s.topologyKey());
      }
      for (AffinityTerm t : p.affinity()) {
        keys.add(t.topologyKey());
      }
      for (AffinityTerm t : p.antiAffinity()) {
        keys.add(t.topologyKey());
      }
    }
    keys.remove(CompiledNode.HOSTNAME_LABEL);
    return List.copyOf(keys).isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(keys));
  }

  private record LabelKey(NodeAffinityMatcher affinity, List<Toleration> tolerations) {}

  private record NodeLevel(NodeAffinityMatcher affinity, List<Toleration> tolerations, String nodeName, boolean supported,
      Requests requests) {}

  /** A request vector by value (the ids with a request and their amounts). */
  private static final class Requests {
    private final long[] idsAndAmounts;
    private final int hash;

    Requests(int[] ids, long[] vector) {
      idsAndAmounts = new long[ids.length * 2];
      for (int k = 0; k < ids.length; k++) {
        idsAndAmounts[2 * k] = ids[k];
        idsAndAmounts[2 * k + 1] = vector[ids[k]];
      }
      hash = Arrays.hashCode(idsAndAmounts);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Requests r && Arrays.equals(idsAndAmounts, r.idsAndAmounts);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
