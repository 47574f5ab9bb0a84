package dev.headroom.core.workload;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Configuration of a seed-mode {@link SeedScaler}.
 *
 * @param metrics the signals, in declaration order (ties go to the first)
 * @param min the lowest count, {@code >= 0}; 0 allows scaling to zero
 * @param max the highest count; 0 means unbounded
 * @param activation the wake threshold: work strictly above it wakes a workload at zero. It measures whether
 *     work is present, not how much. Ignored when {@code min >= 1}
 * @param cooldown how many consecutive idle decisions at one or more replicas to wait before dropping to zero
 */
public record ScalerConfig(List<MetricSpec> metrics, int min, int max, double activation, int cooldown) {

  public ScalerConfig {
    metrics = List.copyOf(metrics);
    Set<String> names = new HashSet<>();
    for (MetricSpec m : metrics) {
      if (!names.add(m.name())) {
        throw new IllegalArgumentException("metric name '" + m.name() + "' is declared twice");
      }
    }
    if (min < 0) {
      throw new IllegalArgumentException("min must be >= 0, got " + min);
    }
    if (max < 0) {
      throw new IllegalArgumentException("max must be >= 0 (0 = unbounded), got " + max);
    }
    if (max > 0 && max < Math.max(min, 1)) {
      throw new IllegalArgumentException("max " + max + " must be >= max(min, 1) = " + Math.max(min, 1));
    }
    if (cooldown < 0) {
      throw new IllegalArgumentException("cooldown must be >= 0, got " + cooldown);
    }
    if (!Double.isFinite(activation)) {
      throw new IllegalArgumentException("activation must be finite, got " + activation);
    }
  }

  /** A config with no zero handling in play: activation 0 and cooldown 0. */
  public static ScalerConfig of(List<MetricSpec> metrics, int min, int max) {
    return new ScalerConfig(metrics, min, max, 0, 0);
  }

  /** True exactly when {@code min == 0}: only then do activation and cooldown matter. */
  public boolean allowsZero() {
    return min == 0;
  }

  /** Raise to {@code min}, then lower to {@code max} when bounded. */
  public int clamp(int n) {
    int r = n < min ? min : n;
    if (max > 0 && r > max) {
      r = max;
    }
    return r;
  }
}
