package dev.headroom.cli;

import dev.headroom.controller.autoscaling.AutoscalerSettings;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.nodegroup.GoDuration;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The autoscaler flags of {@code headroom run} (a picocli mixin). Without {@code --cloud-provider} the autoscaler
 * does not run. Durations use the Go syntax of the upstream flags ({@code 10s}, {@code 15m}, {@code 1h30m}).
 */
public final class AutoscalerFlags {

  @Option(names = AutoscalerSettings.FLAG_CLOUD_PROVIDER, paramLabel = "kwok|clusterapi",
      description = "run the autoscaler with this node provider (default: autoscaler off)")
  String cloudProvider;

  @Option(names = "--" + AutoscalerOptions.SCAN_INTERVAL, paramLabel = "DURATION", defaultValue = "10s",
      description = "how often the autoscaler runs (default: ${DEFAULT-VALUE})")
  String scanInterval;

  @Option(names = "--" + AutoscalerOptions.EXPANDER, paramLabel = "NAMES", defaultValue = AutoscalerOptions.DEFAULT_EXPANDER,
      description = "expander chain: least-waste, most-pods, least-nodes, price, priority, random (default: ${DEFAULT-VALUE})")
  String expander;

  @Option(names = "--" + AutoscalerOptions.MAX_NODES_TOTAL, paramLabel = "N", defaultValue = "0",
      description = "upper bound of the cluster's node count, 0 = none (default: ${DEFAULT-VALUE})")
  String maxNodesTotal;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_ENABLED, paramLabel = "BOOL", defaultValue = "true",
      description = "remove unneeded nodes (default: ${DEFAULT-VALUE})")
  String scaleDownEnabled;

  @Option(names = "--" + AutoscalerOptions.MAX_NODE_PROVISION_TIME, paramLabel = "DURATION", defaultValue = "15m",
      description = "a requested node not Ready by then backs its group off (default: ${DEFAULT-VALUE})")
  String maxNodeProvisionTime;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, paramLabel = "DURATION", defaultValue = "10m",
      description = "how long a node must be unneeded before it is removed (default: ${DEFAULT-VALUE})")
  String scaleDownUnneededTime;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD, paramLabel = "DURATION", defaultValue = "10m",
      description = "no scale-down for this long after a scale-up (default: ${DEFAULT-VALUE})")
  String scaleDownDelayAfterAdd;

  @Option(names = "--" + AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, paramLabel = "NAMES", defaultValue = "",
      description = "schedulers whose not-yet-processed pods count as demand, comma-separated (default: none)")
  String bypassedSchedulerNames;

  @Option(names = AutoscalerSettings.FLAG_NODE_GROUPS, paramLabel = "FILE",
      description = "kwok: NodeGroup documents; without it ConfigMap headroom-node-groups (key nodegroups.yaml) in the lease namespace")
  Path nodeGroups;

  @Option(names = AutoscalerSettings.FLAG_NODE_GROUP_AUTO_DISCOVERY, paramLabel = "SPEC",
      description = "clusterapi: clusterapi:namespace=NS,clusterName=NAME,LABEL=VALUE (default: every annotated MachineDeployment/MachineSet)")
  String nodeGroupAutoDiscovery;

  @Option(names = AutoscalerSettings.FLAG_NODE_DELETE_DELAY_AFTER_TAINT, paramLabel = "DURATION", defaultValue = "5s",
      description = "wait between evicting a node's pods and deleting it (default: ${DEFAULT-VALUE})")
  String nodeDeleteDelayAfterTaint;

  /** True when {@code --cloud-provider} was given. */
  boolean enabled() {
    return cloudProvider != null && !cloudProvider.isBlank();
  }

  /**
   * The settings the flags describe.
   *
   * @param injection {@code --capacity-buffer-pod-injection-enabled}
   * @throws IllegalArgumentException naming the flag in error
   */
  AutoscalerSettings settings(boolean injection, String namespace) {
    AutoscalerOptions.Builder b = AutoscalerOptions.builder()
        .set(AutoscalerOptions.SCAN_INTERVAL, scanInterval)
        .set(AutoscalerOptions.EXPANDER, expander)
        .set(AutoscalerOptions.MAX_NODES_TOTAL, maxNodesTotal)
        .set(AutoscalerOptions.SCALE_DOWN_ENABLED, scaleDownEnabled)
        .set(AutoscalerOptions.MAX_NODE_PROVISION_TIME, maxNodeProvisionTime)
        .set(AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, scaleDownUnneededTime)
        .set(AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD, scaleDownDelayAfterAdd)
        .set(AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, bypassedSchedulerNames)
        .bufferPodInjectionEnabled(injection);
    AutoscalerOptions options = b.build();
    if (options.scanInterval().isZero()) {
      throw new IllegalArgumentException("--" + AutoscalerOptions.SCAN_INTERVAL + ": must be positive");
    }
    Duration delay;
    try {
      delay = GoDuration.parse(nodeDeleteDelayAfterTaint.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid value \"" + nodeDeleteDelayAfterTaint + "\" for " + AutoscalerSettings.FLAG_NODE_DELETE_DELAY_AFTER_TAINT + ": " + e.getMessage());
    }
    return new AutoscalerSettings(cloudProvider, options, namespace, nodeGroups, nodeGroupAutoDiscovery, delay,
        AutoscalerSettings.DEFAULT_MAX_GRACEFUL_TERMINATION_SEC);
  }
}
