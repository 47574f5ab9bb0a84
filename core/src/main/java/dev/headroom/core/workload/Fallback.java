package dev.headroom.core.workload;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * KEDA's fallback: after more than {@code failureThreshold} consecutive failed reads of a metric, the metric
 * is served as a synthetic value that makes the HPA land on a chosen count.
 *
 * @param failureThreshold consecutive failures tolerated, {@code >= 0}; the fallback starts at failure
 *     {@code failureThreshold + 1}
 * @param replicas the fallback count, {@code >= 0}
 * @param behavior how the count is chosen
 */
public record Fallback(int failureThreshold, int replicas, Mode behavior) {

  /** How the fallback count is chosen. */
  public enum Mode {
    /** Always {@code replicas}. */
    STATIC,
    /** The current count. */
    CURRENT_REPLICAS,
    /** The larger of the current count and {@code replicas}. */
    CURRENT_REPLICAS_IF_HIGHER,
    /** The smaller of the current count and {@code replicas}. */
    CURRENT_REPLICAS_IF_LOWER
  }

  public Fallback {
    Objects.requireNonNull(behavior, "behavior");
    if (failureThreshold < 0) {
      throw new IllegalArgumentException("fallback failureThreshold must be >= 0, got " + failureThreshold);
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("fallback replicas must be >= 0, got " + replicas);
    }
  }

  /** The count the fallback aims at, given the current count. */
  public int replicasFor(int current) {
    return switch (behavior) {
      case STATIC -> replicas;
      case CURRENT_REPLICAS -> current;
      case CURRENT_REPLICAS_IF_HIGHER -> Math.max(current, replicas);
      case CURRENT_REPLICAS_IF_LOWER -> Math.min(current, replicas);
    };
  }

  /** True once the consecutive failures exceed the threshold (strictly). */
  public boolean engaged(int consecutiveFailures) {
    return consecutiveFailures > failureThreshold;
  }

  /**
   * The synthetic metric value (milli-units) that makes the HPA compute {@code replicas}: {@code target × R}
   * for AverageValue, {@code target × R ÷ readyReplicas} for Value; empty for Value with no ready replica.
   */
  public static OptionalLong syntheticValue(HpaMetric metric, int replicas, int readyReplicas) {
    double v = (double) metric.target() * replicas;
    if (metric.kind() == TargetKind.VALUE) {
      if (readyReplicas <= 0) {
        return OptionalLong.empty();
      }
      v = v / readyReplicas;
    }
    return OptionalLong.of(v >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(v));
  }
}
