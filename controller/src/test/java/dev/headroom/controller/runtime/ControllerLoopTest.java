package dev.headroom.controller.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ControllerLoopTest {
  private final ManualTicker ticker = new ManualTicker();
  private final WorkQueue<String> queue = new WorkQueue<>(ticker, RateLimiter.defaultControllerRateLimiter(ticker));

  @Test
  void failuresAreRetriedWithBackoffAndSuccessForgetsTheKey() {
    AtomicInteger calls = new AtomicInteger();
    ControllerLoop<String> loop = new ControllerLoop<>("test", queue, key -> {
      if (calls.incrementAndGet() < 3) {
        throw new IllegalStateException("boom");
      }
      return ReconcileResult.done();
    }, new ControllerLoop.Listener<>() {});
    queue.add("ns");
    loop.processOne(queue.poll().orElseThrow());
    assertThat(queue.retries("ns")).isEqualTo(1);
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMillis(5));
    loop.processOne(queue.poll().orElseThrow());
    assertThat(queue.retries("ns")).isEqualTo(2);
    ticker.advance(Duration.ofMillis(10));
    loop.processOne(queue.poll().orElseThrow());
    assertThat(calls).hasValue(3);
    assertThat(queue.retries("ns")).isZero();
    ticker.advance(Duration.ofSeconds(100));
    assertThat(queue.poll()).isEmpty();
  }

  @Test
  void aPermanentFailureForgetsTheKeyUntilItIsAddedAgain() {
    AtomicInteger calls = new AtomicInteger();
    List<String> labels = new CopyOnWriteArrayList<>();
    ControllerLoop<String> loop = new ControllerLoop<>("test", queue, key -> {
      calls.incrementAndGet();
      return ReconcileResult.failed("the server rejects the status");
    }, new ControllerLoop.Listener<>() {
      @Override
      public void reconciled(String key, ReconcileResult result, long nanos) {
        labels.add(result.label());
      }
    });
    queue.add("ns");
    loop.processOne(queue.poll().orElseThrow());
    assertThat(queue.retries("ns")).isZero();
    ticker.advance(Duration.ofMinutes(20));
    assertThat(queue.poll()).as("not retried").isEmpty();
    // an input changed: an informer adds the key again
    queue.add("ns");
    loop.processOne(queue.poll().orElseThrow());
    assertThat(calls).hasValue(2);
    assertThat(labels).containsExactly("failed", "failed");
    assertThat(ReconcileResult.retry("x").label()).isEqualTo("error");
    assertThat(ReconcileResult.done().label()).isEqualTo("success");
  }

  @Test
  void errorsAreNotCaughtOnlyExceptions() {
    ControllerLoop<String> loop = new ControllerLoop<>("test", queue, key -> {
      throw new AssertionError("a bug");
    }, new ControllerLoop.Listener<>() {});
    queue.add("ns");
    String key = queue.poll().orElseThrow();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> loop.processOne(key)).isInstanceOf(AssertionError.class);
    assertThat(loop.inFlight()).isNull();
    assertThat(org.slf4j.MDC.get(ControllerLoop.MDC_RECONCILE_ID)).isNull();
  }

  @Test
  void aRequestedRequeueReAddsTheKeyAfterTheDelay() {
    ControllerLoop<String> loop = new ControllerLoop<>("test", queue,
        key -> ReconcileResult.doneRequeueAfter(Duration.ofMinutes(30)), new ControllerLoop.Listener<>() {});
    queue.add("ns");
    loop.processOne(queue.poll().orElseThrow());
    ticker.advance(Duration.ofMinutes(29));
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMinutes(1));
    assertThat(queue.poll()).contains("ns");
  }

  @Test
  void stopFinishesTheInFlightReconcileAndTakesNoMoreWork() throws Exception {
    WorkQueue<String> real = new WorkQueue<>(Ticker.SYSTEM, RateLimiter.defaultControllerRateLimiter(Ticker.SYSTEM));
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> finished = new CopyOnWriteArrayList<>();
    ControllerLoop<String> loop = new ControllerLoop<>("test", real, key -> {
      entered.countDown();
      release.await(10, TimeUnit.SECONDS);
      finished.add(key);
      return ReconcileResult.done();
    }, new ControllerLoop.Listener<>() {});
    loop.start();
    real.add("a");
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    real.add("b");
    Thread stopper = new Thread(() -> loop.stop(Duration.ofSeconds(10)));
    stopper.start();
    await().atMost(Duration.ofSeconds(5)).until(real::isShuttingDown);
    release.countDown();
    stopper.join();
    assertThat(finished).containsExactly("a");
    assertThat(loop.isRunning()).isFalse();
  }

  @Test
  void aStuckReconcileStopsTheHeartbeatAndAFinishedOneRestartsIt() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ControllerLoop<String> loop = new ControllerLoop<>("stuck", queue, key -> {
      entered.countDown();
      release.await();
      return ReconcileResult.done();
    }, new ControllerLoop.Listener<>() {}, ticker);
    assertThat(loop.sinceHeartbeat()).as("not running").isZero();
    loop.start();
    queue.add("ns");
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    ticker.advance(Duration.ofMinutes(3));
    assertThat(loop.sinceHeartbeat()).isGreaterThanOrEqualTo(Duration.ofMinutes(3));
    assertThat(loop.inFlight()).isEqualTo("ns");
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> loop.sinceHeartbeat().compareTo(Duration.ofSeconds(1)) < 0);
    assertThat(loop.inFlight()).isNull();
    loop.stop(Duration.ofSeconds(10));
  }

  @Test
  void severalWorkersReconcileDifferentKeysAtOnceAndOneKeyNeverTwiceAtOnce() throws Exception {
    WorkQueue<String> real = new WorkQueue<>(Ticker.SYSTEM, RateLimiter.defaultControllerRateLimiter(Ticker.SYSTEM));
    CountDownLatch bothIn = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger concurrentA = new AtomicInteger();
    AtomicInteger maxConcurrentA = new AtomicInteger();
    List<String> threads = new CopyOnWriteArrayList<>();
    ControllerLoop<String> loop = new ControllerLoop<>("pool", real, key -> {
      threads.add(Thread.currentThread().getName());
      if (key.equals("a")) {
        maxConcurrentA.accumulateAndGet(concurrentA.incrementAndGet(), Math::max);
      }
      bothIn.countDown();
      release.await(10, TimeUnit.SECONDS);
      if (key.equals("a")) {
        concurrentA.decrementAndGet();
      }
      return ReconcileResult.done();
    }, new ControllerLoop.Listener<>() {}, Ticker.SYSTEM, 3);
    assertThat(loop.workers()).isEqualTo(3);
    loop.start();
    real.add("a");
    real.add("b");
    // "a" and "b" are in their reconciles at the same time: two workers
    assertThat(bothIn.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(loop.inFlight()).isIn("a", "b");
    // "a" added again while it is reconciled waits for its first reconcile to finish (the queue's key exclusion)
    real.add("a");
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> threads.size() == 3 && real.depth() == 0 && loop.inFlight() == null);
    assertThat(maxConcurrentA).hasValue(1);
    assertThat(threads).allSatisfy(t -> assertThat(t).matches("pool-[123]"));
    loop.stop(Duration.ofSeconds(10));
    assertThat(loop.isRunning()).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ControllerLoop<>("x", real, key -> ReconcileResult.done(),
        new ControllerLoop.Listener<>() {}, Ticker.SYSTEM, 0)).hasMessageContaining("at least 1");
  }
}
