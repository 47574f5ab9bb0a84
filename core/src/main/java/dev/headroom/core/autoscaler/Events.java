package dev.headroom.core.autoscaler;

/** Event reasons and message formats of the autoscaler (upstream wording). */
public final class Events {

  public static final String TRIGGERED_SCALE_UP = "TriggeredScaleUp";
  public static final String NOT_TRIGGER_SCALE_UP = "NotTriggerScaleUp";
  /** A pod group or gang buffer that gets no capacity because not enough of its members would (all-or-nothing). */
  public static final String POD_GROUP_NOT_TRIGGER_SCALE_UP = "PodGroupNotTriggerScaleUp";
  public static final String SCALED_UP_GROUP = "ScaledUpGroup";
  public static final String FAILED_TO_SCALE_UP_GROUP = "FailedToScaleUpGroup";
  public static final String SCALE_UP_TIMED_OUT = "ScaleUpTimedOut";
  public static final String FIX_NODE_GROUP_SIZE_FAILED = "FailedToFixNodeGroupSize";
  public static final String MAX_NODES_TOTAL_REACHED = "MaxNodesTotalReached";
  public static final String CLUSTER_UNHEALTHY = "ClusterUnhealthy";
  public static final String SCALE_DOWN = "ScaleDown";
  public static final String SCALE_DOWN_EMPTY = "ScaleDownEmpty";
  public static final String SCALE_DOWN_FAILED = "ScaleDownFailed";

  /** Pod event: {@code pod triggered scale-up: <infos>}. */
  public static final String POD_TRIGGERED = "pod triggered scale-up: %s";
  /** Pod event: {@code pod didn't trigger scale-up: <reasons>}. */
  public static final String POD_NOT_TRIGGERED = "pod didn't trigger scale-up: %s";
  /** Buffer event: {@code capacity buffer <n> fake pods triggered scale-up: <infos>}. */
  public static final String BUFFER_TRIGGERED = "capacity buffer %d fake pods triggered scale-up: %s";
  /** Buffer event: {@code capacity buffer <n> fake pods didn't trigger scale-up: <reasons>}. */
  public static final String BUFFER_NOT_TRIGGERED = "capacity buffer %d fake pods didn't trigger scale-up: %s";
  public static final String SCALED_UP_GROUP_BEFORE = "Scale-up: setting group %s size to %d instead of %d (max: %d)";
  public static final String SCALED_UP_GROUP_AFTER = "Scale-up: group %s size set to %d instead of %d (max: %d)";
  public static final String FAILED_TO_SCALE_UP_GROUP_MSG = "Scale-up failed for group %s: %s";
  /** [H-EXT] The provider refused a group's standby target (docs/standby-capacity.md). */
  public static final String FAILED_TO_SET_STANDBY = "FailedToSetStandbyTarget";
  public static final String FAILED_TO_SET_STANDBY_MSG = "Standby target %2$d refused for group %1$s: %3$s";
  public static final String SCALE_UP_TIMED_OUT_MSG = "Nodes added to group %s failed to register within %s";
  public static final String FIX_NODE_GROUP_SIZE_FAILED_MSG = "Failed to lower the target size of group %s from %d to %d (missing nodes: %d): %s";
  public static final String MAX_NODES_TOTAL_REACHED_MSG = "Max total nodes in cluster reached: %d";
  public static final String CLUSTER_UNHEALTHY_MSG = "Cluster is unhealthy";
  public static final String SCALE_DOWN_EMPTY_MSG = "Scale-down: removing empty node \"%s\"";
  public static final String SCALE_DOWN_MSG = "Scale-down: removing node %s, utilization: %s, pods to reschedule: %s";
  public static final String SCALE_DOWN_NODE_MSG = "marked the node as toBeDeleted/unschedulable";

  /** Reason text for pods when the total node limit blocks scale-up. */
  public static final String MAX_TOTAL_NODES_REASON = "max total nodes in cluster reached";
  /** Reason text for pods when no node group exists (upstream would give an empty reason list). */
  public static final String NO_NODE_GROUPS_REASON = "no node groups exist";

  private Events() {}
}
