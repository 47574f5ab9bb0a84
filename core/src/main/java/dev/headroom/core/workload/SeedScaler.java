package dev.headroom.core.workload;

import java.util.Map;
import java.util.Objects;

/**
 * The seed's scaler (seed mode): the bare formulas of {@link SeedFormulas}, clamped to {@code [min, max]},
 * plus a separate presence rule for the 0 ↔ 1 boundary.
 *
 * <p>At zero, only <em>whether</em> work is present matters: work strictly above the activation threshold
 * wakes one replica. At one or more replicas the formulas decide, and a formula answer of zero is held at one
 * replica until {@code cooldown + 1} consecutive idle decisions have passed. With {@code min >= 1} zero is never
 * reached.
 *
 * <p>Holds one mutable counter ({@link #idle()}); use one instance per workload. Not thread-safe.
 */
public final class SeedScaler {

  private final ScalerConfig config;
  private int idle;

  public SeedScaler(ScalerConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** The configuration. */
  public ScalerConfig config() {
    return config;
  }

  /** Consecutive decisions at one or more replicas that saw no work above the activation threshold. */
  public int idle() {
    return idle;
  }

  /**
   * Decides the next count from the current one and this round's readings (keyed by metric name; for
   * utilisation a per-replica percentage, otherwise the total).
   *
   * @throws IllegalArgumentException when {@code replicas < 0} or a reading is not finite
   */
  public Decision decide(int replicas, Map<String, Double> readings) {
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
    double w = work(readings);
    if (replicas == 0) {
      if (!config.allowsZero()) {
        return new Decision(config.clamp(config.min()), "", DecisionReason.RESTORED_TO_MIN);
      }
      if (w > config.activation()) {
        idle = 0;
        return new Decision(config.clamp(1), "", DecisionReason.WOKE);
      }
      return new Decision(0, "", DecisionReason.STAYED_AT_ZERO);
    }
    if (config.allowsZero() && w <= config.activation()) {
      idle++;
    } else {
      idle = 0;
    }
    Recommendation want = SeedFormulas.desiredAll(replicas, config.metrics(), readings);
    int n = config.clamp(want.replicas());
    if (n == 0) {
      return idle <= config.cooldown()
          ? new Decision(1, want.by(), DecisionReason.COOLDOWN_HOLD)
          : new Decision(0, want.by(), DecisionReason.SCALED_TO_ZERO);
    }
    DecisionReason reason =
        n > replicas ? DecisionReason.SCALE_UP : n < replicas ? DecisionReason.SCALE_DOWN : DecisionReason.NO_CHANGE;
    return new Decision(n, want.by(), reason);
  }

  /**
   * The presence signal: the largest reading of any name (configured or not), floored at 0. It compares raw
   * numbers regardless of units on purpose: it answers "is there work", not "how much".
   */
  static double work(Map<String, Double> readings) {
    double m = 0.0;
    for (Map.Entry<String, Double> e : readings.entrySet()) {
      double v = Objects.requireNonNull(e.getValue(), e.getKey());
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("reading " + e.getKey() + " must be finite, got " + v);
      }
      if (v > m) {
        m = v;
      }
    }
    return m;
  }
}
