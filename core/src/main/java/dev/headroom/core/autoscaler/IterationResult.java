package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;

/**
 * Everything one {@code runOnce(now)} decided and observed: what {@code plan} prints and what the runtime and
 * the simulator apply or record.
 */
public record IterationResult(
    Instant now,
    String expander,
    ScaleUpResult scaleUpResult,
    List<ScaleUpDecision> scaleUp,
    List<ScaleDownDecision> scaleDown,
    PendingPods pendingPods,
    List<BufferOutcome> buffers,
    List<UnschedulablePod> unschedulablePods,
    List<UnneededNode> unneededNodes,
    List<UnremovableNode> unremovableNodes,
    List<EventRecord> events,
    List<NodeStatus> nodes,
    PendingDemand.NotDemand notDemand,
    List<PodGroupOutcome> podGroups,
    List<StandbyBuffer> standbyBuffers,
    List<StandbyGroup> standbyGroups) {

  /**
   * How the loop's cluster-state registry classified a registered node: Ready, not Ready but younger than its
   * group's {@code maxNodeStartupTime} (or the global one), or not Ready for longer.
   */
  public enum NodeState { READY, NOT_STARTED, UNREADY }

  /**
   * One registered node as this loop saw it, in name order; {@code nodeGroup} is null for a node no group owns. The
   * list is empty when the loop stopped before it classified nodes (no Ready node and no scale-up from zero).
   */
  public record NodeStatus(String node, String nodeGroup, NodeState state) {}

  /**
   * One group of pods scaled for all-or-nothing (a PodGroup or a gang buffer): {@code members} pending plus running,
   * {@code placed} of them with capacity in this loop (running ones included), and {@code status}: {@link #FITS}
   * (no new capacity needed), {@link #SCALED_UP} or {@link #BLOCKED} (none requested; {@code limit} says why).
   */
  public record PodGroupOutcome(String source, String namespace, String name, int minMember, int members, int running,
      int placed, String status, String limit) {
    public static final String FITS = "Fits";
    public static final String SCALED_UP = "ScaledUp";
    public static final String BLOCKED = "Blocked";
  }

  /** Growth of one group. */
  public record ScaleUpDecision(String nodeGroup, int delta, int currentSize, int newTargetSize, int maxSize, int realPods, int virtualPods) {}

  /** Removal of one node; {@code reason} is {@code empty}, {@code underutilized} or {@code unready}. */
  public record ScaleDownDecision(String node, String nodeGroup, String reason, double utilization, List<String> podsToReschedule) {}

  /** Where the real pending pods went in this loop's simulation. */
  public record PendingPods(int total, int onExistingNodes, int onUpcomingNodes, int onNewNodes, int unschedulable) {}

  /** One selected buffer: where its virtual pods went and its conditions after the loop. */
  public record BufferOutcome(
      String namespace, String name, int virtualPods, int onExistingNodes, int onUpcomingNodes, int onNewNodes,
      int unschedulable, List<Condition> conditions, boolean statusWritten, SchedulingSimulation.ChunkRoom freeRoom) {}

  /**
   * One buffer of the standby strategy (docs/standby-capacity.md): the group its chunks went to (null when none),
   * its chunks, how many of them the group's standby nodes hold, and its conditions after the loop.
   */
  public record StandbyBuffer(String namespace, String name, String nodeGroup, int chunks, int kept, List<Condition> conditions,
      boolean statusWritten) {}

  /**
   * One group with {@code spec.standby}: its standby target before and after this loop, the provider's suspended and
   * preparing standby nodes as the loop found them, and the standby chunks assigned to it.
   */
  public record StandbyGroup(String nodeGroup, int previousTarget, int target, int suspended, int preparing, int chunks) {}

  /** A real pod that no existing, upcoming or new node helps, and why. */
  public record UnschedulablePod(String namespace, String name, String reason) {}

  /** A node found removable, and since when. */
  public record UnneededNode(String node, String nodeGroup, Instant since, boolean empty, double utilization) {}

  /** A node that cannot be removed, and why ({@link dev.headroom.core.autoscaler.scaledown.UnremovableReason} name, plus detail). */
  public record UnremovableNode(String node, String reason, String detail) {}
}
