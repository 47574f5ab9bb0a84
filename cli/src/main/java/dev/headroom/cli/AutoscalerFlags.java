package dev.headroom.cli;

import dev.headroom.controller.autoscaling.AutoscalerSettings;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.nodegroup.GoDuration;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The autoscaler flags of {@code headroom run} (a picocli mixin), named as the upstream Cluster Autoscaler's. Without
 * {@code --cloud-provider} the autoscaler does not run. Durations use the Go syntax of the upstream flags
 * ({@code 10s}, {@code 15m}, {@code 1h30m}; also {@code 1d}), the same syntax as every other duration of Headroom.
 * Booleans accept a bare flag ({@code --scale-down-enabled}) or a value ({@code --scale-down-enabled=false}).
 */
public final class AutoscalerFlags {

  private static final String BOOL = "0..1";

  /** Defaults of the options named after {@link AutoscalerOptions} fields: {@link AutoscalerOptions#FLAGS}. */
  static final class Defaults implements picocli.CommandLine.IDefaultValueProvider {
    @Override
    public String defaultValue(picocli.CommandLine.Model.ArgSpec arg) {
      if (arg instanceof picocli.CommandLine.Model.OptionSpec o && o.longestName().startsWith("--")) {
        return AutoscalerOptions.FLAGS.get(o.longestName().substring(2));
      }
      return null;
    }
  }

  @Option(names = AutoscalerSettings.FLAG_CLOUD_PROVIDER, paramLabel = "kwok|clusterapi",
      description = "run the autoscaler with this node provider (default: autoscaler off)")
  String cloudProvider;

  @Option(names = "--" + AutoscalerOptions.SCAN_INTERVAL, paramLabel = "DURATION",
      description = "how often the autoscaler runs, at least 1s (default: ${DEFAULT-VALUE})")
  String scanInterval;

  @Option(names = "--" + AutoscalerOptions.EXPANDER, paramLabel = "NAMES",
      description = "expander chain: least-waste, most-pods, least-nodes, price, priority, random (default: ${DEFAULT-VALUE})")
  String expander;

  @Option(names = "--" + AutoscalerOptions.MAX_NODES_TOTAL, paramLabel = "N",
      description = "upper bound of the cluster's node count, 0 = none (default: ${DEFAULT-VALUE})")
  String maxNodesTotal;

  @Option(names = "--" + AutoscalerOptions.MAX_NODES_PER_SCALEUP, paramLabel = "N",
      description = "most nodes one scale-up adds (default: ${DEFAULT-VALUE})")
  String maxNodesPerScaleUp;

  @Option(names = "--" + AutoscalerOptions.MAX_NODE_PROVISION_TIME, paramLabel = "DURATION",
      description = "a requested node not Ready by then backs its group off (default: ${DEFAULT-VALUE})")
  String maxNodeProvisionTime;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_ENABLED, arity = BOOL, fallbackValue = "true",
      paramLabel = "BOOL", description = "remove unneeded nodes (default: ${DEFAULT-VALUE})")
  boolean scaleDownEnabled;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, paramLabel = "DURATION",
      description = "how long a node must be unneeded before it is removed (default: ${DEFAULT-VALUE})")
  String scaleDownUnneededTime;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_UNREADY_TIME, paramLabel = "DURATION",
      description = "how long an unready node must be unneeded before it is removed (default: ${DEFAULT-VALUE})")
  String scaleDownUnreadyTime;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD, paramLabel = "DURATION",
      description = "no scale-down for this long after a scale-up (default: ${DEFAULT-VALUE})")
  String scaleDownDelayAfterAdd;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_DELETE, paramLabel = "DURATION",
      description = "no scale-down for this long after a node deletion (default: ${DEFAULT-VALUE})")
  String scaleDownDelayAfterDelete;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_FAILURE, paramLabel = "DURATION",
      description = "no scale-down for this long after a failed one (default: ${DEFAULT-VALUE})")
  String scaleDownDelayAfterFailure;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_UTILIZATION_THRESHOLD, paramLabel = "RATIO",
      description = "a node below this requested/allocatable ratio may be removed (default: ${DEFAULT-VALUE})")
  String scaleDownUtilizationThreshold;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_GPU_UTILIZATION_THRESHOLD, paramLabel = "RATIO",
      description = "the same for GPU nodes, on GPU requests (default: ${DEFAULT-VALUE})")
  String scaleDownGpuUtilizationThreshold;

  @Option(names = "--" + AutoscalerOptions.SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT, paramLabel = "N",
      description = "most non-empty nodes checked for removal per loop (default: ${DEFAULT-VALUE})")
  String scaleDownNonEmptyCandidatesCount;

  @Option(names = "--" + AutoscalerOptions.MAX_SCALE_DOWN_PARALLELISM, paramLabel = "N",
      description = "most nodes removed at once (default: ${DEFAULT-VALUE})")
  String maxScaleDownParallelism;

  @Option(names = "--" + AutoscalerOptions.MAX_DRAIN_PARALLELISM, paramLabel = "N",
      description = "most non-empty nodes drained at once (default: ${DEFAULT-VALUE})")
  String maxDrainParallelism;

  @Option(names = AutoscalerSettings.FLAG_MAX_GRACEFUL_TERMINATION_SEC, paramLabel = "SECONDS",
      defaultValue = "" + AutoscalerSettings.DEFAULT_MAX_GRACEFUL_TERMINATION_SEC,
      description = "longest grace period given to a pod evicted by scale-down (default: ${DEFAULT-VALUE})")
  int maxGracefulTerminationSec;

  @Option(names = "--" + AutoscalerOptions.SKIP_NODES_WITH_SYSTEM_PODS, arity = BOOL, fallbackValue = "true",
      paramLabel = "BOOL", description = "never remove a node with kube-system pods other than DaemonSet or mirror pods (default: ${DEFAULT-VALUE})")
  boolean skipNodesWithSystemPods;

  @Option(names = "--" + AutoscalerOptions.SKIP_NODES_WITH_LOCAL_STORAGE, arity = BOOL, fallbackValue = "true",
      paramLabel = "BOOL", description = "never remove a node with pods using emptyDir or hostPath (default: ${DEFAULT-VALUE})")
  boolean skipNodesWithLocalStorage;

  @Option(names = "--" + AutoscalerOptions.IGNORE_DAEMONSETS_UTILIZATION, arity = BOOL, fallbackValue = "true",
      paramLabel = "BOOL", description = "leave DaemonSet pods out of a node's utilisation (default: ${DEFAULT-VALUE})")
  boolean ignoreDaemonSetsUtilization;

  @Option(names = "--" + AutoscalerOptions.PROVISIONING_PASS, arity = BOOL, fallbackValue = "true", paramLabel = "BOOL",
      description = "scale up with one provisioning pass over every node group (for catalogues of hundreds of groups) instead of per-group estimation (default: ${DEFAULT-VALUE})")
  boolean provisioningPass;

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
   * Checks the flags that are worth checking even when the autoscaler is off (start-up validation).
   *
   * @throws IllegalArgumentException naming the flag in error
   */
  void validate() {
    try {
      Expanders.parse(expander);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + AutoscalerOptions.EXPANDER + ": " + e.getMessage());
    }
  }

  /**
   * The settings the flags describe.
   *
   * @param injection {@code --capacity-buffer-pod-injection-enabled}
   * @throws IllegalArgumentException naming the flag in error
   */
  AutoscalerSettings settings(boolean injection, String namespace) {
    validate();
    AutoscalerOptions.Builder b = AutoscalerOptions.builder()
        .set(AutoscalerOptions.SCAN_INTERVAL, scanInterval)
        .set(AutoscalerOptions.EXPANDER, expander)
        .set(AutoscalerOptions.MAX_NODES_TOTAL, maxNodesTotal)
        .set(AutoscalerOptions.MAX_NODES_PER_SCALEUP, maxNodesPerScaleUp)
        .set(AutoscalerOptions.SCALE_DOWN_ENABLED, String.valueOf(scaleDownEnabled))
        .set(AutoscalerOptions.MAX_NODE_PROVISION_TIME, maxNodeProvisionTime)
        .set(AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, scaleDownUnneededTime)
        .set(AutoscalerOptions.SCALE_DOWN_UNREADY_TIME, scaleDownUnreadyTime)
        .set(AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD, scaleDownDelayAfterAdd)
        .set(AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_DELETE, scaleDownDelayAfterDelete)
        .set(AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_FAILURE, scaleDownDelayAfterFailure)
        .set(AutoscalerOptions.SCALE_DOWN_UTILIZATION_THRESHOLD, scaleDownUtilizationThreshold)
        .set(AutoscalerOptions.SCALE_DOWN_GPU_UTILIZATION_THRESHOLD, scaleDownGpuUtilizationThreshold)
        .set(AutoscalerOptions.SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT, scaleDownNonEmptyCandidatesCount)
        .set(AutoscalerOptions.MAX_SCALE_DOWN_PARALLELISM, maxScaleDownParallelism)
        .set(AutoscalerOptions.MAX_DRAIN_PARALLELISM, maxDrainParallelism)
        .set(AutoscalerOptions.SKIP_NODES_WITH_SYSTEM_PODS, String.valueOf(skipNodesWithSystemPods))
        .set(AutoscalerOptions.SKIP_NODES_WITH_LOCAL_STORAGE, String.valueOf(skipNodesWithLocalStorage))
        .set(AutoscalerOptions.IGNORE_DAEMONSETS_UTILIZATION, String.valueOf(ignoreDaemonSetsUtilization))
        .set(AutoscalerOptions.PROVISIONING_PASS, String.valueOf(provisioningPass))
        .set(AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, bypassedSchedulerNames)
        .bufferPodInjectionEnabled(injection);
    AutoscalerOptions options = b.build();
    if (maxGracefulTerminationSec < 0) {
      throw new IllegalArgumentException(AutoscalerSettings.FLAG_MAX_GRACEFUL_TERMINATION_SEC + ": must be >= 0");
    }
    Duration delay;
    try {
      delay = GoDuration.parse(nodeDeleteDelayAfterTaint.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid value \"" + nodeDeleteDelayAfterTaint + "\" for " + AutoscalerSettings.FLAG_NODE_DELETE_DELAY_AFTER_TAINT + ": " + e.getMessage());
    }
    return new AutoscalerSettings(cloudProvider, options, namespace, nodeGroups, nodeGroupAutoDiscovery, delay,
        maxGracefulTerminationSec);
  }
}
