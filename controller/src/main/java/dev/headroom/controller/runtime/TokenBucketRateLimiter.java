package dev.headroom.controller.runtime;

import java.time.Duration;

/**
 * An overall token bucket shared by all items (Go's {@code rate.Limiter} reservation semantics): the bucket starts
 * full, refills at {@code ratePerSecond} up to {@code burst}, and each call reserves one token, returning how long
 * the caller must wait until that token exists.
 */
public final class TokenBucketRateLimiter<K> implements RateLimiter<K> {
  private final Ticker ticker;
  private final double ratePerNano;
  private final double burst;
  private double tokens;
  private long last;

  public TokenBucketRateLimiter(Ticker ticker, double ratePerSecond, int burst) {
    this.ticker = ticker;
    this.ratePerNano = ratePerSecond / 1e9;
    this.burst = burst;
    this.tokens = burst;
    this.last = ticker.nanoTime();
  }

  @Override
  public synchronized Duration when(K item) {
    long now = ticker.nanoTime();
    if (now > last) {
      tokens = Math.min(burst, tokens + (now - last) * ratePerNano);
      last = now;
    }
    tokens -= 1;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-tokens / ratePerNano));
  }

  @Override
  public void forget(K item) {}

  @Override
  public int retries(K item) {
    return 0;
  }
}
