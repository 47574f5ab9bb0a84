package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.EventRecord;
import dev.headroom.core.autoscaler.ObjectRef;
import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The buffer condition writer and the event sink against the CRUD mock server. */
@EnableKubernetesMockClient(crud = true)
class BufferConditionWriterTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private static Condition condition(String type, String status, String reason) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage("m")
        .withLastTransitionTime("2026-01-01T00:00:00Z").build();
  }

  @Test
  void mergesOnlyTheAutoscalerConditionsAndSurvivesAConflictWithTheController() {
    ClusterFixture f = new ClusterFixture(client, ClusterFixture.options().build(), x -> null);
    CapacityBuffer stale = f.buffer("b", 2, "1", "1Gi");
    // The buffer controller writes in between: a new condition of its own, and a new resourceVersion.
    CapacityBuffer fresh = client.resources(CapacityBuffer.class).inNamespace(ClusterFixture.NS).withName("b").get();
    fresh.getStatus().getConditions().add(condition(BufferConditions.LIMITED_BY_QUOTAS, "False", "ResourceQuotasAllocated"));
    client.resources(CapacityBuffer.class).inNamespace(ClusterFixture.NS).resource(fresh).updateStatus();

    List<Condition> computed = new ArrayList<>(stale.getStatus().getConditions());
    computed.add(condition(BufferConditions.PROVISIONING, "True", "FakePodsInjected"));
    computed.add(condition(BufferConditions.CAPACITY_AVAILABLE, "False", "RequiresNewCapacity"));
    // core's copy still holds the controller's old ReadyForProvisioning; it must not be written back
    computed.set(0, condition(BufferConditions.READY_FOR_PROVISIONING, "False", "stale"));
    conflictOnce();
    new BufferConditionWriter(client).writeConditions(stale, computed);

    List<Condition> stored = f.buffer("b").getStatus().getConditions();
    assertThat(stored).extracting(Condition::getType).containsExactly(BufferConditions.READY_FOR_PROVISIONING,
        BufferConditions.LIMITED_BY_QUOTAS, BufferConditions.PROVISIONING, BufferConditions.CAPACITY_AVAILABLE);
    assertThat(stored.get(0).getStatus()).isEqualTo("True");
    assertThat(stored.get(3).getReason()).isEqualTo("RequiresNewCapacity");
    assertThat(f.buffer("b").getStatus().getReplicas()).isEqualTo(2);
  }

  @Test
  void aCurrentBufferIsWrittenInOneRequestWithoutARead() throws InterruptedException {
    ClusterFixture f = new ClusterFixture(client, ClusterFixture.options().build(), x -> null);
    CapacityBuffer current = f.buffer("b", 2, "1", "1Gi");
    int before = server.getRequestCount();
    List<Condition> computed = new ArrayList<>(current.getStatus().getConditions());
    computed.add(condition(BufferConditions.PROVISIONING, "True", "FakePodsInjected"));
    new BufferConditionWriter(client).writeConditions(current, computed);
    assertThat(server.getRequestCount() - before).as("requests").isEqualTo(1);
    assertThat(server.getLastRequest().getMethod()).isEqualTo("PUT");
    assertThat(server.getLastRequest().getPath()).endsWith("/capacitybuffers/b/status");
    assertThat(f.buffer("b").getStatus().getConditions()).extracting(Condition::getType).contains(BufferConditions.PROVISIONING);
  }

  @Test
  void eventsAreWrittenOnceWithinTheDeduplicationWindow() {
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
    KubernetesEventSink sink = new KubernetesEventSink(client, "headroom-system", clock, Duration.ofMinutes(5), Runnable::run, "me");
    EventRecord e = new EventRecord(new ObjectRef("Pod", "default", "web-1", "uid-1"), EventRecord.NORMAL, "TriggeredScaleUp", "pod triggered scale-up: [{general 0->1 (max: 5)}]");
    EventRecord status = new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, "ScaledUpGroup", "Scale-up: group general size set to 1 instead of 0 (max: 5)");
    sink.emit(e);
    sink.emit(e);
    sink.emit(status);
    clock.advance(Duration.ofMinutes(4));
    sink.emit(e);
    assertThat(sink.written()).isEqualTo(2);
    assertThat(sink.suppressed()).isEqualTo(2);
    clock.advance(Duration.ofMinutes(2));
    sink.emit(e);
    assertThat(sink.written()).isEqualTo(3);
    var events = client.v1().events().inAnyNamespace().list().getItems();
    assertThat(events).filteredOn(x -> x.getReason().equals("TriggeredScaleUp")).hasSize(2).allSatisfy(x -> {
      assertThat(x.getMetadata().getNamespace()).isEqualTo("default");
      assertThat(x.getInvolvedObject().getName()).isEqualTo("web-1");
      assertThat(x.getSource().getComponent()).isEqualTo(KubernetesEventSink.COMPONENT);
    });
    assertThat(events).filteredOn(x -> x.getReason().equals("ScaledUpGroup")).singleElement().satisfies(x -> {
      assertThat(x.getMetadata().getNamespace()).isEqualTo("headroom-system");
      assertThat(x.getInvolvedObject().getKind()).as("no status ConfigMap is written, so none is named").isEqualTo("Namespace");
      assertThat(x.getInvolvedObject().getName()).isEqualTo("headroom-system");
      assertThat(x.getInvolvedObject().getNamespace()).isNull();
      assertThat(x.getInvolvedObject().getApiVersion()).isEqualTo("v1");
    });
  }

  /**
   * The API server's answer to a write locked on a resourceVersion that is no longer current (the CRUD mock does not
   * check the lock on the status subresource).
   */
  private void conflictOnce() {
    server.expect().put()
        .withPath("/apis/" + CapacityBuffer.GROUP + "/" + CapacityBuffer.VERSION + "/namespaces/" + ClusterFixture.NS + "/capacitybuffers/b/status")
        .andReturn(409, new StatusBuilder().withStatus("Failure").withCode(409).withReason("Conflict")
            .withMessage("Operation cannot be fulfilled on capacitybuffers.autoscaling.x-k8s.io \"b\": the object has been modified").build())
        .once();
  }

  private static final String FORBIDDEN =
      "capacitybuffers.autoscaling.x-k8s.io \"b\" is forbidden: User \"headroom\" cannot get resource \"capacitybuffers\"";

  @Test
  void aFailedReadIsLoggedWithTheServersMessageNotTheWholeStatusObject() {
    ClusterFixture f = new ClusterFixture(client, ClusterFixture.options().build(), x -> null);
    CapacityBuffer b = f.buffer("b", 2, "1", "1Gi");
    // the controller wrote since: the write onto b conflicts, and the fresh read is refused
    CapacityBuffer fresh = client.resources(CapacityBuffer.class).inNamespace(ClusterFixture.NS).withName("b").get();
    fresh.getStatus().getConditions().add(condition(BufferConditions.LIMITED_BY_QUOTAS, "False", "ResourceQuotasAllocated"));
    client.resources(CapacityBuffer.class).inNamespace(ClusterFixture.NS).resource(fresh).updateStatus();
    conflictOnce();
    server.expect().get()
        .withPath("/apis/" + CapacityBuffer.GROUP + "/" + CapacityBuffer.VERSION + "/namespaces/" + ClusterFixture.NS + "/capacitybuffers/b")
        .andReturn(403, new StatusBuilder().withStatus("Failure").withCode(403).withReason("Forbidden")
            .withMessage(FORBIDDEN).build())
        .once();
    Logger logger = (Logger) LoggerFactory.getLogger(BufferConditionWriter.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      List<Condition> computed = new ArrayList<>(b.getStatus().getConditions());
      computed.add(condition(BufferConditions.PROVISIONING, "True", "FakePodsInjected"));
      new BufferConditionWriter(client).writeConditions(b, computed);
    } finally {
      logger.detachAppender(appender);
    }
    assertThat(appender.list).singleElement().satisfies(e -> {
      assertThat(e.getLevel()).isEqualTo(Level.WARN);
      assertThat(e.getFormattedMessage())
          .isEqualTo("reading buffer default/b before writing its conditions failed: " + FORBIDDEN);
    });
  }
}
