package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.AutoscalerOptions;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The autoscaler part of {@code headroom run}: which provider, core's options, where the provider's configuration
 * lives, and the actuation settings.
 *
 * @param cloudProvider {@code kwok} or {@code clusterapi}; null = the autoscaler does not run
 * @param options core's options (scan interval, expander, limits, scale-down switches, ...)
 * @param namespace Headroom's namespace (status events, the node-group ConfigMap)
 * @param nodeGroupsFile kwok: NodeGroup documents; null = read ConfigMap {@code headroom-node-groups}
 * @param nodeGroupAutoDiscovery clusterapi: {@code clusterapi:namespace=..,clusterName=..,k=v}; null = all
 * @param nodeDeleteDelayAfterTaint wait between evicting a node's pods and deleting it
 * @param maxGracefulTerminationSec upper bound of the grace period given to evicted pods
 */
public record AutoscalerSettings(
    String cloudProvider,
    AutoscalerOptions options,
    String namespace,
    Path nodeGroupsFile,
    String nodeGroupAutoDiscovery,
    Duration nodeDeleteDelayAfterTaint,
    int maxGracefulTerminationSec) {

  /** Flag names added to {@code headroom run} (the core options keep the names of {@link AutoscalerOptions}). */
  public static final String FLAG_CLOUD_PROVIDER = "--cloud-provider";
  public static final String FLAG_NODE_GROUPS = "--node-groups";
  public static final String FLAG_NODE_GROUP_AUTO_DISCOVERY = "--node-group-auto-discovery";
  public static final String FLAG_NODE_DELETE_DELAY_AFTER_TAINT = "--node-delete-delay-after-taint";
  public static final String FLAG_MAX_GRACEFUL_TERMINATION_SEC = "--max-graceful-termination-sec";

  /** Default of {@link #nodeDeleteDelayAfterTaint} (upstream 5 s). */
  public static final Duration DEFAULT_NODE_DELETE_DELAY_AFTER_TAINT = Duration.ofSeconds(5);
  /** Default of {@link #maxGracefulTerminationSec} (upstream 600). */
  public static final int DEFAULT_MAX_GRACEFUL_TERMINATION_SEC = 600;

  /** True when a provider was chosen. */
  public boolean enabled() {
    return cloudProvider != null && !cloudProvider.isBlank();
  }
}
