package dev.headroom.controller.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.testing.RunningController;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.logging.LogFormat;
import dev.headroom.controller.logging.Logging;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code headroom run} against an API server that misbehaves the way real ones do: the CRD not installed yet, a
 * permission missing from the role, the server restarting mid-run, a watch answered {@code 410 Gone}. The controller
 * logs in production's JSON format here, and every expected API error must be one line without a stack trace.
 */
class RunRobustnessE2eTest {
  private static final String NS = "shop";
  private static final String AGENT = "controller";
  private static final String USER = "system:serviceaccount:headroom-system:" + AGENT;

  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private ApiServer api;
  private RunningController controller;

  @BeforeEach
  void jsonLogs() {
    Logging.configure(LogFormat.JSON, Level.INFO, log);
  }

  @AfterEach
  void stop() throws Exception {
    if (controller != null) {
      controller.close();
    }
    if (api != null) {
      api.close();
    }
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    ctx.reset();
    new ContextInitializer(ctx).autoConfig();
  }

  private List<String> lines() {
    synchronized (log) {
      return Arrays.stream(log.toString(StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
    }
  }

  private List<String> linesContaining(String text) {
    return lines().stream().filter(l -> l.contains(text)).toList();
  }

  /** No line of INFO or WARN carries a stack trace (the JSON encoder puts one in an {@code error} field). */
  private void assertNoStackTraces() {
    assertThat(lines()).allSatisfy(l -> {
      assertThat(l).startsWith("{").endsWith("}");
      if (l.contains("\"level\":\"WARN\"") || l.contains("\"level\":\"INFO\"")) {
        assertThat(l).doesNotContain("\"error\":");
      }
    });
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + controller.httpPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private Integer replicas(String name) {
    CapacityBuffer b = api.admin().resources(CapacityBuffer.class).inNamespace(NS).withName(name).get();
    return b == null || b.getStatus() == null ? null : b.getStatus().getReplicas();
  }

  private long statusWrites() {
    return api.writesBy(AGENT).stream().filter(c -> "capacitybuffers".equals(c.resource()) && "status".equals(c.subresource())).count();
  }

  @Test
  void withoutTheCrdItSaysSoOnceStaysNotReadyAndStartsWhenTheCrdIsInstalled() throws Exception {
    api = new ApiServer(false);
    long start = System.nanoTime();
    controller = Fixtures.startObserved(api, AGENT, Fixtures.options(AGENT, false, Duration.ofMinutes(5), false), Duration.ofMillis(50));

    await().atMost(Duration.ofSeconds(20)).until(() -> controller.crdWait().attempts() >= 5);
    // 50 + 100 + 200 + 200 ms between the five checks: a backoff, not a spin
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(550));
    assertThat(controller.notReadyReason()).get().asString()
        .startsWith("the CapacityBuffer CRD (capacitybuffers.autoscaling.x-k8s.io, v1beta1) is not installed; waiting for it")
        .contains("deploy/crds/capacitybuffers.autoscaling.x-k8s.io.yaml");
    HttpResponse<String> ready = get("/readyz");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("CapacityBuffer CRD").doesNotContain("\n ");
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    assertThat(api.callsBy(AGENT)).as("no informer lists anything before the CRD is served")
        .noneMatch(c -> !c.resource().isEmpty() && (c.verb().equals("list") || c.verb().equals("watch")));
    assertThat(linesContaining("is not installed")).hasSize(1).allMatch(l -> l.contains("\"level\":\"WARN\""));

    api.installCrd();
    api.admin().resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    api.admin().resource(Fixtures.templateBuffer(NS, "spare", "worker", 3, null)).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(3).equals(replicas("spare")));
    await().atMost(Duration.ofSeconds(10)).until(controller::isReady);
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
    assertThat(linesContaining("serves capacitybuffers.autoscaling.x-k8s.io now")).hasSize(1);
    assertNoStackTraces();
  }

  @Test
  void aMissingPermissionIsNamedInOneLineKeepsItNotReadyAndClearsWhenGranted() throws Exception {
    api = new ApiServer();
    api.admin().resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    api.admin().resource(Fixtures.templateBuffer(NS, "spare", "worker", 2, null)).create();
    api.dispatcher().deny(c -> c.resource().equals("pods") && c.namespace() == null && (c.verb().equals("list") || c.verb().equals("watch")), USER);
    long start = System.nanoTime();
    controller = Fixtures.startObserved(api, AGENT, Fixtures.options(AGENT, false, Duration.ofMinutes(5), false), Duration.ofMillis(50));

    String expected = "missing permission: list pods (cluster-wide) for " + USER;
    await().atMost(Duration.ofSeconds(20)).until(() -> controller.notReadyReason().filter(expected::equals).isPresent());
    await().atMost(Duration.ofSeconds(20)).until(() -> listPods() >= 4);
    // the informer's own backoff (100 ms, doubling) spaces the retries: at least 100 + 200 + 400 ms for four lists
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(700));
    HttpResponse<String> ready = get("/readyz");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).isEqualTo(expected + "\n");
    assertThat(get("/healthz").statusCode()).as("a missing permission is not a reason to restart").isEqualTo(200);
    assertThat(linesContaining("missing permission")).hasSize(1).allMatch(l -> l.contains("\"level\":\"WARN\"") && l.contains(expected));

    api.dispatcher().allowAll();
    await().atMost(Duration.ofSeconds(30)).until(controller::isReady);
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(2).equals(replicas("spare")));
    assertThat(linesContaining("resolved: " + expected)).hasSize(1);
    assertNoStackTraces();
  }

  private long listPods() {
    return api.callsBy(AGENT).stream().filter(c -> c.resource().equals("pods") && c.verb().equals("list")).count();
  }

  @Test
  void aRestartedApiServerIsRejoinedWithoutLostOrDuplicatedStatusWrites() throws Exception {
    api = new ApiServer();
    api.admin().resource(Fixtures.deployment(NS, "web", 10, "500m")).create();
    api.admin().resource(Fixtures.percentageBuffer(NS, "web-headroom", "apps", "Deployment", "web", 20)).create();
    controller = Fixtures.startObserved(api, AGENT, Fixtures.options(AGENT, false, Duration.ofMinutes(5), false), Duration.ofMillis(50));
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(2).equals(replicas("web-headroom")));
    await().atMost(Duration.ofSeconds(10)).until(controller::isReady);
    long writesBefore = statusWrites();

    api.stop();
    await().atMost(Duration.ofSeconds(30)).until(() -> controller.notReadyReason()
        .filter(r -> r.startsWith("cannot reach the API server") || r.equals(ApiHealth.WATCHES_DOWN_MESSAGE)).isPresent());
    assertThat(get("/healthz").statusCode()).as("a restarting API server is no reason to restart").isEqualTo(200);
    api.start();
    await().atMost(Duration.ofSeconds(60)).until(controller::isReady);

    Deployment d = api.admin().apps().deployments().inNamespace(NS).withName("web").get();
    d.getSpec().setReplicas(50);
    d.getStatus().setReplicas(50);
    api.admin().resource(d).update();
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(10).equals(replicas("web-headroom")));
    await().atMost(Duration.ofSeconds(10)).until(() -> controller.queue().depth() == 0);
    assertThat(statusWrites()).as("one status write for the one change after the restart, none repeated").isEqualTo(writesBefore + 1);
    assertThat(linesContaining(ApiHealth.WATCHES_DOWN_MESSAGE).stream().filter(l -> l.contains("\"level\":\"WARN\""))).hasSizeLessThanOrEqualTo(1);
    assertThat(linesContaining("cannot reach the API server").stream().filter(l -> l.contains("\"level\":\"WARN\""))).hasSizeLessThanOrEqualTo(1);
    assertThat(lines().stream().filter(l -> l.contains("\"level\":\"WARN\""))).as("the outage in a line or two").hasSizeBetween(1, 2);
    assertThat(linesContaining("resolved: ")).hasSizeBetween(1, 2);
    assertThat(linesContaining("API access recovered: reconciling 1 namespace(s) with buffers again")).isNotEmpty();
    assertNoStackTraces();
  }

  @Test
  void aWatchAnsweredGoneIsReListedAndChangesKeepFlowing() throws Exception {
    api = new ApiServer();
    api.admin().resource(Fixtures.deployment(NS, "web", 10, "500m")).create();
    api.admin().resource(Fixtures.percentageBuffer(NS, "web-headroom", "apps", "Deployment", "web", 20)).create();
    api.dispatcher().failNext(c -> c.userAgent() != null && c.userAgent().equals(AGENT) && c.resource().equals("deployments") && c.verb().equals("watch"), 410, 2);
    controller = Fixtures.startObserved(api, AGENT, Fixtures.options(AGENT, false, Duration.ofMinutes(5), false), Duration.ofMillis(50));
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(2).equals(replicas("web-headroom")));
    await().atMost(Duration.ofSeconds(30)).until(() -> deploymentCalls("list") >= 2 && deploymentCalls("watch") >= 3);

    Deployment d = api.admin().apps().deployments().inNamespace(NS).withName("web").get();
    d.getSpec().setReplicas(30);
    d.getStatus().setReplicas(30);
    api.admin().resource(d).update();
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(6).equals(replicas("web-headroom")));
    await().atMost(Duration.ofSeconds(10)).until(controller::isReady);
    assertNoStackTraces();
  }

  private long deploymentCalls(String verb) {
    return api.callsBy(AGENT).stream().filter(c -> c.resource().equals("deployments") && c.verb().equals(verb)).count();
  }
}
