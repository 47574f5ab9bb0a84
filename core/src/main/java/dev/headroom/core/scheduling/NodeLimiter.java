package dev.headroom.core.scheduling;

/**
 * Decides whether the binpacking estimator may open one more template node (CA's
 * {@code EstimationLimiter}). Implementations may also stop on a time budget measured with a clock the
 * caller owns; the core itself never reads the wall clock.
 */
@FunctionalInterface
public interface NodeLimiter {

  /** True when a node beyond the {@code nodesSoFar} already opened may be added. */
  boolean permitOneMoreNode(int nodesSoFar);

  /**
   * A limiter that allows nodes while {@code nodes < min(positive limits)}; any negative limit forbids every
   * node; zero means "no limit" (spec §3.4).
   */
  static NodeLimiter ofLimits(int... limits) {
    long min = Long.MAX_VALUE;
    for (int l : limits) {
      if (l < 0) {
        return n -> false;
      }
      if (l > 0) {
        min = Math.min(min, l);
      }
    }
    long cap = min;
    return n -> n < cap;
  }
}
