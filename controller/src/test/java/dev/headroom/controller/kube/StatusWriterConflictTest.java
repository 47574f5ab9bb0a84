package dev.headroom.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.controller.autoscaling.BufferConditionWriter;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.controller.metrics.ReconciliationTracker;
import dev.headroom.controller.testing.ApiCall;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The status subresource has two writers, the buffer controller and the autoscaler; with {@code resourceVersion}
 * locking neither may lose the other's update, and a writer that finds the server already holding its status writes
 * nothing more.
 */
class StatusWriterConflictTest {
  private static final String NS = "shop";
  private final ApiServer api = new ApiServer();

  @AfterEach
  void stop() {
    api.close();
  }

  private List<ApiCall> statusPuts(String agent) {
    return api.writesBy(agent).stream().filter(c -> "status".equals(c.subresource()) && c.method().equals("PUT")).toList();
  }

  private static boolean controllerStatusPut(ApiCall c) {
    return "controller".equals(c.userAgent()) && "status".equals(c.subresource()) && c.method().equals("PUT");
  }

  private static CapacityBufferStatus controllerStatus(long generation) {
    CapacityBufferStatus s = new CapacityBufferStatus();
    s.setReplicas(3);
    s.setPodTemplateRef(new LocalObjectRef("worker"));
    s.setPodTemplateGeneration(1L);
    s.setProvisioningStrategy(BufferConditions.STRATEGY_ACTIVE_CAPACITY);
    Condition ready = BufferConditions.ready(generation);
    ready.setLastTransitionTime("2026-03-02T08:00:00Z");
    s.setConditions(new ArrayList<>(List.of(ready)));
    return s;
  }

  @Test
  void aConcurrentAutoscalerWriteIsKeptAndNothingIsWrittenTwice() {
    api.admin().resource(Fixtures.templateBuffer(NS, "b", "worker", 3, null)).create();
    var controllerClient = api.client("controller");
    var autoscalerClient = api.client("autoscaler");
    StatusWriter writer = new StatusWriter(controllerClient,
        new ControllerMetrics(Clock.systemUTC(), List::of, new ReconciliationTracker(), () -> 0, () -> 0), Clock.systemUTC());

    // the controller computes from what its cache holds (resourceVersion rv1) ...
    CapacityBuffer seen = api.admin().resources(CapacityBuffer.class).inNamespace(NS).withName("b").get();
    CapacityBuffer computed = Serialization.clone(seen);
    computed.setStatus(controllerStatus(seen.getMetadata().getGeneration()));
    // ... while the autoscaler writes its Provisioning condition (rv2)
    Condition provisioning = BufferConditions.provisioningSucceeded("CapacityProvisioned", seen.getMetadata().getGeneration());
    provisioning.setLastTransitionTime("2026-03-02T08:00:05Z");
    new BufferConditionWriter(autoscalerClient).writeConditions(seen, List.of(provisioning));
    assertThat(statusPuts("autoscaler")).hasSize(1);

    // the mock's CRUD mode does not check resourceVersion: give the 409 a real API server answers for rv1
    api.dispatcher().failNext(StatusWriterConflictTest::controllerStatusPut, 409, 1);
    StatusWriter.Outcome out = writer.write(computed);
    assertThat(out).isInstanceOf(StatusWriter.Outcome.Written.class);
    assertThat(statusPuts("controller")).as("a 409 on rv1, then one write on the re-read object").hasSize(2);
    CapacityBuffer stored = api.admin().resources(CapacityBuffer.class).inNamespace(NS).withName("b").get();
    assertThat(stored.getStatus().getReplicas()).isEqualTo(3);
    assertThat(stored.getStatus().getConditions()).extracting(Condition::getType, Condition::getStatus).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple(BufferConditions.READY_FOR_PROVISIONING, "True"),
        org.assertj.core.groups.Tuple.tuple(BufferConditions.PROVISIONING, "True"));

    // the same computed status again (a reconcile that raced the write, or one replayed after a reconnect): the
    // stale resourceVersion conflicts, the re-read shows the status is already there, and no write follows
    String rvAfter = stored.getMetadata().getResourceVersion();
    api.dispatcher().failNext(StatusWriterConflictTest::controllerStatusPut, 409, 1);
    assertThat(writer.write(computed)).isInstanceOf(StatusWriter.Outcome.Written.class);
    assertThat(statusPuts("controller")).hasSize(3);
    assertThat(api.admin().resources(CapacityBuffer.class).inNamespace(NS).withName("b").get().getMetadata().getResourceVersion())
        .isEqualTo(rvAfter);
  }
}
