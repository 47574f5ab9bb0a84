package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.IterationResult.BufferOutcome;
import dev.headroom.core.autoscaler.IterationResult.NodeStatus;
import dev.headroom.core.autoscaler.IterationResult.PendingPods;
import dev.headroom.core.autoscaler.IterationResult.PodGroupOutcome;
import dev.headroom.core.autoscaler.IterationResult.ScaleDownDecision;
import dev.headroom.core.autoscaler.IterationResult.UnschedulablePod;
import dev.headroom.core.autoscaler.scaledown.ScaleDownPlanner;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one loop produces, as its steps produce it: the events it emits (passed on to the sink at once), where each
 * pending and virtual pod went, the groups' target sizes as its scale-ups left them, and each step's part of the
 * {@link IterationResult}. A loop that stops early builds a result of what it has so far ({@link #build()}).
 */
final class IterationBuilder {

  private final Instant now;
  private final String expander;
  private final EventSink sink;
  private final List<EventRecord> emitted = new ArrayList<>();
  private final Map<String, NodeGroup> groups = new LinkedHashMap<>();
  private Map<Pod, Autoscaler.Placement> placement = new IdentityHashMap<>();
  private PendingDemand.NotDemand notDemand = PendingDemand.NotDemand.NONE;
  private List<NodeStatus> nodeStatuses = List.of();
  private Autoscaler.ScaleUpOutcome scaleUp;
  private List<PodGroupOutcome> podGroups = List.of();
  private ScaleDownPlanner.Plan scaleDownPlan;
  private List<ScaleDownDecision> scaleDown = List.of();
  private PendingPods pendingPods = new PendingPods(0, 0, 0, 0, 0);
  private List<UnschedulablePod> unschedulable = List.of();
  private List<BufferOutcome> buffers = List.of();
  private StandbyCapacity.Result standby = StandbyCapacity.Result.NONE;

  IterationBuilder(Instant now, String expander, EventSink sink) {
    this.now = now;
    this.expander = expander;
    this.sink = sink;
  }

  /** The loop's clock reading. */
  Instant now() {
    return now;
  }

  void standby(StandbyCapacity.Result r) {
    standby = r;
  }

  /** Emits {@code e} to the sink and keeps it for the result. */
  void emit(EventRecord e) {
    emitted.add(e);
    sink.emit(e);
  }

  /** Starts the placements, sized for about {@code expected} pods. */
  void expectPlacements(int expected) {
    placement = new IdentityHashMap<>(expected);
  }

  /** Where pod {@code p} is placed now (null when nowhere yet). */
  Autoscaler.Placement placement(Pod p) {
    return placement.get(p);
  }

  void place(Pod p, Autoscaler.Placement at) {
    placement.put(p, at);
  }

  /** Records that {@code p} got no capacity, unless it was placed. */
  void placeNowhereUnlessPlaced(Pod p) {
    placement.putIfAbsent(p, Autoscaler.Placement.NONE);
  }

  /** The groups with the target sizes this loop's scale-ups gave them (the observed ones until then). */
  Map<String, NodeGroup> groups() {
    return groups;
  }

  /** A point to go back to after a trial ({@link #rollBack}): placements are recorded on a copy from now on. */
  Mark mark() {
    Mark m = new Mark(new LinkedHashMap<>(groups), placement, emitted.size());
    placement = new IdentityHashMap<>(placement);
    return m;
  }

  /** Forgets what was recorded since {@code m}: group sizes, placements and events. */
  void rollBack(Mark m) {
    groups.clear();
    groups.putAll(m.groups());
    placement = m.placement();
    emitted.subList(m.emitted(), emitted.size()).clear();
  }

  record Mark(Map<String, NodeGroup> groups, Map<Pod, Autoscaler.Placement> placement, int emitted) {}

  void notDemand(PendingDemand.NotDemand n) {
    notDemand = n;
  }

  void nodeStatuses(List<NodeStatus> statuses) {
    nodeStatuses = statuses;
  }

  void scaledUp(Autoscaler.ScaleUpOutcome outcome, List<PodGroupOutcome> groupOutcomes) {
    scaleUp = outcome;
    podGroups = groupOutcomes;
  }

  void scaledDown(ScaleDownPlanner.Plan plan, List<ScaleDownDecision> decisions) {
    scaleDownPlan = plan;
    scaleDown = decisions;
  }

  void reported(PendingPods pending, List<UnschedulablePod> unhelped, List<BufferOutcome> bufferOutcomes) {
    pendingPods = pending;
    unschedulable = unhelped;
    buffers = bufferOutcomes;
  }

  /** The loop's result; a step that did not run contributes nothing (no scale-up tried, no scale-down). */
  IterationResult build() {
    ScaleUpResult result = scaleUp == null ? ScaleUpResult.ScaleUpNotTried : scaleUp.result();
    return new IterationResult(now, expander, result, scaleUp == null ? List.of() : List.copyOf(scaleUp.decisions()),
        List.copyOf(scaleDown), pendingPods, List.copyOf(buffers), List.copyOf(unschedulable),
        scaleDownPlan == null ? List.of() : scaleDownPlan.unneeded(), scaleDownPlan == null ? List.of() : scaleDownPlan.unremovable(),
        List.copyOf(emitted), nodeStatuses, notDemand, podGroups,
        standby.buffers(), standby.groups());
  }
}
