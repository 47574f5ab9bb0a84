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
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code karpenter-diverse}: Karpenter's scheduling-benchmark workload ({@link DiverseWorkload}) through
 * {@link Autoscaler#runOnce}, the product path: {@code T × 5} node groups at size 0 (one per instance type and
 * offering, {@link DiverseWorkload#nodeGroups}), no nodes, the pending diverse pods, the in-memory ports of
 * {@code dev.headroom.core.autoscaler.memory} (as {@code plan} uses them), expander {@code price} (Karpenter
 * launches the cheapest offering that holds a node's pods), salvo scale-up (every group the pass resolves to grows in
 * this loop, as Karpenter launches every node claim), no limit on nodes per scale-up or in total. The
 * measured work is one whole iteration: reading the world, compiling pods and templates, filter-out-schedulable,
 * the provisioning pass, the expander, the provider calls, scale-down planning and the status processing.
 */
public final class KarpenterDiverse implements Scenario {

  /** Seed of the pod generator (Karpenter's). */
  public static final long SEED = 42;
  /** The loop time. */
  public static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");

  private final int types;

  /** Karpenter's catalogue: 400 instance types. */
  public KarpenterDiverse() {
    this(DiverseWorkload.INSTANCE_TYPES);
  }

  /** A catalogue of {@code types} instance types (× 5 offerings). */
  public KarpenterDiverse(int types) {
    if (types <= 0) {
      throw new IllegalArgumentException("--types must be positive");
    }
    this.types = types;
  }

  @Override
  public Scenario withTypes(int t) {
    return new KarpenterDiverse(t);
  }

  @Override
  public String name() {
    return "karpenter-diverse";
  }

  @Override
  public int defaultPods() {
    return 20_000;
  }

  @Override
  public String description() {
    return "Karpenter's diverse-pods scheduling benchmark through runOnce: T instance types x 5 offerings as node groups (default 400), no nodes";
  }

  /**
   * The benchmark's options, against the defaults: expander {@code price} (default least-waste), salvo scale-up
   * (default off: one group per loop), max-nodes-per-scaleup 1,000,000 (default 1,000); {@code provisioning-pass} is
   * set too though it is now the default, so the benchmark measures the same planner whatever the default becomes.
   */
  public static AutoscalerOptions options() {
    return AutoscalerOptions.builder().set(AutoscalerOptions.EXPANDER, "price").set(AutoscalerOptions.MAX_NODES_PER_SCALEUP, 1_000_000).set(AutoscalerOptions.SALVO_SCALE_UP, true).set(AutoscalerOptions.PROVISIONING_PASS, true).build();
  }

  @Override
  public Prepared prepare(int pods) {
    AutoscalerOptions options = options();
    List<NodeGroup> groups = DiverseWorkload.nodeGroups(types);
    List<Pod> podList = DiverseWorkload.pods(pods, SEED);
    StaticClusterView view = StaticClusterView.builder().pods(podList).build();
    return () -> {
      RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(groups);
      IterationResult r = new Autoscaler(options, view, provider, EventSink.NONE, BufferStatusWriter.NONE,
          new AutoscalerState(options), SnapshotSimulation::new).runOnce(NOW);
      return outcome(r, groups, podList);
    };
  }

  /** Pods, placements, nodes, capacity ratio and pods per zone of one iteration's scale-up. */
  static Outcome outcome(IterationResult r, List<NodeGroup> groups, List<Pod> pods) {
    Map<String, NodeGroup> byId = new HashMap<>();
    for (NodeGroup g : groups) {
      byId.put(g.id(), g);
    }
    long provisionedMilli = 0;
    int nodes = 0;
    TreeMap<String, Integer> perZone = new TreeMap<>();
    for (IterationResult.ScaleUpDecision d : r.scaleUp()) {
      NodeGroup g = byId.get(d.nodeGroup());
      nodes += d.delta();
      provisionedMilli += d.delta() * Quantities.milli(g.template().getStatus().getCapacity().get("cpu"));
      perZone.merge(DiverseWorkload.zone(g), d.realPods(), Integer::sum);
    }
    long requestedMilli = 0;
    for (Pod p : pods) {
      for (Container c : p.getSpec().getContainers()) {
        Quantity q = c.getResources().getRequests().get("cpu");
        requestedMilli += q == null ? 0 : Quantities.milli(q);
      }
    }
    int placed = r.pendingPods().onNewNodes();
    double ratio = requestedMilli == 0 ? Double.NaN : (double) provisionedMilli / requestedMilli;
    return new Outcome(pods.size(), placed, nodes, ratio, perZone);
  }
}
