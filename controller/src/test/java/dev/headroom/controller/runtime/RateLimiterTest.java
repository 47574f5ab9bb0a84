package dev.headroom.controller.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  @Test
  void exponentialBackoffDoublesFrom5msAndCapsAt1000s() {
    var limiter = new ItemExponentialRateLimiter<String>(Duration.ofMillis(5), Duration.ofSeconds(1000));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(20));
    assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.retries("a")).isEqualTo(3);
    for (int i = 0; i < 100; i++) {
      limiter.when("a");
    }
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1000));
    limiter.forget("a");
    assertThat(limiter.retries("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void backoffReachesTheCapAfterEighteenFailures() {
    var limiter = new ItemExponentialRateLimiter<String>(Duration.ofMillis(5), Duration.ofSeconds(1000));
    Duration last = Duration.ZERO;
    int n = 0;
    while (!last.equals(Duration.ofSeconds(1000))) {
      last = limiter.when("k");
      n++;
    }
    // 5ms * 2^17 = 655.36 s < 1000 s < 5ms * 2^18
    assertThat(n).isEqualTo(19);
  }

  @Test
  void tokenBucketAllowsBurstOf100ThenTenPerSecond() {
    ManualTicker ticker = new ManualTicker();
    var bucket = new TokenBucketRateLimiter<String>(ticker, 10, 100);
    for (int i = 0; i < 100; i++) {
      assertThat(bucket.when("k" + i)).isZero();
    }
    assertThat(bucket.when("x")).isEqualTo(Duration.ofMillis(100));
    assertThat(bucket.when("y")).isEqualTo(Duration.ofMillis(200));
    ticker.advance(Duration.ofSeconds(1));
    // 10 tokens came back, 2 were already reserved ahead
    for (int i = 0; i < 8; i++) {
      assertThat(bucket.when("z" + i)).isZero();
    }
    assertThat(bucket.when("w")).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void defaultLimiterTakesTheLongerDelay() {
    ManualTicker ticker = new ManualTicker();
    RateLimiter<String> limiter = RateLimiter.defaultControllerRateLimiter(ticker);
    assertThat(limiter.when("ns")).isEqualTo(Duration.ofMillis(5));
    for (int i = 0; i < 99; i++) {
      limiter.when("other" + i);
    }
    // bucket exhausted: 100 ms beats the 10 ms item backoff
    assertThat(limiter.when("ns")).isEqualTo(Duration.ofMillis(100));
    assertThat(limiter.retries("ns")).isEqualTo(2);
    limiter.forget("ns");
    assertThat(limiter.retries("ns")).isZero();
  }
}
