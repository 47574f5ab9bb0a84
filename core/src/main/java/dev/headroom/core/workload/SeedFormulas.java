package dev.headroom.core.workload;

import java.util.List;
import java.util.Map;

/**
 * The seed's bare per-metric formulas (seed mode): no tolerance, no stabilisation, no rate limits.
 *
 * <p>Every count is rounded up with {@link #ceilSeed(double, double)}, a specific floating-point procedure
 * that seed mode reproduces bit for bit (it is not {@code Math.ceil(a / b)}).
 */
public final class SeedFormulas {

  private SeedFormulas() {}

  /**
   * The seed's ceiling of {@code a / b}: truncate the IEEE quotient, then add one if {@code n × b < a}.
   * Saturates at {@link Integer#MAX_VALUE}.
   */
  public static int ceilSeed(double a, double b) {
    double q = a / b;
    if (Double.isNaN(q)) {
      return 0;
    }
    long n = (long) q;
    if ((double) n * b < a) {
      n = n == Long.MAX_VALUE ? n : n + 1;
    }
    if (n > Integer.MAX_VALUE) {
      return Integer.MAX_VALUE;
    }
    if (n < Integer.MIN_VALUE) {
      return Integer.MIN_VALUE;
    }
    return (int) n;
  }

  /**
   * The count one metric asks for.
   *
   * <ul>
   *   <li>A target {@code <= 0} leaves {@code replicas} unchanged.
   *   <li>{@link TargetKind#UTILIZATION}: {@code ceilSeed(replicas × reading, target)}; with no replicas the
   *       per-replica percentage is undefined, so the answer stays 0 (CPU can never wake a workload).
   *   <li>{@link TargetKind#AVERAGE_VALUE} and {@link TargetKind#VALUE}: {@code ceilSeed(reading, target)};
   *       the current count does not appear.
   * </ul>
   */
  public static int desired(int replicas, MetricSpec metric, double reading) {
    if (metric.target() <= 0) {
      return replicas;
    }
    return switch (metric.kind()) {
      case UTILIZATION -> replicas <= 0 ? replicas : ceilSeed(replicas * reading, metric.target());
      case AVERAGE_VALUE, VALUE -> ceilSeed(reading, metric.target());
    };
  }

  /**
   * The most demanding metric wins. Metrics are walked in declaration order, skipping those without a
   * reading; the first with a reading is taken, and a later one replaces it only when strictly larger, so
   * ties go to the metric declared first. With no reading at all the count is unchanged and {@code by} is
   * empty.
   */
  public static Recommendation desiredAll(int replicas, List<MetricSpec> metrics, Map<String, Double> readings) {
    int best = 0;
    String by = null;
    for (MetricSpec m : metrics) {
      Double v = readings.get(m.name());
      if (v == null) {
        continue;
      }
      int d = desired(replicas, m, v);
      if (by == null || d > best) {
        best = d;
        by = m.name();
      }
    }
    return by == null ? new Recommendation(replicas, "") : new Recommendation(best, by);
  }
}
