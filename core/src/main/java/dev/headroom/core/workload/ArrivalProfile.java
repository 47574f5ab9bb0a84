package dev.headroom.core.workload;

import java.util.OptionalInt;

/**
 * Work arriving per tick in the tick model: {@code before} items per tick until {@code jumpTick}, then
 * {@code after}, and none from {@code stopTick} on when one is set.
 *
 * @param before items per tick for {@code t < jumpTick}
 * @param after items per tick for {@code t >= jumpTick}
 * @param jumpTick the tick of the jump
 * @param stopTick when present, arrivals are 0 for {@code t >= stopTick}
 */
public record ArrivalProfile(long before, long after, int jumpTick, OptionalInt stopTick) {

  public ArrivalProfile {
    if (before < 0 || after < 0) {
      throw new IllegalArgumentException("arrival rates must be >= 0, got " + before + " and " + after);
    }
    if (jumpTick < 0) {
      throw new IllegalArgumentException("jump tick must be >= 0, got " + jumpTick);
    }
    if (stopTick.isPresent() && stopTick.getAsInt() < 0) {
      throw new IllegalArgumentException("stop tick must be >= 0, got " + stopTick.getAsInt());
    }
  }

  /** A step with no stop. */
  public static ArrivalProfile step(long before, long after, int jumpTick) {
    return new ArrivalProfile(before, after, jumpTick, OptionalInt.empty());
  }

  /** Items arriving at tick {@code t}. */
  public long at(int t) {
    if (stopTick.isPresent() && t >= stopTick.getAsInt()) {
      return 0;
    }
    return t < jumpTick ? before : after;
  }
}
