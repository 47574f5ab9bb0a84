package dev.headroom.core.workload;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Configuration of an HPA-mode {@link HpaAutoscaler}: the upstream HPA's spec and controller settings, plus
 * optional KEDA fields for the 0 ↔ 1 half.
 *
 * @param metrics the metrics, in declaration order; empty means CPU Utilization 80%
 * @param minReplicas the HPA minimum (default 1); 0 needs an Object or External metric. Ignored with KEDA
 * @param maxReplicas the HPA maximum, {@code >= max(1, minReplicas)}. Ignored with KEDA
 * @param behavior the behaviour, or null for the legacy path
 * @param tolerance the cluster tolerance (default 0.1 both ways)
 * @param syncPeriod how often the HPA reconciles (15 s); {@link Duration#ZERO} reconciles on every call
 * @param downscaleStabilization the legacy window, and the default down window of a behaviour (300 s)
 * @param cpuInitializationPeriod the CPU initialization period (5 min)
 * @param initialReadinessDelay the initial readiness delay (30 s)
 * @param keda the KEDA fields, or null for a plain HPA
 */
public record HpaConfig(
    List<HpaMetric> metrics,
    int minReplicas,
    int maxReplicas,
    Behavior behavior,
    Tolerance tolerance,
    Duration syncPeriod,
    Duration downscaleStabilization,
    Duration cpuInitializationPeriod,
    Duration initialReadinessDelay,
    KedaConfig keda) {

  /** The upstream sync period. */
  public static final Duration DEFAULT_SYNC_PERIOD = Duration.ofSeconds(15);
  /** The metric used when none is configured. */
  public static final HpaMetric DEFAULT_METRIC = HpaMetric.resourceUtilization("cpu", 80);

  public HpaConfig {
    metrics = metrics == null || metrics.isEmpty() ? List.of(DEFAULT_METRIC) : List.copyOf(metrics);
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(syncPeriod, "syncPeriod");
    Objects.requireNonNull(downscaleStabilization, "downscaleStabilization");
    Objects.requireNonNull(cpuInitializationPeriod, "cpuInitializationPeriod");
    Objects.requireNonNull(initialReadinessDelay, "initialReadinessDelay");
    Set<String> names = new HashSet<>();
    for (HpaMetric m : metrics) {
      if (!names.add(m.name())) {
        throw new IllegalArgumentException("metric name '" + m.name() + "' is declared twice");
      }
    }
    if (keda == null) {
      if (minReplicas < 0 || maxReplicas < Math.max(1, minReplicas)) {
        throw new IllegalArgumentException(
            "need 0 <= minReplicas <= maxReplicas and maxReplicas >= 1, got " + minReplicas + "/" + maxReplicas);
      }
      if (minReplicas == 0
          && metrics.stream().noneMatch(m -> m.source() == MetricSource.OBJECT || m.source() == MetricSource.EXTERNAL)) {
        throw new IllegalArgumentException("minReplicas 0 needs at least one Object or External metric");
      }
    } else if (keda.fallback() != null && metrics.stream().allMatch(HpaMetric::isCpuOrMemory)) {
      throw new IllegalArgumentException("a fallback is not allowed when every trigger is cpu or memory");
    }
  }

  /** A plain HPA with the upstream defaults and no behaviour (legacy path). */
  public static HpaConfig of(List<HpaMetric> metrics, int min, int max) {
    return new HpaConfig(
        metrics, min, max, null, Tolerance.DEFAULT, DEFAULT_SYNC_PERIOD, HpaNormalizer.DEFAULT_DOWNSCALE_STABILIZATION,
        HpaReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD, HpaReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY,
        null);
  }

  /** A KEDA ScaledObject: triggers as metrics, bounds from {@code keda}. */
  public static HpaConfig keda(List<HpaMetric> triggers, KedaConfig keda) {
    return of(triggers, Math.max(1, keda.minReplicaCount()), keda.maxReplicaCount()).withKeda(keda);
  }

  /** A copy with a behaviour (null = legacy path). */
  public HpaConfig withBehavior(Behavior b) {
    return new HpaConfig(metrics, minReplicas, maxReplicas, b, tolerance, syncPeriod, downscaleStabilization,
        cpuInitializationPeriod, initialReadinessDelay, keda);
  }

  /** A copy with another sync period. */
  public HpaConfig withSyncPeriod(Duration d) {
    return new HpaConfig(metrics, minReplicas, maxReplicas, behavior, tolerance, d, downscaleStabilization,
        cpuInitializationPeriod, initialReadinessDelay, keda);
  }

  /** A copy with KEDA fields (null = plain HPA). */
  public HpaConfig withKeda(KedaConfig k) {
    return new HpaConfig(metrics, minReplicas, maxReplicas, behavior, tolerance, syncPeriod, downscaleStabilization,
        cpuInitializationPeriod, initialReadinessDelay, k);
  }

  /** The minimum the HPA enforces: {@code max(minReplicaCount, 1)} with KEDA, else {@code minReplicas}. */
  public int hpaMin() {
    return keda == null ? minReplicas : Math.max(1, keda.minReplicaCount());
  }

  /** The maximum the HPA enforces. */
  public int hpaMax() {
    return keda == null ? maxReplicas : keda.maxReplicaCount();
  }

  /** The behaviour with every unset field filled in, or null on the legacy path. */
  public Behavior effectiveBehavior() {
    return behavior == null ? null : behavior.withDefaults(downscaleStabilization, tolerance);
  }

  /** The per-direction tolerance in force. */
  public Tolerance effectiveTolerance() {
    return behavior == null ? tolerance : effectiveBehavior().tolerance();
  }
}
