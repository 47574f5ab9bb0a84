package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.List;

/** Combines limiters: every one is consulted, the longest delay wins. */
public final class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private final List<RateLimiter<K>> limiters;

  @SafeVarargs
  public MaxOfRateLimiter(RateLimiter<K>... limiters) {
    this.limiters = List.of(limiters);
  }

  @Override
  public Duration when(K item) {
    Duration max = Duration.ZERO;
    for (RateLimiter<K> l : limiters) {
      Duration d = l.when(item);
      if (d.compareTo(max) > 0) {
        max = d;
      }
    }
    return max;
  }

  @Override
  public void forget(K item) {
    limiters.forEach(l -> l.forget(item));
  }

  @Override
  public int retries(K item) {
    int max = 0;
    for (RateLimiter<K> l : limiters) {
      max = Math.max(max, l.retries(item));
    }
    return max;
  }
}
