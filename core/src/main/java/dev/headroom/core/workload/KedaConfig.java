package dev.headroom.core.workload;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The KEDA ScaledObject fields that drive the 0 ↔ 1 half of HPA mode. The metrics themselves are the
 * {@link HpaConfig}'s (one per trigger); the generated HPA gets {@code min = max(minReplicaCount, 1)} and
 * {@code max = maxReplicaCount}.
 *
 * @param pollingInterval how often the activation loop runs (default 30 s, at least 1 s)
 * @param cooldownPeriod how long after the last active poll the workload may drop to zero or idle (300 s)
 * @param initialCooldownPeriod grace period after creation while never active (0)
 * @param minReplicaCount the lowest count (0 allows zero)
 * @param maxReplicaCount the highest count (100)
 * @param idleReplicaCount the count used when inactive; must be below {@code minReplicaCount} (only 0 is safe)
 * @param activationThresholds per metric name, milli-units; a trigger is active when its value is strictly
 *     above (missing = 0)
 * @param fallback the fallback, or null
 * @param paused the ScaledObject is paused: the activation loop does nothing
 * @param scaleInPaused scale-in is paused: no drop to zero or idle
 */
public record KedaConfig(
    Duration pollingInterval,
    Duration cooldownPeriod,
    Duration initialCooldownPeriod,
    int minReplicaCount,
    int maxReplicaCount,
    OptionalInt idleReplicaCount,
    Map<String, Long> activationThresholds,
    Fallback fallback,
    boolean paused,
    boolean scaleInPaused) {

  /** Default polling interval. */
  public static final Duration DEFAULT_POLLING_INTERVAL = Duration.ofSeconds(30);
  /** Default cooldown period. */
  public static final Duration DEFAULT_COOLDOWN_PERIOD = Duration.ofSeconds(300);
  /** Default maximum. */
  public static final int DEFAULT_MAX_REPLICA_COUNT = 100;

  public KedaConfig {
    Objects.requireNonNull(pollingInterval, "pollingInterval");
    Objects.requireNonNull(cooldownPeriod, "cooldownPeriod");
    Objects.requireNonNull(initialCooldownPeriod, "initialCooldownPeriod");
    Objects.requireNonNull(idleReplicaCount, "idleReplicaCount");
    activationThresholds = Map.copyOf(activationThresholds);
    if (pollingInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("pollingInterval must be at least 1s, got " + pollingInterval);
    }
    if (cooldownPeriod.isNegative() || initialCooldownPeriod.isNegative()) {
      throw new IllegalArgumentException("cooldown periods must be >= 0");
    }
    if (minReplicaCount < 0 || maxReplicaCount < 1 || maxReplicaCount < minReplicaCount) {
      throw new IllegalArgumentException(
          "need 0 <= minReplicaCount <= maxReplicaCount and maxReplicaCount >= 1, got " + minReplicaCount + "/" + maxReplicaCount);
    }
    if (idleReplicaCount.isPresent()
        && (idleReplicaCount.getAsInt() < 0 || idleReplicaCount.getAsInt() >= minReplicaCount)) {
      throw new IllegalArgumentException("idleReplicaCount must be >= 0 and < minReplicaCount");
    }
  }

  /** KEDA's defaults: poll 30 s, cooldown 300 s, min 0, max 100, no idle count, activation 0, no fallback. */
  public static KedaConfig defaults() {
    return new KedaConfig(
        DEFAULT_POLLING_INTERVAL, DEFAULT_COOLDOWN_PERIOD, Duration.ZERO, 0, DEFAULT_MAX_REPLICA_COUNT,
        OptionalInt.empty(), Map.of(), null, false, false);
  }

  /** A copy with other replica bounds. */
  public KedaConfig withReplicas(int min, int max) {
    return new KedaConfig(pollingInterval, cooldownPeriod, initialCooldownPeriod, min, max, idleReplicaCount,
        activationThresholds, fallback, paused, scaleInPaused);
  }

  /** A copy with activation thresholds (milli-units by metric name). */
  public KedaConfig withActivationThresholds(Map<String, Long> thresholds) {
    return new KedaConfig(pollingInterval, cooldownPeriod, initialCooldownPeriod, minReplicaCount, maxReplicaCount,
        idleReplicaCount, thresholds, fallback, paused, scaleInPaused);
  }

  /** A copy with a fallback. */
  public KedaConfig withFallback(Fallback newFallback) {
    return new KedaConfig(pollingInterval, cooldownPeriod, initialCooldownPeriod, minReplicaCount, maxReplicaCount,
        idleReplicaCount, activationThresholds, newFallback, paused, scaleInPaused);
  }

  /** A copy with an idle replica count. */
  public KedaConfig withIdleReplicaCount(int idle) {
    return new KedaConfig(pollingInterval, cooldownPeriod, initialCooldownPeriod, minReplicaCount, maxReplicaCount,
        OptionalInt.of(idle), activationThresholds, fallback, paused, scaleInPaused);
  }

  /** A copy with an initial cooldown period. */
  public KedaConfig withInitialCooldown(Duration initial) {
    return new KedaConfig(pollingInterval, cooldownPeriod, initial, minReplicaCount, maxReplicaCount, idleReplicaCount,
        activationThresholds, fallback, paused, scaleInPaused);
  }

  /** A copy with the pause flags. */
  public KedaConfig withPause(boolean newPaused, boolean newScaleInPaused) {
    return new KedaConfig(pollingInterval, cooldownPeriod, initialCooldownPeriod, minReplicaCount, maxReplicaCount,
        idleReplicaCount, activationThresholds, fallback, newPaused, newScaleInPaused);
  }

  /** The activation threshold of a metric (0 when not set). */
  public long activationThreshold(String metric) {
    return activationThresholds.getOrDefault(metric, 0L);
  }
}
