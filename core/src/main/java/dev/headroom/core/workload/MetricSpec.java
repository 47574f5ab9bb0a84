package dev.headroom.core.workload;

import java.util.Objects;

/**
 * One signal a seed-mode scaler sizes a workload by.
 *
 * @param name unique within a {@link ScalerConfig}; readings are keyed by it
 * @param kind how the target is expressed
 * @param target the target value (percent for {@link TargetKind#UTILIZATION}, an amount otherwise); a target
 *     {@code <= 0} makes the metric leave the count unchanged
 * @param saturates informational only: the signal has a ceiling (CPU at 100%) and cannot say how far short
 *     the workload is once it hits it; never changes a computed number
 */
public record MetricSpec(String name, TargetKind kind, double target, boolean saturates) {

  public MetricSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    if (!Double.isFinite(target)) {
      throw new IllegalArgumentException("metric " + name + ": target must be finite, got " + target);
    }
  }

  /** A non-saturating metric. */
  public static MetricSpec of(String name, TargetKind kind, double target) {
    return new MetricSpec(name, kind, target, false);
  }

  /** A per-replica utilisation metric that saturates at 100% (CPU). */
  public static MetricSpec utilization(String name, double targetPercent) {
    return new MetricSpec(name, TargetKind.UTILIZATION, targetPercent, true);
  }

  /** A total amount that each replica may carry {@code perReplica} of (a queue length). */
  public static MetricSpec averageValue(String name, double perReplica) {
    return new MetricSpec(name, TargetKind.AVERAGE_VALUE, perReplica, false);
  }

  /** A whole-system value. */
  public static MetricSpec value(String name, double target) {
    return new MetricSpec(name, TargetKind.VALUE, target, false);
  }
}
