package dev.headroom.core.autoscaler;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Every autoscaler option in one record, with the upstream Cluster Autoscaler defaults (Headroom differs only
 * where the spec says so: buffer pod injection on, {@code realPodsFirst}).
 *
 * <p>Each option is one typed constant below ({@link AutoscalerOption}: key, name, type, default, description),
 * in record-component order, and {@link #ALL} lists them. The builder sets options through these constants (typed)
 * or by key or name from text; the CLI flags, the scenario file's {@code autoscaler} keys and {@code docs/options.md}
 * come from the same list. Adding an option means one constant, one record component and one line in
 * {@link Builder#build()}; {@code AutoscalerOptionsTest} fails when the three disagree.
 */
public record AutoscalerOptions(
    Duration scanInterval,
    boolean scaleDownEnabled,
    Duration scaleDownUnneededTime,
    Duration scaleDownUnreadyTime,
    Duration scaleDownDelayAfterAdd,
    Duration scaleDownDelayAfterDelete,
    Duration scaleDownDelayAfterFailure,
    double scaleDownUtilizationThreshold,
    double scaleDownGpuUtilizationThreshold,
    int scaleDownNonEmptyCandidatesCount,
    Duration unremovableNodeRecheckTimeout,
    int maxScaleDownParallelism,
    int maxDrainParallelism,
    boolean skipNodesWithSystemPods,
    boolean skipNodesWithLocalStorage,
    boolean skipNodesWithCustomControllerPods,
    boolean ignoreDaemonSetsUtilization,
    Duration maxNodeProvisionTime,
    Duration maxNodeStartupTime,
    int maxNodesTotal,
    int maxNodesPerScaleUp,
    String expander,
    Map<Integer, List<String>> expanderPriorities,
    Duration initialNodeGroupBackoffDuration,
    Duration maxNodeGroupBackoffDuration,
    Duration nodeGroupBackoffResetTimeout,
    int expendablePodsPriorityCutoff,
    Duration newPodScaleUpDelay,
    Duration newPodCooldown,
    int maxTotalUnreadyPercentage,
    int okTotalUnreadyCount,
    boolean scaleUpFromZero,
    boolean enforceNodeGroupMinSize,
    boolean bufferPodInjectionEnabled,
    int maxVirtualPodsPerBuffer,
    boolean realPodsFirst,
    boolean salvoScaleUp,
    long randomSeed,
    String bypassedSchedulerNames,
    boolean provisioningPass,
    int provisioningPassEstimateBudget,
    boolean standbyCapacity) {

  /** Default expander. */
  public static final String DEFAULT_EXPANDER = "least-waste";
  /** The shortest {@code scan-interval}: a shorter loop interval would spin (a zero interval never advances time). */
  public static final Duration MIN_SCAN_INTERVAL = Duration.ofSeconds(1);

  public static final AutoscalerOption<Duration> SCAN_INTERVAL = option("scan-interval", "scanInterval", OptionType.DURATION, Duration.ofSeconds(10),
      AutoscalerOptions::scanInterval, AutoscalerOptions::atLeastOneSecond,
      "how often the autoscaler runs, at least 1s");
  public static final AutoscalerOption<Boolean> SCALE_DOWN_ENABLED = option("scale-down-enabled", "scaleDownEnabled", OptionType.BOOLEAN, true,
      AutoscalerOptions::scaleDownEnabled,
      "remove unneeded nodes");
  public static final AutoscalerOption<Duration> SCALE_DOWN_UNNEEDED_TIME = option("scale-down-unneeded-time", "scaleDownUnneededTime", OptionType.DURATION, Duration.ofMinutes(10),
      AutoscalerOptions::scaleDownUnneededTime,
      "how long a node must be unneeded before it is removed");
  public static final AutoscalerOption<Duration> SCALE_DOWN_UNREADY_TIME = option("scale-down-unready-time", "scaleDownUnreadyTime", OptionType.DURATION, Duration.ofMinutes(20),
      AutoscalerOptions::scaleDownUnreadyTime,
      "how long an unready node must be unneeded before it is removed");
  public static final AutoscalerOption<Duration> SCALE_DOWN_DELAY_AFTER_ADD = option("scale-down-delay-after-add", "scaleDownDelayAfterAdd", OptionType.DURATION, Duration.ofMinutes(10),
      AutoscalerOptions::scaleDownDelayAfterAdd,
      "no scale-down for this long after a scale-up");
  public static final AutoscalerOption<Duration> SCALE_DOWN_DELAY_AFTER_DELETE = option("scale-down-delay-after-delete", "scaleDownDelayAfterDelete", OptionType.DURATION, Duration.ZERO,
      AutoscalerOptions::scaleDownDelayAfterDelete,
      "no scale-down for this long after a node deletion");
  public static final AutoscalerOption<Duration> SCALE_DOWN_DELAY_AFTER_FAILURE = option("scale-down-delay-after-failure", "scaleDownDelayAfterFailure", OptionType.DURATION, Duration.ofMinutes(3),
      AutoscalerOptions::scaleDownDelayAfterFailure,
      "no scale-down for this long after a failed one");
  public static final AutoscalerOption<Double> SCALE_DOWN_UTILIZATION_THRESHOLD = option("scale-down-utilization-threshold", "scaleDownUtilizationThreshold", OptionType.DOUBLE, 0.5,
      AutoscalerOptions::scaleDownUtilizationThreshold,
      "a node below this requested/allocatable ratio may be removed");
  public static final AutoscalerOption<Double> SCALE_DOWN_GPU_UTILIZATION_THRESHOLD = option("scale-down-gpu-utilization-threshold", "scaleDownGpuUtilizationThreshold", OptionType.DOUBLE, 0.5,
      AutoscalerOptions::scaleDownGpuUtilizationThreshold,
      "the same for GPU nodes, on GPU requests");
  public static final AutoscalerOption<Integer> SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT = option("scale-down-non-empty-candidates-count", "scaleDownNonEmptyCandidatesCount", OptionType.INT, 30,
      AutoscalerOptions::scaleDownNonEmptyCandidatesCount,
      "most non-empty nodes checked for removal per loop");
  public static final AutoscalerOption<Duration> UNREMOVABLE_NODE_RECHECK_TIMEOUT = option("unremovable-node-recheck-timeout", "unremovableNodeRecheckTimeout", OptionType.DURATION, Duration.ofMinutes(5),
      AutoscalerOptions::unremovableNodeRecheckTimeout,
      "how long a node found unremovable is not checked again");
  public static final AutoscalerOption<Integer> MAX_SCALE_DOWN_PARALLELISM = option("max-scale-down-parallelism", "maxScaleDownParallelism", OptionType.INT, 10,
      AutoscalerOptions::maxScaleDownParallelism,
      "most nodes removed at once");
  public static final AutoscalerOption<Integer> MAX_DRAIN_PARALLELISM = option("max-drain-parallelism", "maxDrainParallelism", OptionType.INT, 1,
      AutoscalerOptions::maxDrainParallelism,
      "most non-empty nodes drained at once");
  public static final AutoscalerOption<Boolean> SKIP_NODES_WITH_SYSTEM_PODS = option("skip-nodes-with-system-pods", "skipNodesWithSystemPods", OptionType.BOOLEAN, true,
      AutoscalerOptions::skipNodesWithSystemPods,
      "never remove a node with kube-system pods other than DaemonSet or mirror pods");
  public static final AutoscalerOption<Boolean> SKIP_NODES_WITH_LOCAL_STORAGE = option("skip-nodes-with-local-storage", "skipNodesWithLocalStorage", OptionType.BOOLEAN, true,
      AutoscalerOptions::skipNodesWithLocalStorage,
      "never remove a node with pods using emptyDir or hostPath");
  public static final AutoscalerOption<Boolean> SKIP_NODES_WITH_CUSTOM_CONTROLLER_PODS = option("skip-nodes-with-custom-controller-pods", "skipNodesWithCustomControllerPods", OptionType.BOOLEAN, true,
      AutoscalerOptions::skipNodesWithCustomControllerPods,
      "never remove a node with pods owned by a controller other than the built-in ones");
  public static final AutoscalerOption<Boolean> IGNORE_DAEMONSETS_UTILIZATION = option("ignore-daemonsets-utilization", "ignoreDaemonSetsUtilization", OptionType.BOOLEAN, false,
      AutoscalerOptions::ignoreDaemonSetsUtilization,
      "leave DaemonSet pods out of a node's utilisation");
  public static final AutoscalerOption<Duration> MAX_NODE_PROVISION_TIME = option("max-node-provision-time", "maxNodeProvisionTime", OptionType.DURATION, Duration.ofMinutes(15),
      AutoscalerOptions::maxNodeProvisionTime,
      "a requested node not Ready by then backs its group off");
  public static final AutoscalerOption<Duration> MAX_NODE_STARTUP_TIME = option("max-node-startup-time", "maxNodeStartupTime", OptionType.DURATION, Duration.ofMinutes(15),
      AutoscalerOptions::maxNodeStartupTime,
      "a registered node not Ready by then counts as unready");
  public static final AutoscalerOption<Integer> MAX_NODES_TOTAL = option("max-nodes-total", "maxNodesTotal", OptionType.INT, 0,
      AutoscalerOptions::maxNodesTotal,
      "upper bound of the cluster's node count, 0 = none");
  public static final AutoscalerOption<Integer> MAX_NODES_PER_SCALEUP = option("max-nodes-per-scaleup", "maxNodesPerScaleUp", OptionType.INT, 1000,
      AutoscalerOptions::maxNodesPerScaleUp,
      "most nodes one scale-up adds");
  public static final AutoscalerOption<String> EXPANDER = option("expander", "expander", OptionType.STRING, DEFAULT_EXPANDER,
      AutoscalerOptions::expander,
      "expander chain: least-waste, most-pods, least-nodes, price, priority, random");
  public static final AutoscalerOption<Map<Integer, List<String>>> EXPANDER_PRIORITIES = option("expander-priorities", "expanderPriorities", OptionType.PRIORITIES, Map.of(),
      AutoscalerOptions::expanderPriorities,
      "the priority expander's priorities: group name patterns by priority");
  public static final AutoscalerOption<Duration> INITIAL_NODE_GROUP_BACKOFF_DURATION = option("initial-node-group-backoff-duration", "initialNodeGroupBackoffDuration", OptionType.DURATION, Duration.ofMinutes(5),
      AutoscalerOptions::initialNodeGroupBackoffDuration,
      "first backoff of a group whose scale-up failed");
  public static final AutoscalerOption<Duration> MAX_NODE_GROUP_BACKOFF_DURATION = option("max-node-group-backoff-duration", "maxNodeGroupBackoffDuration", OptionType.DURATION, Duration.ofMinutes(30),
      AutoscalerOptions::maxNodeGroupBackoffDuration,
      "longest backoff of a group (the backoff doubles up to it)");
  public static final AutoscalerOption<Duration> NODE_GROUP_BACKOFF_RESET_TIMEOUT = option("node-group-backoff-reset-timeout", "nodeGroupBackoffResetTimeout", OptionType.DURATION, Duration.ofHours(3),
      AutoscalerOptions::nodeGroupBackoffResetTimeout,
      "a group without failures for this long starts from the initial backoff again");
  public static final AutoscalerOption<Integer> EXPENDABLE_PODS_PRIORITY_CUTOFF = option("expendable-pods-priority-cutoff", "expendablePodsPriorityCutoff", OptionType.INT, -10,
      AutoscalerOptions::expendablePodsPriorityCutoff,
      "pods below this priority never trigger a scale-up and do not keep a node");
  public static final AutoscalerOption<Duration> NEW_POD_SCALE_UP_DELAY = option("new-pod-scale-up-delay", "newPodScaleUpDelay", OptionType.DURATION, Duration.ZERO,
      AutoscalerOptions::newPodScaleUpDelay,
      "pods younger than this are not yet demand");
  /**
   * The Cluster Autoscaler's {@code unschedulablePodTimeBuffer} ({@code core/static_autoscaler.go}, {@code allPodsAreNew}),
   * a constant there and an option here so that a time-compressed run (the calibration harness) can scale it with
   * every other timer.
   */
  public static final AutoscalerOption<Duration> NEW_POD_COOLDOWN = option("new-pod-cooldown", "newPodCooldown", OptionType.DURATION, Duration.ofSeconds(2),
      AutoscalerOptions::newPodCooldown,
      "while every pending pod is younger than this, the loop waits an iteration for more (CA's fixed unschedulablePodTimeBuffer); not with bypassed-scheduler-names");
  public static final AutoscalerOption<Integer> MAX_TOTAL_UNREADY_PERCENTAGE = option("max-total-unready-percentage", "maxTotalUnreadyPercentage", OptionType.INT, 45,
      AutoscalerOptions::maxTotalUnreadyPercentage,
      "the cluster is unhealthy (no autoscaling) above this percentage of unready nodes");
  public static final AutoscalerOption<Integer> OK_TOTAL_UNREADY_COUNT = option("ok-total-unready-count", "okTotalUnreadyCount", OptionType.INT, 3,
      AutoscalerOptions::okTotalUnreadyCount,
      "this many unready nodes are always tolerated");
  public static final AutoscalerOption<Boolean> SCALE_UP_FROM_ZERO = option("scale-up-from-zero", "scaleUpFromZero", OptionType.BOOLEAN, true,
      AutoscalerOptions::scaleUpFromZero,
      "groups with no nodes may grow (from their template)");
  public static final AutoscalerOption<Boolean> ENFORCE_NODE_GROUP_MIN_SIZE = option("enforce-node-group-min-size", "enforceNodeGroupMinSize", OptionType.BOOLEAN, false,
      AutoscalerOptions::enforceNodeGroupMinSize,
      "grow groups below their minimum size to it");
  public static final AutoscalerOption<Boolean> BUFFER_POD_INJECTION_ENABLED = option("buffer-pod-injection-enabled", "bufferPodInjectionEnabled", OptionType.BOOLEAN, true,
      AutoscalerOptions::bufferPodInjectionEnabled,
      "add buffers' virtual pods to the simulation");
  public static final AutoscalerOption<Integer> MAX_VIRTUAL_PODS_PER_BUFFER = option("max-virtual-pods-per-buffer", "maxVirtualPodsPerBuffer", OptionType.INT, 10000,
      AutoscalerOptions::maxVirtualPodsPerBuffer,
      "most virtual pods one buffer injects");
  public static final AutoscalerOption<Boolean> REAL_PODS_FIRST = option("real-pods-first", "realPodsFirst", OptionType.BOOLEAN, true,
      AutoscalerOptions::realPodsFirst,
      "place real pending pods before buffers' virtual pods");
  public static final AutoscalerOption<Boolean> SALVO_SCALE_UP = option("salvo-scale-up", "salvoScaleUp", OptionType.BOOLEAN, false,
      AutoscalerOptions::salvoScaleUp,
      "grow every scale-up option in one loop, not only the expander's pick");
  public static final AutoscalerOption<Long> RANDOM_SEED = option("random-seed", "randomSeed", OptionType.LONG, 0L,
      AutoscalerOptions::randomSeed,
      "seed of the random expander");
  public static final AutoscalerOption<String> BYPASSED_SCHEDULER_NAMES = option("bypassed-scheduler-names", "bypassedSchedulerNames", OptionType.STRING, "",
      AutoscalerOptions::bypassedSchedulerNames,
      "schedulers whose not-yet-processed pods count as demand, comma-separated");
  public static final AutoscalerOption<Boolean> PROVISIONING_PASS = option("provisioning-pass", "provisioningPass", OptionType.BOOLEAN, true,
      AutoscalerOptions::provisioningPass,
      "the tiered scale-up planner: within provisioning-pass-estimate-budget CA's per-group estimates and one provisioning "
          + "pass over every node group both run and the pass's plan is kept only when strictly better; beyond it the pass "
          + "alone (catalogues of thousands of groups); false = CA's per-group estimation only");
  public static final AutoscalerOption<Integer> PROVISIONING_PASS_ESTIMATE_BUDGET = option("provisioning-pass-estimate-budget",
      "provisioningPassEstimateBudget", OptionType.INT, 50_000, AutoscalerOptions::provisioningPassEstimateBudget,
      AutoscalerOptions::notNegative,
      "while (groups that may grow) x (pods to help) is at most this, the per-group estimates run "
          + "too and the pass's plan is kept only when it helps every pod theirs helps and is strictly better by the "
          + "expander chain; 0 = the pass alone");

  public static final AutoscalerOption<Boolean> STANDBY_CAPACITY = option("standby-capacity", "standbyCapacity", OptionType.BOOLEAN, false,
      AutoscalerOptions::standbyCapacity,
      "act on buffers of the buffer.headroom.dev/standby-capacity strategy: keep their chunks on suspended nodes of "
          + "groups with spec.standby (the node provider must be able to suspend nodes)");

  /** Every option, in record-component order. */
  public static final List<AutoscalerOption<?>> ALL = List.of(
      SCAN_INTERVAL,
      SCALE_DOWN_ENABLED,
      SCALE_DOWN_UNNEEDED_TIME,
      SCALE_DOWN_UNREADY_TIME,
      SCALE_DOWN_DELAY_AFTER_ADD,
      SCALE_DOWN_DELAY_AFTER_DELETE,
      SCALE_DOWN_DELAY_AFTER_FAILURE,
      SCALE_DOWN_UTILIZATION_THRESHOLD,
      SCALE_DOWN_GPU_UTILIZATION_THRESHOLD,
      SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT,
      UNREMOVABLE_NODE_RECHECK_TIMEOUT,
      MAX_SCALE_DOWN_PARALLELISM,
      MAX_DRAIN_PARALLELISM,
      SKIP_NODES_WITH_SYSTEM_PODS,
      SKIP_NODES_WITH_LOCAL_STORAGE,
      SKIP_NODES_WITH_CUSTOM_CONTROLLER_PODS,
      IGNORE_DAEMONSETS_UTILIZATION,
      MAX_NODE_PROVISION_TIME,
      MAX_NODE_STARTUP_TIME,
      MAX_NODES_TOTAL,
      MAX_NODES_PER_SCALEUP,
      EXPANDER,
      EXPANDER_PRIORITIES,
      INITIAL_NODE_GROUP_BACKOFF_DURATION,
      MAX_NODE_GROUP_BACKOFF_DURATION,
      NODE_GROUP_BACKOFF_RESET_TIMEOUT,
      EXPENDABLE_PODS_PRIORITY_CUTOFF,
      NEW_POD_SCALE_UP_DELAY,
      NEW_POD_COOLDOWN,
      MAX_TOTAL_UNREADY_PERCENTAGE,
      OK_TOTAL_UNREADY_COUNT,
      SCALE_UP_FROM_ZERO,
      ENFORCE_NODE_GROUP_MIN_SIZE,
      BUFFER_POD_INJECTION_ENABLED,
      MAX_VIRTUAL_PODS_PER_BUFFER,
      REAL_PODS_FIRST,
      SALVO_SCALE_UP,
      RANDOM_SEED,
      BYPASSED_SCHEDULER_NAMES,
      PROVISIONING_PASS,
      PROVISIONING_PASS_ESTIMATE_BUDGET,
      STANDBY_CAPACITY);

  /** Options by name and by key, each in the spelling {@link #normalise} gives. */
  private static final Map<String, AutoscalerOption<?>> BY_NAME = byName();

  /** The defaults. */
  public static final AutoscalerOptions DEFAULTS = new Builder().build();

  public AutoscalerOptions {
    expanderPriorities = expanderPriorities == null ? Map.of() : Map.copyOf(expanderPriorities);
    expander = expander == null || expander.isBlank() ? DEFAULT_EXPANDER : expander;
    bypassedSchedulerNames = bypassedSchedulerNames == null ? "" : bypassedSchedulerNames.trim();
  }

  /** The names in {@link #bypassedSchedulerNames}. */
  public Set<String> bypassedSchedulers() {
    return PendingDemand.schedulerNames(bypassedSchedulerNames);
  }

  /**
   * The option with this key ({@code scan-interval}) or name ({@code scanInterval}); a dash followed by a letter
   * stands for that letter in upper case, so {@code max-nodes-per-scale-up} is {@code maxNodesPerScaleUp} too.
   */
  public static Optional<AutoscalerOption<?>> named(String keyOrName) {
    return Optional.ofNullable(BY_NAME.get(normalise(keyOrName)));
  }

  /** A builder starting from these values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** A builder starting from {@link #DEFAULTS}. */
  public static Builder builder() {
    return new Builder();
  }

  /** Mutable builder: {@link #set(AutoscalerOption, Object)} for code, {@link #set(String, String)} for text. */
  public static final class Builder {
    private final Map<AutoscalerOption<?>, Object> values = new IdentityHashMap<>();

    private Builder() {
      for (AutoscalerOption<?> o : ALL) {
        values.put(o, o.defaultValue());
      }
    }

    private Builder(AutoscalerOptions from) {
      for (AutoscalerOption<?> o : ALL) {
        values.put(o, o.get(from));
      }
    }

    /**
     * Sets one option.
     *
     * @throws IllegalArgumentException when the value is outside the option's limits
     */
    public <T> Builder set(AutoscalerOption<T> option, T value) {
      try {
        values.put(option, option.checked(value));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("invalid value \"" + value + "\" for --" + option.key() + ": " + e.getMessage());
      }
      return this;
    }

    /**
     * Sets an option from its key (kebab-case flag name) or name (camelCase) and a text value.
     *
     * @throws IllegalArgumentException for unknown names or malformed values
     */
    public Builder set(String keyOrName, String text) {
      AutoscalerOption<?> option = named(keyOrName).orElseThrow(() -> new IllegalArgumentException("unknown option --" + keyOrName));
      return setText(option, text);
    }

    private <T> Builder setText(AutoscalerOption<T> option, String text) {
      try {
        values.put(option, option.checked(option.type().parse(text)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("invalid value \"" + text + "\" for --" + option.key() + ": " + e.getMessage());
      }
      return this;
    }

    private <T> T value(AutoscalerOption<T> option) {
      return option.type().cast(values.get(option));
    }

    /** The options. */
    public AutoscalerOptions build() {
      return new AutoscalerOptions(
          value(SCAN_INTERVAL),
          value(SCALE_DOWN_ENABLED),
          value(SCALE_DOWN_UNNEEDED_TIME),
          value(SCALE_DOWN_UNREADY_TIME),
          value(SCALE_DOWN_DELAY_AFTER_ADD),
          value(SCALE_DOWN_DELAY_AFTER_DELETE),
          value(SCALE_DOWN_DELAY_AFTER_FAILURE),
          value(SCALE_DOWN_UTILIZATION_THRESHOLD),
          value(SCALE_DOWN_GPU_UTILIZATION_THRESHOLD),
          value(SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT),
          value(UNREMOVABLE_NODE_RECHECK_TIMEOUT),
          value(MAX_SCALE_DOWN_PARALLELISM),
          value(MAX_DRAIN_PARALLELISM),
          value(SKIP_NODES_WITH_SYSTEM_PODS),
          value(SKIP_NODES_WITH_LOCAL_STORAGE),
          value(SKIP_NODES_WITH_CUSTOM_CONTROLLER_PODS),
          value(IGNORE_DAEMONSETS_UTILIZATION),
          value(MAX_NODE_PROVISION_TIME),
          value(MAX_NODE_STARTUP_TIME),
          value(MAX_NODES_TOTAL),
          value(MAX_NODES_PER_SCALEUP),
          value(EXPANDER),
          value(EXPANDER_PRIORITIES),
          value(INITIAL_NODE_GROUP_BACKOFF_DURATION),
          value(MAX_NODE_GROUP_BACKOFF_DURATION),
          value(NODE_GROUP_BACKOFF_RESET_TIMEOUT),
          value(EXPENDABLE_PODS_PRIORITY_CUTOFF),
          value(NEW_POD_SCALE_UP_DELAY),
          value(NEW_POD_COOLDOWN),
          value(MAX_TOTAL_UNREADY_PERCENTAGE),
          value(OK_TOTAL_UNREADY_COUNT),
          value(SCALE_UP_FROM_ZERO),
          value(ENFORCE_NODE_GROUP_MIN_SIZE),
          value(BUFFER_POD_INJECTION_ENABLED),
          value(MAX_VIRTUAL_PODS_PER_BUFFER),
          value(REAL_PODS_FIRST),
          value(SALVO_SCALE_UP),
          value(RANDOM_SEED),
          value(BYPASSED_SCHEDULER_NAMES),
          value(PROVISIONING_PASS),
          value(PROVISIONING_PASS_ESTIMATE_BUDGET),
          value(STANDBY_CAPACITY));
    }
  }

  private static <T> AutoscalerOption<T> option(String key, String name, OptionType<T> type, T defaultValue,
      Function<AutoscalerOptions, T> accessor, String description) {
    return new AutoscalerOption<>(key, name, type, defaultValue, accessor, v -> { }, description);
  }

  private static <T> AutoscalerOption<T> option(String key, String name, OptionType<T> type, T defaultValue,
      Function<AutoscalerOptions, T> accessor, Consumer<T> check, String description) {
    return new AutoscalerOption<>(key, name, type, defaultValue, accessor, check, description);
  }

  private static void atLeastOneSecond(Duration d) {
    if (d.compareTo(MIN_SCAN_INTERVAL) < 0) {
      throw new IllegalArgumentException("must be at least 1s (one autoscaler loop per interval)");
    }
  }

  private static void notNegative(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("must be 0 or more");
    }
  }

  private static Map<String, AutoscalerOption<?>> byName() {
    Map<String, AutoscalerOption<?>> m = new LinkedHashMap<>();
    for (AutoscalerOption<?> o : ALL) {
      m.put(o.name(), o);
      m.put(normalise(o.key()), o);
    }
    return Map.copyOf(m);
  }

  /** {@code name} with every dash dropped and the letter after it in upper case. */
  static String normalise(String name) {
    StringBuilder sb = new StringBuilder();
    boolean up = false;
    for (char c : name.toCharArray()) {
      if (c == '-') {
        up = true;
      } else {
        sb.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return sb.toString();
  }
}
