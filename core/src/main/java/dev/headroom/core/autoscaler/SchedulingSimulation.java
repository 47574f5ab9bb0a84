package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What one iteration needs from the scheduling simulation (snapshot, placement, binpacking). Implemented by
 * {@link SnapshotSimulation} over {@code dev.headroom.core.scheduling}; the iteration never checks a predicate
 * itself.
 */
public interface SchedulingSimulation {

  /** Adds a node (no pods). */
  void addNode(Node node);

  /**
   * Loads the loop's starting state — {@code nodes} in order, then every pod of {@code pods} that
   * {@code loadable} accepts, in order — before anything else is added. An implementation that still holds what
   * it loaded in the previous loop may keep it and apply only what changed: the pods in {@code changed} (UIDs
   * whose state changed since then; null when unknown) and the nodes that differ.
   *
   * @param pods the bound (or nominated) pods; {@code loadable} is asked only for those an implementation needs
   */
  default void load(List<Node> nodes, BoundPods pods, Predicate<BoundPod> loadable, java.util.Set<String> changed) {
    for (Node n : nodes) {
      addNode(n);
    }
    for (BoundPod b : pods.all()) {
      if (loadable.test(b)) {
        addPod(b.pod(), b.nodeName());
      }
    }
  }

  /** The bound (or nominated) pods of the cluster, each in the order the view first showed them. */
  interface BoundPods {
    /** Every bound pod. */
    java.util.Collection<BoundPod> all();

    /** The pods bound to node {@code nodeName}, in the same order as {@link #all()}. */
    java.util.Collection<BoundPod> on(String nodeName);

    /** The bound pod with {@code uid}, or null. */
    BoundPod byUid(String uid);
  }

  /** A pod and the node it is bound (or nominated) to. */
  record BoundPod(Pod pod, String nodeName) {}

  /** Removes a node and its pods. */
  void removeNode(String nodeName);

  /** Adds a pod bound to a node. */
  void addPod(Pod pod, String nodeName);

  /** Removes a pod (by UID) from wherever it is. */
  void removePod(Pod pod);

  /**
   * Removes {@code pods}, every one of which is on node {@code nodeName} (a drain's removals: the node is known,
   * so no pod's node is looked up); throws when one is not there.
   */
  void removePods(String nodeName, List<Pod> pods);

  /**
   * Closes node {@code nodeName} to placements until the fork it was closed in is reverted, or it is reopened: no
   * pod is scheduled onto it, while it and its pods count for everything else. A drain simulation closes the node
   * it empties, so that no later placement of the plan visits it.
   */
  void closeNode(String nodeName);

  /** Opens node {@code nodeName} to placements again (a revert of the current fork undoes it). */
  void reopenNode(String nodeName);

  /** The pods currently on a node. */
  List<Pod> podsOn(String nodeName);

  /** A pod on a node with its effective requests (milli-units) and whether it is a buffer's virtual pod. */
  record PodRequests(Pod pod, java.util.Map<String, Long> requests, boolean virtual) {}

  /**
   * Request sums (milli-units) of the pods on a node that are not virtual: cpu, memory and the GPU resource;
   * with {@code daemonSetsApart}, the cpu and memory of DaemonSet and mirror pods are summed apart.
   */
  record NodeRequests(long cpu, long memory, long gpu, long daemonSetCpu, long daemonSetMemory) {

    /** Sums over pods with their requests. */
    public static NodeRequests of(List<PodRequests> pods, boolean daemonSetsApart) {
      long cpu = 0;
      long mem = 0;
      long gpu = 0;
      long dsCpu = 0;
      long dsMem = 0;
      for (PodRequests p : pods) {
        if (p.virtual()) {
          continue;
        }
        long c = p.requests().getOrDefault("cpu", 0L);
        long m = p.requests().getOrDefault("memory", 0L);
        gpu += p.requests().getOrDefault(dev.headroom.core.autoscaler.scaledown.Utilization.GPU, 0L);
        if (daemonSetsApart && dev.headroom.core.autoscaler.scaledown.DrainRules.isDaemonSetOrMirrorPod(p.pod())) {
          dsCpu += c;
          dsMem += m;
        } else {
          cpu += c;
          mem += m;
        }
      }
      return new NodeRequests(cpu, mem, gpu, dsCpu, dsMem);
    }
  }

  /**
   * The scale-down utilisation of {@code node} as the simulation holds it now: {@link #requestsOn} over
   * {@link #allocatableMilli} ({@link dev.headroom.core.autoscaler.scaledown.Utilization#of(NodeRequests,
   * java.util.function.ToLongFunction)}).
   */
  default dev.headroom.core.autoscaler.scaledown.Utilization.Value utilization(io.fabric8.kubernetes.api.model.Node node,
      boolean daemonSetsApart) {
    return dev.headroom.core.autoscaler.scaledown.Utilization.of(requestsOn(node.getMetadata().getName(), daemonSetsApart),
        r -> allocatableMilli(node, r));
  }

  /** {@link NodeRequests} of a node as the simulation holds it now. */
  default NodeRequests requestsOn(String nodeName, boolean daemonSetsApart) {
    return NodeRequests.of(podRequestsOn(nodeName), daemonSetsApart);
  }

  /** The pods currently on a node with their requests, in {@link #podsOn} order. */
  default List<PodRequests> podRequestsOn(String nodeName) {
    List<Pod> pods = podsOn(nodeName);
    List<PodRequests> out = new java.util.ArrayList<>(pods.size());
    for (Pod p : pods) {
      out.add(new PodRequests(p, requests(p), VirtualPods.isVirtual(p)));
    }
    return out;
  }

  /**
   * Places the pod on the first acceptable node that passes every predicate; the pod stays in the snapshot. The
   * same {@code acceptableNode} object must give the same answer for a node on every call it is passed to (pass a
   * new object when the answers change): an implementation may remember them.
   */
  Optional<String> schedule(Pod pod, Predicate<String> acceptableNode);

  /**
   * Places the pods in order, each as {@link #schedule} would; element {@code k} of the result is the node pod
   * {@code k} went to, or null. For pods without a node that nobody changes once made (a buffer's virtual pods:
   * one list object holds the same pods loop after loop), so an implementation may keep their compiled forms by
   * list.
   */
  default List<String> scheduleAll(List<Pod> pods, Predicate<String> acceptableNode) {
    List<String> out = new java.util.ArrayList<>(pods.size());
    for (Pod p : pods) {
      out.add(schedule(p, acceptableNode).orElse(null));
    }
    return out;
  }

  /** O(1) fork. */
  void fork();

  /** Drops everything since the last fork. */
  void revert();

  /** Keeps everything since the last fork. */
  void commit();

  /**
   * Tests the pod against a fresh copy of a template node in the current snapshot.
   *
   * @return the failing predicate's reason, or empty when it fits
   */
  Optional<String> checkOnTemplate(Pod pod, Node template);

  /** Node-level checks only (resources against allocatable, selector/affinity, taints) on an empty node. */
  boolean fitsEmptyNode(Pod pod, Node node);

  /** Groups pods into equivalence classes (identical scheduling behaviour), classes in first-appearance order. */
  List<List<Pod>> equivalenceGroups(List<Pod> pods);

  /** Effective requests of a pod in milli-units (cached by the implementation). */
  java.util.Map<String, Long> requests(Pod pod);

  /**
   * The milli-value of {@code node}'s {@code status.allocatable[resource]}, 0 when absent (implementations
   * may answer from their compiled node instead of parsing the quantity again).
   */
  default long allocatableMilli(io.fabric8.kubernetes.api.model.Node node, String resource) {
    if (node.getStatus() == null || node.getStatus().getAllocatable() == null) {
      return 0;
    }
    io.fabric8.kubernetes.api.model.Quantity q = node.getStatus().getAllocatable().get(resource);
    return q == null ? 0 : dev.headroom.core.resources.Quantities.milli(q);
  }

  /**
   * An open new node of {@link #provision}.
   *
   * @param pods the pods placed on it
   * @param candidates indexes into the pass's templates of every template that holds all of them, ascending
   */
  record NewNode(List<Pod> pods, int[] candidates) {}

  /**
   * One provisioning pass ({@code dev.headroom.core.scheduling.Provisioner}): places {@code pods} onto open new
   * nodes, each carrying the templates still compatible with every pod on it; templates with {@code open[i]} false
   * never open a node; a node opens with the template {@code preference} names for the opening pod's shape when the
   * pod fits it. At most {@code maxNodes} nodes; the snapshot is unchanged afterwards. With {@code ownNodesFirst}
   * the pods that need a node of their own go first, each on the smallest template that takes it and an even share
   * of the pass's requests ({@code Provisioner.Order.OWN_NODES_FIRST}); otherwise the pass's default order.
   */
  List<NewNode> provision(List<Pod> pods, List<Node> templates, boolean[] open, int maxNodes, Preference preference,
      boolean ownNodesFirst);

  /**
   * Which template a new node should open with for pods like {@code exemplar}: {@code count} such pods are pending,
   * {@code templates[k]} (an index into the pass's templates) holds {@code podsPerNode[k]} of them per node.
   */
  @FunctionalInterface
  interface Preference {
    /** The preferred template index, or -1 for none (the pass then opens the largest compatible template). */
    int prefer(Pod exemplar, int count, int[] templates, int[] podsPerNode);
  }

  /** The binpacking estimator's answer for one group. */
  record Estimate(int nodeCount, List<Pod> pods) {}

  /**
   * Room for copies of one chunk in the room real pods leave free (allocatable minus the requests of the pods that
   * are not virtual): {@code onNodes} copies fit when each must fit on one node, {@code pooled} if the free room of
   * all nodes were one node. {@code pooled - onNodes} is what fragmentation costs this shape.
   */
  record ChunkRoom(long onNodes, long pooled) {
    public static final ChunkRoom NONE = new ChunkRoom(0, 0);

    /** Copies that the free room holds in total but no node holds. */
    public long fragmented() {
      return pooled - onNodes;
    }
  }

  /** The {@link ChunkRoom} of {@code chunk} over {@code nodes} (nodes of this simulation). */
  default ChunkRoom chunkRoom(Pod chunk, List<Node> nodes) {
    java.util.Map<String, Long> need = requests(chunk);
    List<String> names = new java.util.ArrayList<>();
    for (java.util.Map.Entry<String, Long> e : need.entrySet()) {
      if (e.getValue() > 0) {
        names.add(e.getKey());
      }
    }
    if (names.isEmpty()) {
      return ChunkRoom.NONE;
    }
    long onNodes = 0;
    long[] pooled = new long[names.size()];
    for (Node n : nodes) {
      long[] used = new long[names.size()];
      for (PodRequests p : podRequestsOn(n.getMetadata().getName())) {
        if (!p.virtual()) {
          for (int k = 0; k < used.length; k++) {
            used[k] += p.requests().getOrDefault(names.get(k), 0L);
          }
        }
      }
      long fit = Long.MAX_VALUE;
      for (int k = 0; k < used.length; k++) {
        long free = Math.max(0, allocatableMilli(n, names.get(k)) - used[k]);
        pooled[k] += free;
        fit = Math.min(fit, free / need.get(names.get(k)));
      }
      onNodes += fit;
    }
    long total = Long.MAX_VALUE;
    for (int k = 0; k < pooled.length; k++) {
      total = Math.min(total, pooled[k] / need.get(names.get(k)));
    }
    return new ChunkRoom(onNodes, total);
  }

  /**
   * Binpacks {@code pods} (already ordered and all passing the template) onto new copies of the template
   * ({@code namePrefix}-k), at most {@code maxNodes} nodes; the snapshot is unchanged afterwards.
   */
  Estimate estimate(List<Pod> pods, Node template, String namePrefix, int maxNodes);
}
