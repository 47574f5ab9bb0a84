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
  void lowPriorityItemsWaitBehindNormalOnesAndMoveUpWhenAddedNormally() {
    for (String k : java.util.List.of("r1", "r2", "r3", "r4")) {
      queue.addLowPriority(k); // a resync pass
    }
    queue.add("change");
    queue.add("r3"); // a real change of a key the resync queued: it moves up, after "change"
    queue.addLowPriority("change"); // already queued at normal priority: stays there
    assertThat(queue.depth()).isEqualTo(5);
    java.util.List<String> order = new java.util.ArrayList<>();
    for (Optional<String> k = queue.poll(); k.isPresent(); k = queue.poll()) {
      order.add(k.get());
      queue.done(k.get());
    }
    assertThat(order).containsExactly("change", "r3", "r1", "r2", "r4");
  }

  @Test
  void anItemAddedWhileProcessingKeepsTheHighestPriorityItWasAddedWith() {
    queue.add("a");
    queue.add("b");
    assertThat(queue.poll()).contains("a");
    queue.addLowPriority("a");
    queue.done("a");
    queue.add("c");
    // a is queued at low priority again: behind b and c
    assertThat(queue.poll()).contains("b");
    assertThat(queue.poll()).contains("c");
    assertThat(queue.poll()).contains("a");
    queue.addLowPriority("a");
    queue.add("a");
    queue.done("a");
    queue.add("d");
    // added normally while processing: back at the normal queue's end, before d
    assertThat(queue.poll()).contains("a");
    assertThat(queue.poll()).contains("d");
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
