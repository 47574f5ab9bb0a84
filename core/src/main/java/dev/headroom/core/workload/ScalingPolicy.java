package dev.headroom.core.workload;

import java.util.Objects;

/**
 * One rate-limit policy of an HPA behaviour: at most {@code value} pods, or {@code value} percent, of change
 * within any {@code periodSeconds}.
 *
 * @param type pods or percent
 * @param value the amount, {@code > 0}
 * @param periodSeconds the window, 1..1800
 */
public record ScalingPolicy(Type type, int value, int periodSeconds) {

  /** The policy's unit. */
  public enum Type {
    PODS,
    PERCENT
  }

  public ScalingPolicy {
    Objects.requireNonNull(type, "type");
    if (value <= 0) {
      throw new IllegalArgumentException("policy value must be > 0, got " + value);
    }
    if (periodSeconds < 1 || periodSeconds > 1800) {
      throw new IllegalArgumentException("periodSeconds must be in 1..1800, got " + periodSeconds);
    }
  }

  /** A Pods policy. */
  public static ScalingPolicy pods(int value, int periodSeconds) {
    return new ScalingPolicy(Type.PODS, value, periodSeconds);
  }

  /** A Percent policy. */
  public static ScalingPolicy percent(int value, int periodSeconds) {
    return new ScalingPolicy(Type.PERCENT, value, periodSeconds);
  }
}
