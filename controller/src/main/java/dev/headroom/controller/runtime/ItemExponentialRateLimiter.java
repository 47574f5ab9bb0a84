package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Per-item exponential backoff: {@code base * 2^(failures-1)}, capped at {@code max}. */
public final class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  private final long baseNanos;
  private final long maxNanos;
  private final Map<K, Integer> failures = new HashMap<>();

  public ItemExponentialRateLimiter(Duration base, Duration max) {
    this.baseNanos = base.toNanos();
    this.maxNanos = max.toNanos();
  }

  @Override
  public synchronized Duration when(K item) {
    int exp = failures.merge(item, 1, Integer::sum) - 1;
    if (exp >= 62 || baseNanos > (maxNanos >> Math.min(exp, 62))) {
      return Duration.ofNanos(maxNanos);
    }
    return Duration.ofNanos(Math.min(maxNanos, baseNanos << exp));
  }

  @Override
  public synchronized void forget(K item) {
    failures.remove(item);
  }

  @Override
  public synchronized int retries(K item) {
    return failures.getOrDefault(item, 0);
  }
}
