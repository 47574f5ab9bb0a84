package dev.headroom.core.autoscaler;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every autoscaler option in one record, with the upstream Cluster Autoscaler defaults (Headroom differs only
 * where the spec says so: buffer pod injection on, {@code realPodsFirst}). The CLI flag of an option is its
 * name in kebab-case; {@link #FLAGS} maps each flag to its default text.
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
    Map<Integer, java.util.List<String>> expanderPriorities,
    Duration initialNodeGroupBackoffDuration,
    Duration maxNodeGroupBackoffDuration,
    Duration nodeGroupBackoffResetTimeout,
    int expendablePodsPriorityCutoff,
    Duration newPodScaleUpDelay,
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
    boolean provisioningPass) {

  /** Flag names (kebab-case of the option names; CA spelling where CA has the flag). */
  public static final String SCAN_INTERVAL = "scan-interval";
  public static final String SCALE_DOWN_ENABLED = "scale-down-enabled";
  public static final String SCALE_DOWN_UNNEEDED_TIME = "scale-down-unneeded-time";
  public static final String SCALE_DOWN_UNREADY_TIME = "scale-down-unready-time";
  public static final String SCALE_DOWN_DELAY_AFTER_ADD = "scale-down-delay-after-add";
  public static final String SCALE_DOWN_DELAY_AFTER_DELETE = "scale-down-delay-after-delete";
  public static final String SCALE_DOWN_DELAY_AFTER_FAILURE = "scale-down-delay-after-failure";
  public static final String SCALE_DOWN_UTILIZATION_THRESHOLD = "scale-down-utilization-threshold";
  public static final String SCALE_DOWN_GPU_UTILIZATION_THRESHOLD = "scale-down-gpu-utilization-threshold";
  public static final String SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT = "scale-down-non-empty-candidates-count";
  public static final String UNREMOVABLE_NODE_RECHECK_TIMEOUT = "unremovable-node-recheck-timeout";
  public static final String MAX_SCALE_DOWN_PARALLELISM = "max-scale-down-parallelism";
  public static final String MAX_DRAIN_PARALLELISM = "max-drain-parallelism";
  public static final String SKIP_NODES_WITH_SYSTEM_PODS = "skip-nodes-with-system-pods";
  public static final String SKIP_NODES_WITH_LOCAL_STORAGE = "skip-nodes-with-local-storage";
  public static final String SKIP_NODES_WITH_CUSTOM_CONTROLLER_PODS = "skip-nodes-with-custom-controller-pods";
  public static final String IGNORE_DAEMONSETS_UTILIZATION = "ignore-daemonsets-utilization";
  public static final String MAX_NODE_PROVISION_TIME = "max-node-provision-time";
  public static final String MAX_NODE_STARTUP_TIME = "max-node-startup-time";
  public static final String MAX_NODES_TOTAL = "max-nodes-total";
  public static final String MAX_NODES_PER_SCALEUP = "max-nodes-per-scaleup";
  public static final String EXPANDER = "expander";
  public static final String INITIAL_NODE_GROUP_BACKOFF_DURATION = "initial-node-group-backoff-duration";
  public static final String MAX_NODE_GROUP_BACKOFF_DURATION = "max-node-group-backoff-duration";
  public static final String NODE_GROUP_BACKOFF_RESET_TIMEOUT = "node-group-backoff-reset-timeout";
  public static final String EXPENDABLE_PODS_PRIORITY_CUTOFF = "expendable-pods-priority-cutoff";
  public static final String NEW_POD_SCALE_UP_DELAY = "new-pod-scale-up-delay";
  public static final String MAX_TOTAL_UNREADY_PERCENTAGE = "max-total-unready-percentage";
  public static final String OK_TOTAL_UNREADY_COUNT = "ok-total-unready-count";
  public static final String SCALE_UP_FROM_ZERO = "scale-up-from-zero";
  public static final String ENFORCE_NODE_GROUP_MIN_SIZE = "enforce-node-group-min-size";
  public static final String BUFFER_POD_INJECTION_ENABLED = "buffer-pod-injection-enabled";
  public static final String MAX_VIRTUAL_PODS_PER_BUFFER = "max-virtual-pods-per-buffer";
  public static final String REAL_PODS_FIRST = "real-pods-first";
  public static final String SALVO_SCALE_UP = "salvo-scale-up";
  public static final String RANDOM_SEED = "random-seed";
  /** Upstream flag: schedulers whose not-yet-processed pods count as demand (comma-separated). */
  public static final String BYPASSED_SCHEDULER_NAMES = "bypassed-scheduler-names";
  /**
   * Headroom: scale up with the one provisioning pass over every group ({@link OnePassScaleUp}, for catalogues of
   * hundreds or thousands of groups) instead of CA's per-group estimation ({@link PerGroupEstimates}, the default).
   */
  public static final String PROVISIONING_PASS = "provisioning-pass";

  /** Default expander. */
  public static final String DEFAULT_EXPANDER = "least-waste";
  /** The shortest {@code scan-interval}: a shorter loop interval would spin (a zero interval never advances time). */
  public static final Duration MIN_SCAN_INTERVAL = Duration.ofSeconds(1);

  /** The defaults. */
  public static final AutoscalerOptions DEFAULTS =
      new AutoscalerOptions(
          Duration.ofSeconds(10),
          true,
          Duration.ofMinutes(10),
          Duration.ofMinutes(20),
          Duration.ofMinutes(10),
          Duration.ZERO,
          Duration.ofMinutes(3),
          0.5,
          0.5,
          30,
          Duration.ofMinutes(5),
          10,
          1,
          true,
          true,
          true,
          false,
          Duration.ofMinutes(15),
          Duration.ofMinutes(15),
          0,
          1000,
          DEFAULT_EXPANDER,
          Map.of(),
          Duration.ofMinutes(5),
          Duration.ofMinutes(30),
          Duration.ofHours(3),
          -10,
          Duration.ZERO,
          45,
          3,
          true,
          false,
          true,
          10000,
          true,
          false,
          0L,
          "",
          false);

  /** Flag name → default value text, for help output and documentation; generated from {@link #DEFAULTS}. */
  public static final Map<String, String> FLAGS = flags(DEFAULTS);

  public AutoscalerOptions {
    expanderPriorities = expanderPriorities == null ? Map.of() : Map.copyOf(expanderPriorities);
    expander = expander == null || expander.isBlank() ? DEFAULT_EXPANDER : expander;
    bypassedSchedulerNames = bypassedSchedulerNames == null ? "" : bypassedSchedulerNames.trim();
  }

  /** The names in {@link #bypassedSchedulerNames}. */
  public java.util.Set<String> bypassedSchedulers() {
    return PendingDemand.schedulerNames(bypassedSchedulerNames);
  }

  private static Map<String, String> flags(AutoscalerOptions o) {
    Map<String, String> m = new TreeMap<>();
    m.put(SCAN_INTERVAL, fmt(o.scanInterval));
    m.put(SCALE_DOWN_ENABLED, "" + o.scaleDownEnabled);
    m.put(SCALE_DOWN_UNNEEDED_TIME, fmt(o.scaleDownUnneededTime));
    m.put(SCALE_DOWN_UNREADY_TIME, fmt(o.scaleDownUnreadyTime));
    m.put(SCALE_DOWN_DELAY_AFTER_ADD, fmt(o.scaleDownDelayAfterAdd));
    m.put(SCALE_DOWN_DELAY_AFTER_DELETE, fmt(o.scaleDownDelayAfterDelete));
    m.put(SCALE_DOWN_DELAY_AFTER_FAILURE, fmt(o.scaleDownDelayAfterFailure));
    m.put(SCALE_DOWN_UTILIZATION_THRESHOLD, "" + o.scaleDownUtilizationThreshold);
    m.put(SCALE_DOWN_GPU_UTILIZATION_THRESHOLD, "" + o.scaleDownGpuUtilizationThreshold);
    m.put(SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT, "" + o.scaleDownNonEmptyCandidatesCount);
    m.put(UNREMOVABLE_NODE_RECHECK_TIMEOUT, fmt(o.unremovableNodeRecheckTimeout));
    m.put(MAX_SCALE_DOWN_PARALLELISM, "" + o.maxScaleDownParallelism);
    m.put(MAX_DRAIN_PARALLELISM, "" + o.maxDrainParallelism);
    m.put(SKIP_NODES_WITH_SYSTEM_PODS, "" + o.skipNodesWithSystemPods);
    m.put(SKIP_NODES_WITH_LOCAL_STORAGE, "" + o.skipNodesWithLocalStorage);
    m.put(SKIP_NODES_WITH_CUSTOM_CONTROLLER_PODS, "" + o.skipNodesWithCustomControllerPods);
    m.put(IGNORE_DAEMONSETS_UTILIZATION, "" + o.ignoreDaemonSetsUtilization);
    m.put(MAX_NODE_PROVISION_TIME, fmt(o.maxNodeProvisionTime));
    m.put(MAX_NODE_STARTUP_TIME, fmt(o.maxNodeStartupTime));
    m.put(MAX_NODES_TOTAL, "" + o.maxNodesTotal);
    m.put(MAX_NODES_PER_SCALEUP, "" + o.maxNodesPerScaleUp);
    m.put(EXPANDER, o.expander);
    m.put(INITIAL_NODE_GROUP_BACKOFF_DURATION, fmt(o.initialNodeGroupBackoffDuration));
    m.put(MAX_NODE_GROUP_BACKOFF_DURATION, fmt(o.maxNodeGroupBackoffDuration));
    m.put(NODE_GROUP_BACKOFF_RESET_TIMEOUT, fmt(o.nodeGroupBackoffResetTimeout));
    m.put(EXPENDABLE_PODS_PRIORITY_CUTOFF, "" + o.expendablePodsPriorityCutoff);
    m.put(NEW_POD_SCALE_UP_DELAY, fmt(o.newPodScaleUpDelay));
    m.put(MAX_TOTAL_UNREADY_PERCENTAGE, "" + o.maxTotalUnreadyPercentage);
    m.put(OK_TOTAL_UNREADY_COUNT, "" + o.okTotalUnreadyCount);
    m.put(SCALE_UP_FROM_ZERO, "" + o.scaleUpFromZero);
    m.put(ENFORCE_NODE_GROUP_MIN_SIZE, "" + o.enforceNodeGroupMinSize);
    m.put(BUFFER_POD_INJECTION_ENABLED, "" + o.bufferPodInjectionEnabled);
    m.put(MAX_VIRTUAL_PODS_PER_BUFFER, "" + o.maxVirtualPodsPerBuffer);
    m.put(REAL_PODS_FIRST, "" + o.realPodsFirst);
    m.put(SALVO_SCALE_UP, "" + o.salvoScaleUp);
    m.put(RANDOM_SEED, "" + o.randomSeed);
    m.put(BYPASSED_SCHEDULER_NAMES, o.bypassedSchedulerNames);
    m.put(PROVISIONING_PASS, "" + o.provisioningPass);
    return Map.copyOf(m);
  }

  private static String fmt(Duration d) {
    return dev.headroom.core.nodegroup.GoDuration.format(d);
  }

  /** A builder starting from these values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** A builder starting from {@link #DEFAULTS}. */
  public static Builder builder() {
    return new Builder(DEFAULTS);
  }

  /**
   * Mutable builder; {@link #set(String, String)} applies one flag by name (used by the CLI and config
   * files), the typed setters are for code and tests.
   */
  public static final class Builder {
    private final Object[] v;

    private Builder(AutoscalerOptions o) {
      var comps = AutoscalerOptions.class.getRecordComponents();
      v = new Object[comps.length];
      for (int i = 0; i < comps.length; i++) {
        try {
          v[i] = comps[i].getAccessor().invoke(o);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    }

    /**
     * Sets an option from its flag name (kebab-case) or option name (camelCase) and a text value.
     *
     * @throws IllegalArgumentException for unknown names or malformed values
     */
    public Builder set(String name, String value) {
      String camel = camel(name);
      var comps = AutoscalerOptions.class.getRecordComponents();
      for (int i = 0; i < comps.length; i++) {
        if (comps[i].getName().equals(camel)) {
          Class<?> t = comps[i].getType();
          try {
            if (t == Duration.class) {
              Duration d = dev.headroom.core.nodegroup.GoDuration.parse(value.trim());
              if (camel.equals("scanInterval") && d.compareTo(MIN_SCAN_INTERVAL) < 0) {
                throw new IllegalArgumentException("must be at least 1s (one autoscaler loop per interval)");
              }
              v[i] = d;
            } else if (t == boolean.class) {
              if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("must be true or false");
              }
              v[i] = Boolean.parseBoolean(value);
            } else if (t == int.class) {
              try {
                v[i] = Integer.parseInt(value.trim());
              } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected an integer between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
              }
            } else if (t == long.class) {
              try {
                v[i] = Long.parseLong(value.trim());
              } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected an integer");
              }
            } else if (t == double.class) {
              double d;
              try {
                d = Double.parseDouble(value.trim());
              } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number");
              }
              if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("expected a finite number");
              }
              v[i] = d;
            } else if (t == String.class) {
              v[i] = value.trim();
            } else {
              throw new IllegalArgumentException("cannot be set from text");
            }
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid value \"" + value + "\" for --" + kebab(camel) + ": " + e.getMessage());
          }
          return this;
        }
      }
      throw new IllegalArgumentException("unknown option --" + name);
    }

    private Builder put(String camel, Object value) {
      var comps = AutoscalerOptions.class.getRecordComponents();
      for (int i = 0; i < comps.length; i++) {
        if (comps[i].getName().equals(camel)) {
          v[i] = value;
          return this;
        }
      }
      throw new IllegalArgumentException(camel);
    }

    public Builder scaleDownEnabled(boolean b) { return put("scaleDownEnabled", b); }
    public Builder scaleDownUnneededTime(Duration d) { return put("scaleDownUnneededTime", d); }
    public Builder scaleDownUnreadyTime(Duration d) { return put("scaleDownUnreadyTime", d); }
    public Builder scaleDownDelayAfterAdd(Duration d) { return put("scaleDownDelayAfterAdd", d); }
    public Builder scaleDownDelayAfterFailure(Duration d) { return put("scaleDownDelayAfterFailure", d); }
    public Builder scaleDownUtilizationThreshold(double d) { return put("scaleDownUtilizationThreshold", d); }
    public Builder maxScaleDownParallelism(int n) { return put("maxScaleDownParallelism", n); }
    public Builder maxDrainParallelism(int n) { return put("maxDrainParallelism", n); }
    public Builder maxNodeProvisionTime(Duration d) { return put("maxNodeProvisionTime", d); }
    public Builder maxNodesTotal(int n) { return put("maxNodesTotal", n); }
    public Builder maxNodesPerScaleUp(int n) { return put("maxNodesPerScaleUp", n); }
    public Builder expander(String s) { return put("expander", s); }
    public Builder expanderPriorities(Map<Integer, java.util.List<String>> m) { return put("expanderPriorities", m); }
    public Builder expendablePodsPriorityCutoff(int n) { return put("expendablePodsPriorityCutoff", n); }
    public Builder bufferPodInjectionEnabled(boolean b) { return put("bufferPodInjectionEnabled", b); }
    public Builder maxVirtualPodsPerBuffer(int n) { return put("maxVirtualPodsPerBuffer", n); }
    public Builder realPodsFirst(boolean b) { return put("realPodsFirst", b); }
    public Builder randomSeed(long s) { return put("randomSeed", s); }
    public Builder salvoScaleUp(boolean b) { return put("salvoScaleUp", b); }
    public Builder scaleDownDelayAfterDelete(Duration d) { return put("scaleDownDelayAfterDelete", d); }
    public Builder maxNodeStartupTime(Duration d) { return put("maxNodeStartupTime", d); }
    public Builder unremovableNodeRecheckTimeout(Duration d) { return put("unremovableNodeRecheckTimeout", d); }
    public Builder skipNodesWithLocalStorage(boolean b) { return put("skipNodesWithLocalStorage", b); }
    public Builder skipNodesWithSystemPods(boolean b) { return put("skipNodesWithSystemPods", b); }
    public Builder enforceNodeGroupMinSize(boolean b) { return put("enforceNodeGroupMinSize", b); }
    public Builder bypassedSchedulerNames(String s) { return put("bypassedSchedulerNames", s); }
    public Builder provisioningPass(boolean b) { return put("provisioningPass", b); }

    /** The options. */
    @SuppressWarnings("unchecked")
    public AutoscalerOptions build() {
      try {
        var comps = AutoscalerOptions.class.getRecordComponents();
        Class<?>[] types = new Class<?>[comps.length];
        for (int i = 0; i < comps.length; i++) {
          types[i] = comps[i].getType();
        }
        return AutoscalerOptions.class.getDeclaredConstructor(types).newInstance(v);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  static String camel(String name) {
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
    String s = sb.toString();
    return switch (s) {
      case "maxNodesPerScaleup" -> "maxNodesPerScaleUp";
      case "ignoreDaemonsetsUtilization" -> "ignoreDaemonSetsUtilization";
      default -> s;
    };
  }

  static String kebab(String camel) {
    if (camel.equals("maxNodesPerScaleUp")) {
      return MAX_NODES_PER_SCALEUP;
    }
    if (camel.equals("ignoreDaemonSetsUtilization")) {
      return IGNORE_DAEMONSETS_UTILIZATION;
    }
    StringBuilder sb = new StringBuilder();
    for (char c : camel.toCharArray()) {
      if (Character.isUpperCase(c)) {
        sb.append('-').append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
