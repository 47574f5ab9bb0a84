package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class QueuedStatusWriterTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch started = new CountDownLatch(1);
  private final List<String> written = new CopyOnWriteArrayList<>();
  /** Records "name:reason"; the first write blocks until {@link #release}. */
  private final BufferStatusWriter delegate = (b, c) -> {
    started.countDown();
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    written.add(b.getMetadata().getName() + ":" + c.get(0).getReason());
  };

  private static CapacityBuffer buffer(String name) {
    CapacityBuffer b = new CapacityBuffer();
    b.getMetadata().setNamespace("ns");
    b.getMetadata().setName(name);
    return b;
  }

  private static List<Condition> conditions(String reason) {
    return List.of(new ConditionBuilder().withType("Provisioning").withStatus("True").withReason(reason).build());
  }

  @Test
  void writesInFirstQueuedOrderAndOnlyTheNewestConditionsOfABufferQueuedAgain() throws Exception {
    try (QueuedStatusWriter w = new QueuedStatusWriter(delegate, "test-conditions")) {
      w.writeConditions(buffer("a"), conditions("r1"));
      started.await();
      // while a's first write is in flight
      w.writeConditions(buffer("b"), conditions("r1"));
      w.writeConditions(buffer("a"), conditions("r2"));
      w.writeConditions(buffer("c"), conditions("r1"));
      w.writeConditions(buffer("a"), conditions("r3"));
      assertThat(w.pending()).isEqualTo(3);
      release.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> w.written() == 4);
      assertThat(written).containsExactly("a:r1", "b:r1", "a:r3", "c:r1");
    }
  }

  @Test
  void droppingPendingWritesWaitsForTheOneInFlightAndForgetsTheRest() throws Exception {
    try (QueuedStatusWriter w = new QueuedStatusWriter(delegate, "test-conditions")) {
      w.writeConditions(buffer("a"), conditions("r1"));
      started.await();
      w.writeConditions(buffer("b"), conditions("r1"));
      w.writeConditions(buffer("c"), conditions("r1"));
      CompletableFuture<Boolean> dropped = CompletableFuture.supplyAsync(() -> {
        try {
          return w.dropPending(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      await().atMost(Duration.ofSeconds(10)).until(() -> w.pending() == 0);
      assertThat(dropped).isNotDone(); // a's write is still in flight
      release.countDown();
      assertThat(dropped.get()).isTrue();
      assertThat(written).containsExactly("a:r1");
      assertThat(w.pending()).isZero();
      // later writes go out again
      w.writeConditions(buffer("d"), conditions("r1"));
      await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 2);
      assertThat(written).containsExactly("a:r1", "d:r1");
    }
  }
}
