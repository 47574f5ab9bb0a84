package dev.headroom.cli;

import dev.headroom.controller.autoscaling.AutoscalerSettings;
import dev.headroom.core.autoscaler.AutoscalerOption;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.OptionType;
import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.nodegroup.GoDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The autoscaler flags of {@code headroom run} (a picocli mixin; {@code headroom plan} has the option flags too), named as the upstream Cluster Autoscaler's. Without
 * {@code --cloud-provider} the autoscaler does not run. Durations use the Go syntax of the upstream flags
 * ({@code 10s}, {@code 15m}, {@code 1h30m}; also {@code 1d}), the same syntax as every other duration of Headroom.
 * Booleans accept a bare flag ({@code --scale-down-enabled}) or a value ({@code --scale-down-enabled=false}). The flags
 * that set an autoscaler option are made from the option ({@link #add}); the others are declared here.
 */
public final class AutoscalerFlags {

  /** The options {@code headroom run} has a flag for (key, type, default and description come from each option). */
  public static final List<AutoscalerOption<?>> RUN = List.of(
      AutoscalerOptions.SCAN_INTERVAL,
      AutoscalerOptions.EXPANDER,
      AutoscalerOptions.MAX_NODES_TOTAL,
      AutoscalerOptions.MAX_NODES_PER_SCALEUP,
      AutoscalerOptions.MAX_NODE_PROVISION_TIME,
      AutoscalerOptions.MAX_NODE_STARTUP_TIME,
      AutoscalerOptions.INITIAL_NODE_GROUP_BACKOFF_DURATION,
      AutoscalerOptions.MAX_NODE_GROUP_BACKOFF_DURATION,
      AutoscalerOptions.NODE_GROUP_BACKOFF_RESET_TIMEOUT,
      AutoscalerOptions.SCALE_DOWN_ENABLED,
      AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME,
      AutoscalerOptions.SCALE_DOWN_UNREADY_TIME,
      AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD,
      AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_DELETE,
      AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_FAILURE,
      AutoscalerOptions.SCALE_DOWN_UTILIZATION_THRESHOLD,
      AutoscalerOptions.SCALE_DOWN_GPU_UTILIZATION_THRESHOLD,
      AutoscalerOptions.SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT,
      AutoscalerOptions.UNREMOVABLE_NODE_RECHECK_TIMEOUT,
      AutoscalerOptions.MAX_SCALE_DOWN_PARALLELISM,
      AutoscalerOptions.MAX_DRAIN_PARALLELISM,
      AutoscalerOptions.SKIP_NODES_WITH_SYSTEM_PODS,
      AutoscalerOptions.SKIP_NODES_WITH_LOCAL_STORAGE,
      AutoscalerOptions.IGNORE_DAEMONSETS_UTILIZATION,
      AutoscalerOptions.SALVO_SCALE_UP,
      AutoscalerOptions.PROVISIONING_PASS,
      AutoscalerOptions.PROVISIONING_PASS_ESTIMATE_BUDGET,
      AutoscalerOptions.BYPASSED_SCHEDULER_NAMES,
      AutoscalerOptions.NEW_POD_COOLDOWN,
      AutoscalerOptions.STANDBY_CAPACITY);

  /**
   * The options {@code headroom plan} has a flag for: the same list as {@link #RUN}, so that a script can pass
   * {@code plan} the flags it gives {@code run}. Those that have no effect on one dry-run iteration
   * ({@code scan-interval}: there is no next loop; the scale-down delays after an add, delete or failure: a dry run
   * has none before it) are accepted and checked all the same.
   */
  static final List<AutoscalerOption<?>> PLAN = RUN;

  /** Adds the {@link #RUN} flags to {@code headroom run}. */
  public static final class RunFlags implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
      add(command, RUN);
      return command;
    }
  }

  /** Adds the {@link #PLAN} flags to {@code headroom plan}. */
  public static final class PlanFlags implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
      add(command, PLAN);
      return command;
    }
  }

  @Spec(Spec.Target.MIXEE) CommandSpec command;

  @Option(names = AutoscalerSettings.FLAG_CLOUD_PROVIDER, paramLabel = "kwok|clusterapi",
      description = "run the autoscaler with this node provider (default: autoscaler off)")
  String cloudProvider;

  @Option(names = AutoscalerSettings.FLAG_MAX_GRACEFUL_TERMINATION_SEC, paramLabel = "SECONDS",
      defaultValue = "" + AutoscalerSettings.DEFAULT_MAX_GRACEFUL_TERMINATION_SEC,
      description = "longest grace period given to a pod evicted by scale-down (default: ${DEFAULT-VALUE})")
  int maxGracefulTerminationSec;

  @Option(names = AutoscalerSettings.FLAG_NODE_GROUPS, paramLabel = "FILE",
      description = "kwok: NodeGroup documents; without it ConfigMap headroom-node-groups (key nodegroups.yaml) in the lease namespace")
  Path nodeGroups;

  @Option(names = AutoscalerSettings.FLAG_NODE_GROUP_AUTO_DISCOVERY, paramLabel = "SPEC",
      description = "clusterapi: clusterapi:namespace=NS,clusterName=NAME,LABEL=VALUE (default: every annotated MachineDeployment/MachineSet)")
  String nodeGroupAutoDiscovery;

  @Option(names = AutoscalerSettings.FLAG_NODE_DELETE_DELAY_AFTER_TAINT, paramLabel = "DURATION", defaultValue = "5s",
      description = "wait between evicting a node's pods and deleting it (default: ${DEFAULT-VALUE})")
  String nodeDeleteDelayAfterTaint;

  /** {@code --standby-capacity}: the buffer controller processes standby buffers too, the autoscaler keeps them. */
  boolean standbyCapacity() {
    return Boolean.parseBoolean(text(command, AutoscalerOptions.STANDBY_CAPACITY));
  }

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
      Expanders.parse(text(command, AutoscalerOptions.EXPANDER));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(flag(AutoscalerOptions.EXPANDER) + ": " + e.getMessage());
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
    AutoscalerOptions.Builder b = apply(command, RUN, AutoscalerOptions.builder())
        .set(AutoscalerOptions.BUFFER_POD_INJECTION_ENABLED, injection);
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

  /** The flag of an option: {@code --} and its key. */
  static String flag(AutoscalerOption<?> option) {
    return "--" + option.key();
  }

  /** Adds one flag per option to {@code command}, with the option's type, default and description. */
  static void add(CommandSpec command, List<AutoscalerOption<?>> options) {
    for (AutoscalerOption<?> o : options) {
      String defaultText = o.defaultText();
      OptionSpec.Builder b = OptionSpec.builder(flag(o))
          .paramLabel(o.type().label())
          .defaultValue(defaultText)
          .description(o.description() + " (default: " + (defaultText.isEmpty() ? "none" : defaultText) + ")");
      if (o.type() == OptionType.BOOLEAN) {
        b.type(boolean.class).arity("0..1").fallbackValue("true");
      } else {
        b.type(String.class);
      }
      command.addOption(b.build());
    }
  }

  /** The text of an option's flag after parsing (given or its default). */
  static String text(CommandSpec command, AutoscalerOption<?> option) {
    OptionSpec spec = command.findOption(flag(option));
    if (spec == null) {
      throw new IllegalStateException(flag(option) + " is not a flag of " + command.qualifiedName());
    }
    Object value = spec.getValue();
    return value == null ? option.defaultText() : String.valueOf(value);
  }

  /**
   * Sets {@code options} from their flags' values on {@code command}.
   *
   * @throws IllegalArgumentException naming the flag whose value is malformed
   */
  static AutoscalerOptions.Builder apply(CommandSpec command, List<AutoscalerOption<?>> options, AutoscalerOptions.Builder builder) {
    for (AutoscalerOption<?> o : options) {
      builder.set(o.key(), text(command, o));
    }
    return builder;
  }
}
