package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Buffers that pods consume ({@link BufferConsumption}), through the namespace reconcile so that the overlay's place
 * in it (after translation, before the schedule and the quotas) is part of what is tested. Each reconcile starts from
 * the status the previous one wrote, as the controller's next reconcile reads it back from the API server.
 */
class BufferConsumptionTest {

  static final Instant CREATED = Instant.parse("2026-03-02T08:00:00Z");

  final InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
  final BufferReconciler reconciler = new BufferReconciler(BufferSettings.defaults());
  final List<HasMetadata> objects = new ArrayList<>(List.of(Fixtures.template("pod-temp", "cpu=1")));
  final Map<String, CapacityBuffer> buffers = new LinkedHashMap<>();
  NamespaceResult last;

  CapacityBuffer buffer(String name, int replicas, String... annotations) {
    CapacityBuffer b = Fixtures.templateBuffer(name, "pod-temp", replicas, null);
    b.getMetadata().setCreationTimestamp(CREATED.toString());
    b.getMetadata().setGeneration(1L);
    b.getSpec().setProvisioningStrategy(Fixtures.ACTIVE);
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i < annotations.length; i += 2) {
      a.put(annotations[i], annotations[i + 1]);
    }
    b.getMetadata().setAnnotations(a);
    buffers.put(name, b);
    return b;
  }

  static Pod pod(String name, String app, String phase) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(Fixtures.NS).addToLabels("app", app).endMetadata()
        .withNewSpec().withNodeName("Pending".equals(phase) ? null : "node-1").endSpec()
        .withNewStatus().withPhase(phase).endStatus().build();
  }

  void pods(String app, int running, int pending) {
    objects.removeIf(o -> o instanceof Pod p && app.equals(p.getMetadata().getLabels().get("app")));
    for (int i = 0; i < running; i++) {
      objects.add(pod(app + "-r" + i, app, "Running"));
    }
    for (int i = 0; i < pending; i++) {
      objects.add(pod(app + "-p" + i, app, "Pending"));
    }
  }

  /** One reconcile at {@code now}; the statuses it computed become the stored ones. */
  NamespaceResult reconcile(Instant now) {
    InMemoryClusterView view = new InMemoryClusterView();
    objects.forEach(view::add);
    buffers.values().forEach(view::add);
    last = reconciler.reconcileNamespace(Fixtures.NS, view, store, new DefaultingPodResolver(), now);
    for (BufferOutcome o : last.buffers()) {
      buffers.put(o.buffer().getMetadata().getName(), o.buffer());
    }
    return last;
  }

  Integer replicas(String name) {
    return buffers.get(name).getStatus().getReplicas();
  }

  Optional<Condition> condition(String name, String type) {
    return StatusConditions.find(buffers.get(name).getStatus().getConditions(), type);
  }

  @Test
  void aDedicatedBufferKeepsOnlyWhatItsLivePodsDoNotHold() {
    buffer("web", 10, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=web");
    pods("web", 4, 1);
    objects.add(pod("web-done", "web", "Succeeded"));
    objects.add(pod("web-failed", "web", "Failed"));
    Pod deleting = pod("web-deleting", "web", "Running");
    deleting.getMetadata().setDeletionTimestamp("2026-03-02T08:59:00Z");
    objects.add(deleting);
    objects.add(pod("other", "db", "Running"));

    reconcile(CREATED.plusSeconds(60));

    assertThat(replicas("web")).as("10 chunks, 4 running and 1 pending pod of the workload hold 5").isEqualTo(5);
    Condition consumed = condition("web", BufferConsumption.CONSUMED).orElseThrow();
    assertThat(consumed.getStatus()).isEqualTo("True");
    assertThat(consumed.getReason()).isEqualTo(BufferConsumption.REASON_CONSUMED_BY_PODS);
    assertThat(consumed.getMessage()).isEqualTo("5 of 10 chunks consumed by pods matching app=web");
    assertThat(condition("web", BufferConsumption.FULFILLED)).as("only one-shot buffers are fulfilled").isEmpty();
    assertThat(condition("web", BufferConditions.READY_FOR_PROVISIONING).orElseThrow().getStatus()).isEqualTo("True");
  }

  @Test
  void aDedicatedBufferIsRefilledWhenItsPodsGoAndEmptyWhenTheWorkloadOutgrowsIt() {
    buffer("web", 3, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=web");
    pods("web", 5, 0);
    reconcile(CREATED.plusSeconds(60));
    assertThat(replicas("web")).isZero();
    assertThat(condition("web", BufferConsumption.CONSUMED).orElseThrow().getMessage()).isEqualTo("3 of 3 chunks consumed by pods matching app=web");

    pods("web", 1, 0);
    reconcile(CREATED.plusSeconds(120));
    assertThat(replicas("web")).as("recreate: chunks whose pods went come back").isEqualTo(2);

    pods("web", 0, 0);
    reconcile(CREATED.plusSeconds(180));
    assertThat(replicas("web")).isEqualTo(3);
    assertThat(condition("web", BufferConsumption.CONSUMED).orElseThrow().getStatus()).isEqualTo("False");
  }

  @Test
  void aOneShotBufferShrinksAsItFillsIsNotRefilledAndLatchesFulfilled() {
    buffer("batch", 5, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=job",
        BufferConsumption.ANNOTATION_REFILL_STRATEGY, BufferConsumption.REFILL_NONE);
    reconcile(CREATED.plusSeconds(10));
    assertThat(replicas("batch")).isEqualTo(5);
    assertThat(condition("batch", BufferConsumption.FULFILLED).orElseThrow().getReason()).isEqualTo(BufferConsumption.REASON_FILLING);

    pods("job", 2, 0);
    reconcile(CREATED.plusSeconds(20));
    assertThat(replicas("batch")).isEqualTo(3);
    assertThat(condition("batch", BufferConsumption.FULFILLED).orElseThrow().getMessage()).isEqualTo("2 of 5 chunks consumed");

    pods("job", 0, 0);
    reconcile(CREATED.plusSeconds(30));
    assertThat(replicas("batch")).as("consumed chunks are not recreated: the count is a high-water mark").isEqualTo(3);

    pods("job", 4, 1);
    reconcile(CREATED.plusSeconds(40));
    assertThat(replicas("batch")).isZero();
    Condition fulfilled = condition("batch", BufferConsumption.FULFILLED).orElseThrow();
    assertThat(fulfilled.getStatus()).isEqualTo("True");
    assertThat(fulfilled.getReason()).isEqualTo(BufferConsumption.REASON_FILLED);

    pods("job", 0, 0);
    buffers.get("batch").getSpec().setReplicas(8);
    reconcile(CREATED.plusSeconds(50));
    assertThat(replicas("batch")).as("a fulfilled one-shot buffer stays empty, even when its spec grows").isZero();
    assertThat(condition("batch", BufferConsumption.FULFILLED).orElseThrow().getReason()).isEqualTo(BufferConsumption.REASON_FILLED);
  }

  @Test
  void aOneShotBufferGivesUpAtItsFillDeadlineAndAsksToBeReconciledThen() {
    buffer("batch", 4, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=job",
        BufferConsumption.ANNOTATION_REFILL_STRATEGY, BufferConsumption.REFILL_NONE,
        BufferConsumption.ANNOTATION_FILL_DEADLINE_SECONDS, "600");
    pods("job", 1, 0);
    NamespaceResult r = reconcile(CREATED.plusSeconds(100));
    assertThat(replicas("batch")).isEqualTo(3);
    assertThat(r.nextBoundary()).contains(CREATED.plusSeconds(600));
    assertThat(condition("batch", BufferConsumption.FULFILLED).orElseThrow().getMessage())
        .isEqualTo("1 of 4 chunks consumed; fill deadline 2026-03-02T08:10:00Z");

    r = reconcile(CREATED.plusSeconds(600));
    assertThat(replicas("batch")).isZero();
    Condition fulfilled = condition("batch", BufferConsumption.FULFILLED).orElseThrow();
    assertThat(fulfilled.getStatus()).isEqualTo("False");
    assertThat(fulfilled.getReason()).isEqualTo(BufferConsumption.REASON_FILL_DEADLINE_EXCEEDED);
    assertThat(fulfilled.getMessage())
        .isEqualTo("1 of 4 chunks consumed when the fill deadline of 600s passed at 2026-03-02T08:10:00Z; the buffer keeps no capacity");
    assertThat(r.nextBoundary()).isEmpty();

    pods("job", 4, 0);
    reconcile(CREATED.plusSeconds(700));
    assertThat(replicas("batch")).as("the deadline is terminal too").isZero();
    assertThat(condition("batch", BufferConsumption.FULFILLED).orElseThrow().getReason()).isEqualTo(BufferConsumption.REASON_FILL_DEADLINE_EXCEEDED);
  }

  @Test
  void consumptionComesBeforeTheScheduleSoAnInactiveOneShotBufferDoesNotCountAsFilled() {
    CapacityBuffer b = buffer("nightly", 2, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=job",
        BufferConsumption.ANNOTATION_REFILL_STRATEGY, BufferConsumption.REFILL_NONE);
    b.getMetadata().getAnnotations().put(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, "Mon 20:00-22:00 UTC");
    reconcile(CREATED.plusSeconds(10));
    assertThat(replicas("nightly")).as("outside its schedule").isZero();
    assertThat(condition("nightly", BufferConsumption.FULFILLED).orElseThrow().getReason()).isEqualTo(BufferConsumption.REASON_FILLING);
    assertThat(condition("nightly", BufferConsumption.CONSUMED).orElseThrow().getMessage()).isEqualTo("0 of 2 chunks consumed by pods matching app=job");
  }

  @Test
  void theQuotaCapsTheRemainderNotTheChunksThePodsHold() {
    buffer("web", 6, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=web");
    pods("web", 2, 0);
    // the two pods already count in the quota's usage: 5 cpu hard, 2 used leaves room for 3 chunks of 1 cpu
    objects.add(Fixtures.quota("q", "cpu=5", "cpu=2"));
    reconcile(CREATED.plusSeconds(60));
    assertThat(replicas("web")).isEqualTo(3);
    assertThat(condition("web", BufferConditions.LIMITED_BY_QUOTAS).orElseThrow().getMessage())
        .isEqualTo("Buffer replicas limited from 4 to 3 due to quotas: q");
  }

  @Test
  void removingTheAnnotationsMakesItAPlainBufferAgain() {
    CapacityBuffer b = buffer("web", 4, BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=web");
    pods("web", 3, 0);
    reconcile(CREATED.plusSeconds(60));
    assertThat(replicas("web")).isEqualTo(1);
    buffers.get("web").getMetadata().getAnnotations().clear();
    reconcile(CREATED.plusSeconds(120));
    assertThat(replicas("web")).isEqualTo(4);
    assertThat(condition("web", BufferConsumption.CONSUMED)).isEmpty();
    assertThat(b).isNotNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "no selector|refill-strategy=none|headroom.dev/consumer-selector is required with [headroom.dev/refill-strategy]",
      "empty selector|consumer-selector=|headroom.dev/consumer-selector \"\": must select some pods (an empty selector matches every pod of the namespace)",
      "bad selector|consumer-selector=app in (a|PREFIX",
      "bad strategy|consumer-selector=app=x;refill-strategy=once|headroom.dev/refill-strategy \"once\": must be recreate or none",
      "deadline without none|consumer-selector=app=x;fill-deadline-seconds=60|headroom.dev/fill-deadline-seconds \"60\": needs headroom.dev/refill-strategy: none (a buffer that is refilled has no fill deadline)",
      "deadline not a number|consumer-selector=app=x;refill-strategy=none;fill-deadline-seconds=1h|headroom.dev/fill-deadline-seconds \"1h\": not a whole number of seconds",
      "deadline zero|consumer-selector=app=x;refill-strategy=none;fill-deadline-seconds=0|headroom.dev/fill-deadline-seconds \"0\": must be greater than 0",
  })
  void aMalformedAnnotationMakesOnlyThatBufferNotReadyAndSaysWhy(String caseName, String annotations, String expected) {
    List<String> kv = new ArrayList<>();
    for (String pair : annotations.split(";")) {
      int eq = pair.indexOf('=');
      kv.add("headroom.dev/" + pair.substring(0, eq));
      kv.add(pair.substring(eq + 1));
    }
    buffer("bad", 2, kv.toArray(String[]::new));
    buffer("good", 2);
    NamespaceResult r = reconcile(CREATED.plusSeconds(60));

    Condition ready = condition("bad", BufferConditions.READY_FOR_PROVISIONING).orElseThrow();
    assertThat(ready.getStatus()).isEqualTo("False");
    String prefix = "Buffer not ready for provisioning: " + BufferConsumption.ERR_INVALID;
    if (expected.equals("PREFIX")) {
      assertThat(ready.getMessage()).startsWith(prefix + "headroom.dev/consumer-selector \"app in (a\": ");
    } else {
      assertThat(ready.getMessage()).isEqualTo(prefix + expected);
    }
    assertThat(replicas("bad")).isNull();
    assertThat(buffers.get("bad").getStatus().getPodTemplateRef().getName()).as("the template it resolved stays named").isNotNull();
    assertThat(replicas("good")).isEqualTo(2);
    assertThat(condition("good", BufferConditions.READY_FOR_PROVISIONING).orElseThrow().getStatus()).isEqualTo("True");
    assertThat(r.errors()).isEmpty();
  }
}
