package dev.headroom.controller.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkQueueTest {
  private final ManualTicker ticker = new ManualTicker();
  private final WorkQueue<String> queue = new WorkQueue<>(ticker, RateLimiter.defaultControllerRateLimiter(ticker));

  @Test
  void deduplicatesQueuedItemsAndKeepsFifoOrder() {
    queue.add("a");
    queue.add("b");
    queue.add("a");
    assertThat(queue.depth()).isEqualTo(2);
    assertThat(queue.poll()).contains("a");
    assertThat(queue.poll()).contains("b");
    assertThat(queue.poll()).isEmpty();
  }

  @Test
  void anItemInProcessingIsNotHandedOutTwiceButIsRequeuedOnDone() {
    queue.add("ns");
    assertThat(queue.poll()).contains("ns");
    queue.add("ns");
    queue.add("ns");
    assertThat(queue.poll()).isEmpty();
    queue.done("ns");
    assertThat(queue.poll()).contains("ns");
    queue.done("ns");
    assertThat(queue.poll()).isEmpty();
  }

  @Test
  void delayedItemsBecomeDueWithTheTickerAndTheEarliestDueTimeWins() {
    queue.addAfter("a", Duration.ofSeconds(10));
    queue.addAfter("a", Duration.ofSeconds(2));
    queue.addAfter("a", Duration.ofSeconds(5));
    assertThat(queue.waitingCount()).isEqualTo(1);
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMillis(1999));
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.poll()).contains("a");
    queue.done("a");
    ticker.advance(Duration.ofSeconds(60));
    assertThat(queue.poll()).isEmpty();
  }

  @Test
  void rateLimitedAddsBackOffExponentiallyUntilForgotten() {
    queue.addRateLimited("ns");
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMillis(5));
    assertThat(queue.poll()).contains("ns");
    queue.done("ns");
    queue.addRateLimited("ns");
    ticker.advance(Duration.ofMillis(9));
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.poll()).contains("ns");
    assertThat(queue.retries("ns")).isEqualTo(2);
    queue.forget("ns");
    assertThat(queue.retries("ns")).isZero();
  }

  @Test
  void shutDownDropsQueuedWorkAndRefusesNewWork() throws InterruptedException {
    queue.add("a");
    queue.shutDown();
    queue.add("b");
    assertThat(queue.take(Duration.ofSeconds(5))).isEmpty();
    assertThat(queue.isShuttingDown()).isTrue();
  }

  @Test
  void takeBlocksUntilAnotherThreadAdds() throws Exception {
    WorkQueue<String> real = new WorkQueue<>(Ticker.SYSTEM, RateLimiter.defaultControllerRateLimiter(Ticker.SYSTEM));
    Thread adder = new Thread(() -> real.add("x"));
    adder.start();
    Optional<String> got = real.take(Duration.ofSeconds(10));
    adder.join();
    assertThat(got).contains("x");
  }
}
