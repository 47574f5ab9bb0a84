package dev.headroom.controller.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.testing.RunningController;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.controller.testing.ApiCall;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SteadyStateE2eTest {
  private final ApiServer api = new ApiServer();
  private RunningController controller;

  @AfterEach
  void stop() {
    if (controller != null) {
      controller.close();
    }
    api.close();
  }

  private boolean allHaveStatus(List<String> names) {
    for (String n : names) {
      String ns = n.split("/")[0];
      CapacityBuffer b = api.admin().resources(CapacityBuffer.class).inNamespace(ns).withName(n.split("/")[1]).get();
      if (b.getStatus() == null || b.getStatus().getReplicas() == null) {
        return false;
      }
    }
    return true;
  }

  private double reconciles() {
    var timer = controller.metrics().registry().find("headroom.reconcile.duration").tag("result", "success").timer();
    return timer == null ? 0 : timer.count();
  }

  @Test
  void severalResyncsWithNothingChangedMakeZeroWriteRequests() throws Exception {
    for (String ns : List.of("a", "b", "c")) {
      api.admin().resource(Fixtures.deployment(ns, "web", 10, "500m")).create();
      api.admin().resource(Fixtures.percentageBuffer(ns, "web-headroom", "apps", "Deployment", "web", 20)).create();
      api.admin().resource(Fixtures.podTemplate(ns, "worker", "1")).create();
      api.admin().resource(Fixtures.templateBuffer(ns, "spare", "worker", 3, Map.of("cpu", "2"))).create();
    }
    List<String> all = List.of("a/web-headroom", "a/spare", "b/web-headroom", "b/spare", "c/web-headroom", "c/spare");
    controller = Fixtures.start(api, "controller", Fixtures.options("controller", false, Duration.ofMillis(400), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).until(() -> allHaveStatus(all));
    await().atMost(Duration.ofSeconds(10)).until(() -> controller.queue().depth() == 0 && controller.queue().waitingCount() == 0);

    api.dispatcher().clearCalls();
    double before = reconciles();
    // three resyncs of three namespaces each
    await().atMost(Duration.ofSeconds(30)).until(() -> reconciles() >= before + 9);

    List<ApiCall> calls = api.callsBy("controller");
    assertThat(calls.stream().filter(ApiCall::mutating)).as("write requests in steady state").isEmpty();
    assertThat(calls.stream().filter(ApiCall::dryRun)).as("dry runs in steady state").isEmpty();
    assertThat(calls.stream().filter(c -> !c.verb().equals("watch"))).as("the steady state reads only caches").isEmpty();

    HttpResponse<String> metrics = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + controller.httpPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains(ControllerMetrics.OLDEST_RECONCILIATION + "{new_buffer=\"true\"}")
        .contains(ControllerMetrics.OLDEST_RECONCILIATION + "{new_buffer=\"false\"}")
        .contains("headroom_buffers{status=\"True\",type=\"ReadyForProvisioning\"} 6")
        .contains("headroom_reconcile_duration_seconds_bucket")
        .contains("headroom_status_writes_total{result=\"written\"} 6")
        .contains(ControllerMetrics.WORKQUEUE_DEPTH)
        .contains(ControllerMetrics.WORKQUEUE_RETRIES);
    HttpResponse<String> ready = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + controller.httpPort() + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).isEqualTo(200);
  }

  @Test
  void aServerThatRefusesDryRunsFallsBackToTheDefaultingResolver() {
    api.dispatcher().refuseDryRun(true);
    api.admin().resource(Fixtures.deployment("x", "web", 10, "500m")).create();
    api.admin().resource(Fixtures.percentageBuffer("x", "web-headroom", "apps", "Deployment", "web", 50)).create();
    controller = Fixtures.start(api, "controller", Fixtures.options("controller", false, Duration.ofMinutes(5), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).until(() -> allHaveStatus(List.of("x/web-headroom")));
    CapacityBuffer b = api.admin().resources(CapacityBuffer.class).inNamespace("x").withName("web-headroom").get();
    assertThat(b.getStatus().getReplicas()).isEqualTo(5);
    assertThat(controller.dryRunFellBack()).isTrue();
    assertThat(controller.metrics().scrape()).contains(ControllerMetrics.DRY_RUN_FALLBACK + " 1");
  }

  @Test
  void withNamespaceFlagsOnlyThoseNamespacesAreWatched() {
    for (String ns : List.of("watched", "ignored")) {
      api.admin().resource(Fixtures.podTemplate(ns, "worker", "1")).create();
      api.admin().resource(Fixtures.templateBuffer(ns, "spare", "worker", 2, null)).create();
    }
    var base = Fixtures.options("controller", false, Duration.ofMinutes(5), true);
    var options = new dev.headroom.controller.ControllerOptions(List.of("watched"), true, true, false, base.lease(), base.timing(),
        0, base.resyncPeriod(), base.settings(), base.dryRunCacheTtl());
    controller = Fixtures.start(api, "controller", options);
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).until(() -> allHaveStatus(List.of("watched/spare")));
    await().atMost(Duration.ofSeconds(10)).until(() -> controller.queue().depth() == 0);
    assertThat(api.admin().resources(CapacityBuffer.class).inNamespace("ignored").withName("spare").get().getStatus()).isNull();
    assertThat(api.callsBy("controller")).allSatisfy(c -> assertThat(c.namespace()).isIn("watched", null));
  }
}
