package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.EventRecord;
import dev.headroom.core.autoscaler.Events;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The autoscaler's {@code headroom_*} metrics, modelled on the upstream {@code cluster_autoscaler_*} ones (autoscaler
 * spec §8): unschedulable pods, nodes by state and by group, scaled-up and scaled-down nodes, failed scale-ups,
 * iteration duration by phase and virtual pods by buffer. Updated once per iteration from core's result.
 */
public final class AutoscalerMetrics {
  public static final String SAFE_TO_AUTOSCALE = "headroom_cluster_safe_to_autoscale";
  public static final String NODES = "headroom_nodes_count";
  public static final String UNSCHEDULABLE_PODS = "headroom_unschedulable_pods_count";
  /** [H-EXT] Unbound pods core did not count as demand, {@code type} = {@code gated}, {@code not_yet_tried}. */
  public static final String NOT_DEMAND_PODS = "headroom_not_demand_pods_count";
  public static final String NODE_GROUPS = "headroom_node_groups_count";
  public static final String NODE_GROUP_MIN = "headroom_node_group_min_count";
  public static final String NODE_GROUP_MAX = "headroom_node_group_max_count";
  public static final String NODE_GROUP_TARGET = "headroom_node_group_target_count";
  public static final String NODE_GROUP_NODES = "headroom_node_group_nodes_count";
  public static final String NODE_GROUP_UPCOMING = "headroom_node_group_upcoming_count";
  public static final String MAX_NODES = "headroom_max_nodes_count";
  public static final String SCALED_UP = "headroom_scaled_up_nodes_total";
  public static final String SCALED_DOWN = "headroom_scaled_down_nodes_total";
  public static final String FAILED_SCALE_UPS = "headroom_failed_scale_ups_total";
  public static final String EVICTED_PODS = "headroom_evicted_pods_total";
  public static final String UNNEEDED_NODES = "headroom_unneeded_nodes_count";
  public static final String UNREMOVABLE_NODES = "headroom_unremovable_nodes_count";
  public static final String ERRORS = "headroom_errors_total";
  public static final String LAST_ACTIVITY = "headroom_last_activity";
  public static final String FUNCTION_DURATION = "headroom_function_duration_seconds";
  public static final String VIRTUAL_PODS = "headroom_virtual_pods_count";
  public static final String BUFFER_VIRTUAL_PODS = "headroom_buffer_virtual_pods";
  public static final String BUFFER_SCALE_UPS = "headroom_buffer_scale_ups_total";
  /** Chunks of a buffer's shape the free room of existing nodes holds in total but no single node holds. */
  public static final String BUFFER_FRAGMENTED_CHUNKS = "headroom_buffer_fragmented_chunks";
  /** [H-EXT] Standby capacity (docs/standby-capacity.md): each group's standby target after the loop. */
  public static final String STANDBY_TARGET = "headroom_node_group_standby_target_count";
  /** [H-EXT] Standby nodes per group as the loop found them, {@code state} = {@code suspended}, {@code preparing}. */
  public static final String STANDBY_NODES = "headroom_node_group_standby_nodes_count";

  /** Placement label values of the virtual-pod metrics. */
  public static final List<String> PLACEMENTS = List.of("existing", "upcoming", "new_nodes", "unhelpable");

  private final MeterRegistry registry;
  private final int maxNodesTotal;
  private final AtomicLong safe = new AtomicLong(1);
  private final AtomicLong groupCount = new AtomicLong();
  private final AtomicLong unneeded = new AtomicLong();
  private final Map<String, AtomicLong> lastActivity = new TreeMap<>();
  private final MultiGauge nodes;
  private final MultiGauge unschedulable;
  private final MultiGauge notDemand;
  private final MultiGauge groupMin;
  private final MultiGauge groupMax;
  private final MultiGauge groupTarget;
  private final MultiGauge groupNodes;
  private final MultiGauge groupUpcoming;
  private final MultiGauge unremovable;
  private final MultiGauge virtualPods;
  /** Per buffer (namespace, name, placement) and per buffer (namespace, name): registered once per row. */
  private final RowGauges bufferVirtualPods;
  private final RowGauges bufferFragmented;
  private final MultiGauge standbyTarget;
  private final MultiGauge standbyNodes;

  public AutoscalerMetrics(MeterRegistry registry, int maxNodesTotal) {
    this.registry = registry;
    this.maxNodesTotal = maxNodesTotal;
    Gauge.builder(SAFE_TO_AUTOSCALE, safe, AtomicLong::get).description("1 when the cluster is healthy enough to autoscale").register(registry);
    Gauge.builder(NODE_GROUPS, groupCount, AtomicLong::get).description("Autoscaled node groups").register(registry);
    Gauge.builder(UNNEEDED_NODES, unneeded, AtomicLong::get).description("Nodes currently found unneeded").register(registry);
    Gauge.builder(MAX_NODES, () -> this.maxNodesTotal).description("--max-nodes-total (0 = no limit)").register(registry);
    for (String a : List.of("main", "autoscaling", "scaleUp", "scaleDown")) {
      AtomicLong v = new AtomicLong();
      lastActivity.put(a, v);
      Gauge.builder(LAST_ACTIVITY, v, AtomicLong::get).tag("activity", a).description("Unix time of the last activity").register(registry);
    }
    nodes = MultiGauge.builder(NODES).description("Nodes by state").register(registry);
    unschedulable = MultiGauge.builder(UNSCHEDULABLE_PODS).description("Pending real pods by type").register(registry);
    notDemand = MultiGauge.builder(NOT_DEMAND_PODS)
        .description("Unbound pods that are not pending demand: gated, or not yet tried by their scheduler").register(registry);
    groupMin = MultiGauge.builder(NODE_GROUP_MIN).description("Minimum size per node group").register(registry);
    groupMax = MultiGauge.builder(NODE_GROUP_MAX).description("Maximum size per node group").register(registry);
    groupTarget = MultiGauge.builder(NODE_GROUP_TARGET).description("Target size per node group").register(registry);
    groupNodes = MultiGauge.builder(NODE_GROUP_NODES).description("Registered nodes per node group and state").register(registry);
    groupUpcoming = MultiGauge.builder(NODE_GROUP_UPCOMING).description("Requested, not yet registered nodes per node group").register(registry);
    unremovable = MultiGauge.builder(UNREMOVABLE_NODES).description("Nodes that cannot be removed, by reason").register(registry);
    virtualPods = MultiGauge.builder(VIRTUAL_PODS).description("Virtual pods by where they ended in the last loop").register(registry);
    bufferVirtualPods = new RowGauges(registry, BUFFER_VIRTUAL_PODS, "Virtual pods per buffer by placement", List.of("namespace", "name", "placement"));
    bufferFragmented = new RowGauges(registry, BUFFER_FRAGMENTED_CHUNKS,
        "Chunks of the buffer's shape that free room holds in total but no single existing node holds", List.of("namespace", "name"));
    standbyTarget = MultiGauge.builder(STANDBY_TARGET).description("Standby nodes each node group is asked to keep").register(registry);
    standbyNodes = MultiGauge.builder(STANDBY_NODES).description("Standby nodes per node group, suspended or preparing").register(registry);
    for (String f : PhaseTimer.FUNCTIONS) {
      timer(f);
    }
  }

  private Timer timer(String function) {
    return Timer.builder(FUNCTION_DURATION).tag("function", function)
        .description("Time spent in each phase of an autoscaler iteration")
        .serviceLevelObjectives(buckets())
        .register(registry);
  }

  /** Exponential buckets from 1 ms, factor 2, 22 buckets (spec §8). */
  private static Duration[] buckets() {
    Duration[] b = new Duration[22];
    double s = 0.001;
    for (int i = 0; i < b.length; i++) {
      b[i] = Duration.ofNanos((long) (s * 1e9));
      s *= 2;
    }
    return b;
  }

  /** An iteration that threw. */
  public void error(String type) {
    Counter.builder(ERRORS).tag("type", type).description("Failed autoscaler iterations by type").register(registry).increment();
  }

  /** One eviction during scale-down. */
  public void eviction(boolean succeeded) {
    Counter.builder(EVICTED_PODS).tag("eviction_result", succeeded ? "succeeded" : "failed").register(registry).increment();
  }

  /**
   * Records one iteration. Nodes are counted by the state core's cluster-state registry gave them in this iteration
   * ({@link IterationResult#nodes()}, which honours each group's {@code maxNodeStartupTime}), so these gauges and
   * core's decisions never disagree about a node.
   *
   * @param phases nanoseconds per phase measured at the ports; {@code main} is the whole iteration
   * @param groups the node groups after the iteration
   * @param allPods the pods the iteration read
   */
  public void record(IterationResult r, long mainNanos, Map<String, Long> phases, List<NodeGroup> groups, List<Pod> allPods) {
    Instant now = r.now();
    long measured = 0;
    for (Map.Entry<String, Long> e : phases.entrySet()) {
      timer(e.getKey()).record(e.getValue(), TimeUnit.NANOSECONDS);
      measured += e.getValue();
    }
    timer(PhaseTimer.MAIN).record(mainNanos, TimeUnit.NANOSECONDS);
    timer(PhaseTimer.SIMULATION).record(Math.max(0, mainNanos - measured), TimeUnit.NANOSECONDS);
    lastActivity.get("main").set(now.getEpochSecond());
    lastActivity.get("autoscaling").set(now.getEpochSecond());
    if (!r.scaleUp().isEmpty()) {
      lastActivity.get("scaleUp").set(now.getEpochSecond());
    }
    if (!r.scaleDown().isEmpty()) {
      lastActivity.get("scaleDown").set(now.getEpochSecond());
    }
    boolean unhealthy = r.events().stream().anyMatch(e -> Events.CLUSTER_UNHEALTHY.equals(e.reason()));
    safe.set(unhealthy ? 0 : 1);

    // Nodes by state, overall and per group, as core classified them.
    Map<String, Long> byState = new TreeMap<>();
    for (String s : List.of("ready", "unready", "notStarted", "unregistered")) {
      byState.put(s, 0L);
    }
    Map<List<String>, Long> byGroupState = new TreeMap<>((a, b) -> String.join("\0", a).compareTo(String.join("\0", b)));
    Map<String, Long> registered = new TreeMap<>();
    for (IterationResult.NodeStatus n : r.nodes()) {
      String state = stateLabel(n.state());
      byState.merge(state, 1L, Long::sum);
      String g = n.nodeGroup();
      if (g != null) {
        byGroupState.merge(List.of(g, state), 1L, Long::sum);
        registered.merge(g, 1L, Long::sum);
      }
    }
    List<MultiGauge.Row<?>> upcomingRows = new ArrayList<>();
    List<MultiGauge.Row<?>> minRows = new ArrayList<>();
    List<MultiGauge.Row<?>> maxRows = new ArrayList<>();
    List<MultiGauge.Row<?>> targetRows = new ArrayList<>();
    long unregistered = 0;
    for (NodeGroup g : groups) {
      long up = Math.max(0, g.targetSize() - registered.getOrDefault(g.id(), 0L));
      unregistered += up;
      Tags t = Tags.of("node_group", g.id());
      upcomingRows.add(MultiGauge.Row.of(t, up));
      minRows.add(MultiGauge.Row.of(t, g.minSize()));
      maxRows.add(MultiGauge.Row.of(t, g.maxSize()));
      targetRows.add(MultiGauge.Row.of(t, g.targetSize()));
    }
    byState.put("unregistered", unregistered);
    nodes.register(rows(byState, "state"), true);
    List<MultiGauge.Row<?>> groupNodeRows = new ArrayList<>();
    byGroupState.forEach((k, v) -> groupNodeRows.add(MultiGauge.Row.of(Tags.of("node_group", k.get(0), "state", k.get(1)), v)));
    groupNodes.register(groupNodeRows, true);
    groupUpcoming.register(upcomingRows, true);
    groupMin.register(minRows, true);
    groupMax.register(maxRows, true);
    groupTarget.register(targetRows, true);
    groupCount.set(groups.size());

    // Pending real pods that are not gated: marked unschedulable by the scheduler, or not processed yet.
    long marked = 0;
    long unprocessed = 0;
    for (Pod p : allPods) {
      if (p.getSpec() == null || (p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty())
          || p.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      if (dev.headroom.core.autoscaler.PendingDemand.of(p, java.util.Set.of()) == dev.headroom.core.autoscaler.PendingDemand.Kind.GATED) {
        continue; // held back by a queue: counted in NOT_DEMAND_PODS, never waiting for a scheduler
      }
      if (unschedulableCondition(p)) {
        marked++;
      } else {
        unprocessed++;
      }
    }
    unschedulable.register(List.of(
        MultiGauge.Row.of(Tags.of("type", "unschedulable"), marked),
        MultiGauge.Row.of(Tags.of("type", "scheduler_unprocessed"), unprocessed)), true);
    notDemand.register(List.of(
        MultiGauge.Row.of(Tags.of("type", "gated"), r.notDemand().gated()),
        MultiGauge.Row.of(Tags.of("type", "not_yet_tried"), r.notDemand().notYetTried())), true);

    // Scale-up and scale-down.
    for (IterationResult.ScaleUpDecision d : r.scaleUp()) {
      Counter.builder(SCALED_UP).tag("node_group", d.nodeGroup()).description("Nodes added by the autoscaler").register(registry).increment(d.delta());
      if (d.virtualPods() > 0) {
        Counter.builder(BUFFER_SCALE_UPS).tag("node_group", d.nodeGroup()).description("Scale-ups whose option held virtual pods").register(registry).increment();
      }
    }
    for (IterationResult.ScaleDownDecision d : r.scaleDown()) {
      Counter.builder(SCALED_DOWN).tag("node_group", d.nodeGroup()).tag("reason", d.reason()).description("Nodes removed by the autoscaler").register(registry).increment();
    }
    for (EventRecord e : r.events()) {
      if (Events.FAILED_TO_SCALE_UP_GROUP.equals(e.reason())) {
        Counter.builder(FAILED_SCALE_UPS).tag("reason", "cloudProviderError").register(registry).increment();
      } else if (Events.SCALE_UP_TIMED_OUT.equals(e.reason())) {
        Counter.builder(FAILED_SCALE_UPS).tag("reason", "timeout").register(registry).increment();
      }
    }
    unneeded.set(r.unneededNodes().size());
    Map<String, Long> unremovableByReason = new TreeMap<>();
    r.unremovableNodes().forEach(u -> unremovableByReason.merge(u.reason(), 1L, Long::sum));
    unremovable.register(rows(unremovableByReason, "reason"), true);

    // Virtual pods.
    long[] totals = new long[4];
    Map<List<String>, Long> perBuffer = new java.util.HashMap<>(r.buffers().size() * 8);
    Map<List<String>, Long> fragmented = new java.util.HashMap<>(r.buffers().size() * 2);
    for (IterationResult.BufferOutcome b : r.buffers()) {
      long[] v = {b.onExistingNodes(), b.onUpcomingNodes(), b.onNewNodes(), b.unschedulable()};
      for (int i = 0; i < 4; i++) {
        totals[i] += v[i];
        perBuffer.put(List.of(b.namespace(), b.name(), PLACEMENTS.get(i)), v[i]);
      }
      fragmented.put(List.of(b.namespace(), b.name()), (long) b.freeRoom().fragmented());
    }
    List<MultiGauge.Row<?>> totalRows = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      totalRows.add(MultiGauge.Row.of(Tags.of("placement", PLACEMENTS.get(i)), totals[i]));
    }
    virtualPods.register(totalRows, true);
    bufferVirtualPods.update(perBuffer);
    bufferFragmented.update(fragmented);

    // Standby capacity (only groups with spec.standby, with --standby-capacity).
    List<MultiGauge.Row<?>> targets = new ArrayList<>();
    List<MultiGauge.Row<?>> standby = new ArrayList<>();
    for (IterationResult.StandbyGroup g : r.standbyGroups()) {
      targets.add(MultiGauge.Row.of(Tags.of("node_group", g.nodeGroup()), g.target()));
      standby.add(MultiGauge.Row.of(Tags.of("node_group", g.nodeGroup(), "state", "suspended"), g.suspended()));
      standby.add(MultiGauge.Row.of(Tags.of("node_group", g.nodeGroup(), "state", "preparing"), g.preparing()));
    }
    standbyTarget.register(targets, true);
    standbyNodes.register(standby, true);
  }

  /** The {@code state} label of {@link #NODES} and {@link #NODE_GROUP_NODES} for a core node state. */
  static String stateLabel(IterationResult.NodeState s) {
    return switch (s) {
      case READY -> "ready";
      case NOT_STARTED -> "notStarted";
      case UNREADY -> "unready";
    };
  }

  private static boolean unschedulableCondition(Pod p) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition c : p.getStatus().getConditions()) {
      if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())) {
        return true;
      }
    }
    return false;
  }

  private static List<MultiGauge.Row<?>> rows(Map<String, Long> values, String label) {
    List<MultiGauge.Row<?>> out = new ArrayList<>();
    values.forEach((k, v) -> out.add(MultiGauge.Row.of(Tags.of(label, k), v)));
    return out;
  }
}
