package dev.headroom.core.nodegroup;

import java.time.Duration;

/**
 * Per-group overrides of autoscaler options (CA's {@code NodeGroupAutoscalingOptions}); a null component
 * means "use the global option".
 */
public record NodeGroupOptions(
    Double scaleDownUtilizationThreshold,
    Double scaleDownGpuUtilizationThreshold,
    Duration scaleDownUnneededTime,
    Duration scaleDownUnreadyTime,
    Duration maxNodeProvisionTime,
    Duration maxNodeStartupTime,
    Boolean ignoreDaemonSetsUtilization) {

  /** No overrides. */
  public static final NodeGroupOptions NONE = new NodeGroupOptions(null, null, null, null, null, null, null);
}
