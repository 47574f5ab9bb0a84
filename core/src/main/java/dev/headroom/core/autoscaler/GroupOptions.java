package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The options of one node group in force for a loop: each of the group's overrides ({@link NodeGroupOptions}, CA's
 * {@code NodeGroupAutoscalingOptions}) where it sets one, else the global option. The loop resolves them once, in the
 * observe step ({@link #of(AutoscalerOptions, Collection)}); every later step reads these values and never the
 * overrides themselves.
 */
public record GroupOptions(
    double scaleDownUtilizationThreshold,
    double scaleDownGpuUtilizationThreshold,
    Duration scaleDownUnneededTime,
    Duration scaleDownUnreadyTime,
    Duration maxNodeProvisionTime,
    Duration maxNodeStartupTime,
    boolean ignoreDaemonSetsUtilization) {

  /** The options of a group with overrides {@code own} over the global {@code options}. */
  public static GroupOptions of(AutoscalerOptions options, NodeGroupOptions own) {
    return new GroupOptions(
        or(own.scaleDownUtilizationThreshold(), options.scaleDownUtilizationThreshold()),
        or(own.scaleDownGpuUtilizationThreshold(), options.scaleDownGpuUtilizationThreshold()),
        or(own.scaleDownUnneededTime(), options.scaleDownUnneededTime()),
        or(own.scaleDownUnreadyTime(), options.scaleDownUnreadyTime()),
        or(own.maxNodeProvisionTime(), options.maxNodeProvisionTime()),
        or(own.maxNodeStartupTime(), options.maxNodeStartupTime()),
        or(own.ignoreDaemonSetsUtilization(), options.ignoreDaemonSetsUtilization()));
  }

  /** The options of each group by id. */
  public static Map<String, GroupOptions> of(AutoscalerOptions options, Collection<NodeGroup> groups) {
    Map<String, GroupOptions> byId = new HashMap<>(groups.size() * 2);
    for (NodeGroup g : groups) {
      byId.put(g.id(), of(options, g.options()));
    }
    return byId;
  }

  private static <T> T or(T own, T global) {
    return own != null ? own : global;
  }
}
