package dev.headroom.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.kube.BufferEvents;
import dev.headroom.controller.logging.LogFormat;
import dev.headroom.controller.logging.Logging;
import dev.headroom.controller.runtime.ControllerLoop;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import dev.headroom.controller.testing.RunningController;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The buffer controller's reconcile results and log context on the CRUD mock server. */
class ReconcileOutcomesTest {
  private static final String NS = "shop";
  private final ApiServer api = new ApiServer();
  private final KubernetesClient admin = api.admin();
  private RunningController controller;

  @AfterEach
  void stop() {
    if (controller != null) {
      controller.close();
    }
    api.close();
    Logging.configure(LogFormat.TEXT, Level.INFO);
  }

  private List<Event> failedEvents() {
    return admin.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> BufferEvents.REASON_FAILED.equals(e.getReason())).toList();
  }

  private long statusWrites() {
    return api.callsBy("controller-a").stream().filter(c -> "capacitybuffers".equals(c.resource()) && "status".equals(c.subresource())).count();
  }

  @Test
  void aStatusTheServerRejectsIsReportedOnceAndNotRetriedUntilTheBufferChanges() {
    admin.resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    admin.resource(Fixtures.templateBuffer(NS, "spare", "worker", 3, null)).create();
    // the status subresource answers 422 Invalid for as long as the test runs
    api.dispatcher().failNext(c -> "capacitybuffers".equals(c.resource()) && "status".equals(c.subresource()), 422, Integer.MAX_VALUE);
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), false));

    await().atMost(Duration.ofSeconds(30)).until(() -> failedEvents().size() == 1);
    assertThat(failedEvents().get(0).getMessage()).contains("status update of shop/spare failed").contains("not retried");
    long writes = statusWrites();
    // a transient failure is retried with backoff from 5 ms (about ten writes in three seconds); a permanent one is
    // not (an informer event of the same inputs may still bring one more reconcile), and is reported only once
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> statusWrites() <= writes + 1 && failedEvents().size() == 1);
    assertThat(controller.queue().retries(NS)).isZero();
    assertThat(controller.metrics().registry().find("headroom.reconcile.duration").tag("result", "failed").timer().count()).isGreaterThanOrEqualTo(1);
    assertThat(controller.metrics().registry().find("headroom.reconcile.duration").tag("result", "error").timer()).isNull();

    // the buffer changes: reconciled again, and the new version is reported once more
    CapacityBuffer b = admin.resources(CapacityBuffer.class).inNamespace(NS).withName("spare").get();
    b.getSpec().setReplicas(4);
    admin.resource(b).update();
    await().atMost(Duration.ofSeconds(30)).until(() -> statusWrites() > writes && failedEvents().size() == 2);
  }

  @Test
  void everyLineOfAReconcileCarriesControllerNamespaceAndReconcileIdInTheJsonLog() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Logging.configure(LogFormat.JSON, Level.DEBUG, out);
    admin.resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    admin.resource(Fixtures.templateBuffer(NS, "spare", "worker", 3, null)).create();
    admin.resource(Fixtures.podTemplate("web", "worker", "1")).create();
    admin.resource(Fixtures.templateBuffer("web", "spare", "worker", 2, null)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), false));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).until(() ->
        admin.resources(CapacityBuffer.class).inNamespace(NS).withName("spare").get().getStatus().getReplicas() == 3
            && admin.resources(CapacityBuffer.class).inNamespace("web").withName("spare").get().getStatus().getReplicas() == 2);
    controller.close();
    controller = null;

    List<Map<String, Object>> lines = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = Serialization.unmarshal(line, Map.class);
        lines.add(fields);
      }
    }
    // every line the worker writes during a reconcile (all but its own start and stop lines), whoever logs it
    List<Map<String, Object>> reconcile = lines.stream().filter(l -> BufferController.NAME.equals(l.get("thread"))
        && !ControllerLoop.class.getName().equals(l.get("logger"))).toList();
    assertThat(reconcile).extracting(l -> l.get("logger")).as("the reconciler's lines").contains(NamespaceReconciler.class.getName());
    assertThat(reconcile).allSatisfy(l -> {
      assertThat(l.get(ControllerLoop.MDC_CONTROLLER)).isEqualTo(BufferController.NAME);
      assertThat(l.get(ControllerLoop.MDC_NAMESPACE)).isIn(NS, "web");
      assertThat((String) l.get(ControllerLoop.MDC_RECONCILE_ID)).hasSize(36);
      assertThat((String) l.get("msg")).contains(l.get(ControllerLoop.MDC_NAMESPACE) + "");
    });
    Set<Object> ids = reconcile.stream().map(l -> l.get(ControllerLoop.MDC_RECONCILE_ID)).collect(Collectors.toSet());
    assertThat(ids).as("one id per reconcile").hasSizeGreaterThanOrEqualTo(2);
    // lines outside a reconcile carry none
    List<Map<String, Object>> managerLines = lines.stream().filter(l -> String.valueOf(l.get("logger")).endsWith(".Manager")).toList();
    assertThat(managerLines).isNotEmpty().allSatisfy(l -> assertThat(l).doesNotContainKey(ControllerLoop.MDC_RECONCILE_ID));
  }
}
