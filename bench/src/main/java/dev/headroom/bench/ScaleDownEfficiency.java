package dev.headroom.bench;

import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.autoscaler.EventSink;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code scaledown-efficiency}: the shape of the upstream Cluster Autoscaler's scale-down efficiency benchmark
 * ({@code BenchmarkScaledownEfficiency}, {@code core/bench/scaledown/efficiency}, scenario "three ng, basic
 * setup"): three node groups — {@code ng-small} (2 nodes of 1,000 mCPU), {@code ng-moderate} (3 of 4,000 mCPU)
 * and {@code ng-big} (1 of 9,000 mCPU), 1,000 bytes of memory each, every group 0..10 — with one ReplicaSet pod
 * of 1,000 mCPU / 100 bytes per node; utilisation threshold 0.75, unneeded time 0, one deletion per loop. Loops
 * of {@link Autoscaler#runOnce} run until one deletes nothing; between loops the harness does what CA's fake
 * actuator does: removes the deleted nodes and places their pods first-fit (node order) on the others. It
 * reports the CPU and memory utilisation (requests over allocatable, summed over the nodes) before and after
 * and the loops, CA's metrics. {@code --pods N} takes {@code max(1, N / 6)} copies of the layout (6 pods each).
 */
public final class ScaleDownEfficiency implements Scenario {

  /** The first loop's time; each further loop is a scan interval later. */
  public static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
  /** Most loops before the run is declared runaway. */
  static final int MAX_LOOPS = 10_000;

  private record Layout(String group, String prefix, String cpu, int nodes) {}

  private static final List<Layout> LAYOUT = List.of(
      new Layout("ng-small", "small-node", "1000m", 2),
      new Layout("ng-moderate", "mod-node", "4000m", 3),
      new Layout("ng-big", "big-node", "9000m", 1));

  @Override
  public String name() {
    return "scaledown-efficiency";
  }

  @Override
  public int defaultPods() {
    return 6;
  }

  @Override
  public String description() {
    return "CA's scale-down efficiency shape: three node groups, loops until nothing is removable; utilisation before/after";
  }

  /** The options: CA's scenario (threshold 0.75, unneeded time 0, one deletion per loop). */
  public static AutoscalerOptions options() {
    return AutoscalerOptions.builder()
        .set(AutoscalerOptions.SCALE_DOWN_UTILIZATION_THRESHOLD, 0.75)
        .set(AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, Duration.ZERO)
        .set(AutoscalerOptions.MAX_SCALE_DOWN_PARALLELISM, 1)
        .set(AutoscalerOptions.MAX_DRAIN_PARALLELISM, 1)
        .build();
  }

  /** The result of one run to the end. */
  public record Result(int loops, int nodesBefore, int nodesAfter, double cpuBefore, double cpuAfter,
      double memoryBefore, double memoryAfter, int unplaced) {}

  @Override
  public Prepared prepare(int pods) {
    int copies = Math.max(1, pods / 6);
    List<Node> nodes = nodes(copies);
    List<Pod> bound = pods(copies);
    return () -> {
      Result r = run(nodes, bound, copies);
      if (r.unplaced() > 0) {
        throw new IllegalStateException(name() + ": " + r.unplaced() + " pods of deleted nodes found no place");
      }
      TreeMap<String, Double> metrics = new TreeMap<>();
      metrics.put("loops", (double) r.loops());
      metrics.put("nodesBefore", (double) r.nodesBefore());
      metrics.put("nodesAfter", (double) r.nodesAfter());
      metrics.put("cpuUtilizationBefore", r.cpuBefore());
      metrics.put("cpuUtilizationAfter", r.cpuAfter());
      metrics.put("memoryUtilizationBefore", r.memoryBefore());
      metrics.put("memoryUtilizationAfter", r.memoryAfter());
      return new Outcome(bound.size(), bound.size(), r.nodesAfter(), Double.NaN, new TreeMap<>(), metrics);
    };
  }

  /** Runs loops over the cluster until one deletes nothing. */
  public static Result run(List<Node> startNodes, List<Pod> startPods, int copies) {
    AutoscalerOptions options = options();
    AutoscalerState state = new AutoscalerState(options);
    List<Node> nodes = new ArrayList<>(startNodes);
    // pod -> node, in the pods' order
    LinkedHashMap<Pod, String> placement = new LinkedHashMap<>();
    for (Pod p : startPods) {
      placement.put(p, p.getSpec().getNodeName());
    }
    double cpuBefore = utilization(nodes, placement, "cpu");
    double memBefore = utilization(nodes, placement, "memory");
    int unplaced = 0;
    int loop = 1;
    for (; loop <= MAX_LOOPS; loop++) {
      List<NodeGroup> groups = groups(nodes, copies);
      StaticClusterView.Builder view = StaticClusterView.builder().nodes(nodes);
      for (Map.Entry<Pod, String> e : placement.entrySet()) {
        view.pod(boundTo(e.getKey(), e.getValue()));
      }
      RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(groups);
      IterationResult r = new Autoscaler(options, view.build(), provider, EventSink.NONE, BufferStatusWriter.NONE,
          state, SnapshotSimulation::new).runOnce(NOW.plus(options.scanInterval().multipliedBy(loop - 1)));
      if (r.scaleDown().isEmpty()) {
        break;
      }
      Set<String> deleted = new HashSet<>();
      for (IterationResult.ScaleDownDecision d : r.scaleDown()) {
        deleted.add(d.node());
      }
      nodes.removeIf(n -> deleted.contains(n.getMetadata().getName()));
      unplaced += evictAndPlace(nodes, placement, deleted);
    }
    return new Result(loop, startNodes.size(), nodes.size(), cpuBefore, utilization(nodes, placement, "cpu"), memBefore,
        utilization(nodes, placement, "memory"), unplaced);
  }

  /**
   * CA's fake actuator: the pods of the deleted nodes go, in their order, to the first remaining node (in node
   * order) with room for their requests; a pod with no room is dropped (counted).
   */
  private static int evictAndPlace(List<Node> nodes, LinkedHashMap<Pod, String> placement, Set<String> deleted) {
    Map<String, long[]> used = new HashMap<>();
    for (Node n : nodes) {
      used.put(n.getMetadata().getName(), new long[3]);
    }
    List<Pod> moving = new ArrayList<>();
    for (Map.Entry<Pod, String> e : placement.entrySet()) {
      long[] u = used.get(e.getValue());
      if (u != null) {
        add(u, e.getKey());
      } else if (deleted.contains(e.getValue())) {
        moving.add(e.getKey());
      }
    }
    int unplaced = 0;
    for (Pod p : moving) {
      Map<String, Long> req = EffectiveRequests.of(p.getSpec());
      String to = null;
      for (Node n : nodes) {
        long[] u = used.get(n.getMetadata().getName());
        if (u[0] + req.getOrDefault("cpu", 0L) <= alloc(n, "cpu") && u[1] + req.getOrDefault("memory", 0L) <= alloc(n, "memory")
            && (u[2] + 1) * 1000 <= alloc(n, "pods")) {
          to = n.getMetadata().getName();
          add(u, p);
          break;
        }
      }
      if (to == null) {
        placement.remove(p);
        unplaced++;
      } else {
        placement.put(p, to);
      }
    }
    return unplaced;
  }

  private static void add(long[] used, Pod p) {
    Map<String, Long> req = EffectiveRequests.of(p.getSpec());
    used[0] += req.getOrDefault("cpu", 0L);
    used[1] += req.getOrDefault("memory", 0L);
    used[2]++;
  }

  private static long alloc(Node n, String resource) {
    Quantity q = n.getStatus().getAllocatable().get(resource);
    return q == null ? 0 : Quantities.milli(q);
  }

  /** CA's metric: the pods' requests of {@code resource} over the nodes' allocatable, summed over the nodes. */
  static double utilization(List<Node> nodes, Map<Pod, String> placement, String resource) {
    Set<String> names = new HashSet<>();
    long allocatable = 0;
    for (Node n : nodes) {
      names.add(n.getMetadata().getName());
      allocatable += alloc(n, resource);
    }
    long requested = 0;
    for (Map.Entry<Pod, String> e : placement.entrySet()) {
      if (names.contains(e.getValue())) {
        requested += EffectiveRequests.of(e.getKey().getSpec()).getOrDefault(resource, 0L);
      }
    }
    return allocatable == 0 ? 0 : (double) requested / allocatable;
  }

  private static Pod boundTo(Pod p, String node) {
    return node.equals(p.getSpec().getNodeName()) ? p : new PodBuilder(p).editSpec().withNodeName(node).endSpec().build();
  }

  /** The groups with a target size of their current node count. */
  private static List<NodeGroup> groups(List<Node> nodes, int copies) {
    List<NodeGroup> out = new ArrayList<>();
    for (Layout l : LAYOUT) {
      int size = (int) nodes.stream().filter(n -> l.group().equals(n.getMetadata().getLabels().get(NodeGroupLabels.NODE_GROUP))).count();
      Node template = new NodeBuilder()
          .withNewMetadata().withName("template-" + l.group()).withLabels(Map.of(NodeGroupLabels.NODE_GROUP, l.group())).endMetadata()
          .withNewSpec().endSpec()
          .withNewStatus().withCapacity(resources(l.cpu())).withAllocatable(resources(l.cpu())).endStatus()
          .build();
      out.add(new NodeGroup(l.group(), 0, 10 * copies, size, 0.5, Duration.ZERO, template, NodeGroupOptions.NONE));
    }
    return out;
  }

  /** The nodes of {@code copies} layouts: {@code small-node-1}, … (copies after the first get a {@code -cK} suffix). */
  public static List<Node> nodes(int copies) {
    List<Node> out = new ArrayList<>();
    String created = NOW.minus(Duration.ofDays(1)).toString();
    for (int c = 0; c < copies; c++) {
      for (Layout l : LAYOUT) {
        for (int k = 1; k <= l.nodes(); k++) {
          String name = nodeName(l, k, c);
          out.add(new NodeBuilder()
              .withNewMetadata().withName(name).withUid(name + "-uid").withCreationTimestamp(created)
              .withLabels(Map.of(NodeGroupLabels.NODE_GROUP, l.group(), NodeGroupLabels.HOSTNAME, name)).endMetadata()
              .withNewSpec().withProviderID("bench://" + name).endSpec()
              .withNewStatus().withCapacity(resources(l.cpu())).withAllocatable(resources(l.cpu()))
              .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").build()).endStatus()
              .build());
        }
      }
    }
    return out;
  }

  /** One pod of 1,000 mCPU / 100 bytes per node, owned by ReplicaSet {@code rs}. */
  public static List<Pod> pods(int copies) {
    List<Pod> out = new ArrayList<>();
    String created = NOW.minus(Duration.ofHours(1)).toString();
    for (int c = 0; c < copies; c++) {
      for (Layout l : LAYOUT) {
        for (int k = 1; k <= l.nodes(); k++) {
          String name = "pod-" + l.prefix().charAt(0) + k + (c == 0 ? "" : "-c" + c);
          out.add(new PodBuilder()
              .withNewMetadata().withName(name).withNamespace("default").withUid(name + "-uid").withCreationTimestamp(created)
              .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("rs").withUid("rs-uid")
              .withController(true).endOwnerReference().endMetadata()
              .withNewSpec().withNodeName(nodeName(l, k, c)).addNewContainer().withName("c").withNewResources()
              .addToRequests("cpu", new Quantity("1000m")).addToRequests("memory", new Quantity("100")).endResources()
              .endContainer().endSpec()
              .withNewStatus().withPhase("Running").endStatus()
              .build());
        }
      }
    }
    return out;
  }

  private static String nodeName(Layout l, int k, int copy) {
    return l.prefix() + "-" + k + (copy == 0 ? "" : "-c" + copy);
  }

  private static Map<String, Quantity> resources(String cpu) {
    return Map.of("cpu", new Quantity(cpu), "memory", new Quantity("1000"), "pods", new Quantity("100"));
  }
}
