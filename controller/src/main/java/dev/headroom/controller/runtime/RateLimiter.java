package dev.headroom.controller.runtime;

import java.time.Duration;

/** Decides how long an item waits before it is retried (client-go's workqueue rate limiter contract). */
public interface RateLimiter<K> {
  /** Records one more retry of {@code item} and returns how long it should wait. */
  Duration when(K item);

  /** Clears the retry history of {@code item} after it was processed successfully. */
  void forget(K item);

  /** Number of consecutive retries recorded for {@code item}. */
  int retries(K item);

  /**
   * The default controller limiter: per-item exponential backoff from 5 ms to 1000 s, combined with an overall
   * token bucket of 10 per second with a burst of 100; the longer of the two delays wins.
   */
  static <K> RateLimiter<K> defaultControllerRateLimiter(Ticker ticker) {
    return new MaxOfRateLimiter<>(
        new ItemExponentialRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
        new TokenBucketRateLimiter<>(ticker, 10.0, 100));
  }
}
