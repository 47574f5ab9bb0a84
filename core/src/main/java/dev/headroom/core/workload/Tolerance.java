package dev.headroom.core.workload;

/**
 * The HPA's dead band around a usage ratio of 1: {@code 1 - down <= ratio <= 1 + up}, both bounds inclusive.
 * Applied per metric, to the ratio (never to the replica count), and never on the from-zero path.
 *
 * @param down how far below 1 the ratio may fall without a scale-down, {@code >= 0}
 * @param up how far above 1 the ratio may rise without a scale-up, {@code >= 0}
 */
public record Tolerance(double down, double up) {

  /** The upstream default, 0.1 each way. */
  public static final Tolerance DEFAULT = new Tolerance(0.1, 0.1);

  public Tolerance {
    if (!(down >= 0) || !(up >= 0) || !Double.isFinite(down) || !Double.isFinite(up)) {
      throw new IllegalArgumentException("tolerance must be finite and >= 0, got (" + down + ", " + up + ")");
    }
  }

  /** True when the ratio is inside the dead band. */
  public boolean within(double ratio) {
    return (1.0 - down) <= ratio && ratio <= (1.0 + up);
  }
}
