package dev.headroom.controller.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.controller.BufferController;
import dev.headroom.controller.ControllerOptions;
import dev.headroom.controller.autoscaling.AutoscalerRuntime;
import dev.headroom.controller.autoscaling.AutoscalerSettings;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.http.MetricsServer;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.controller.testing.ApiCall;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manager on the CRUD mock server: one informer per kind and scope, leader runnables, registered checks. */
class ManagerTest {
  static final String GROUPS = """
      apiVersion: headroom.dev/v1alpha1
      kind: NodeGroup
      metadata:
        name: general
      spec:
        minSize: 0
        maxSize: 3
        template:
          status:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      """;

  private final ApiServer api = new ApiServer();
  private final List<Manager> managers = new CopyOnWriteArrayList<>();
  @TempDir Path dir;

  @AfterEach
  void tearDown() {
    managers.forEach(Manager::close);
    api.close();
  }

  private Manager manager(String identity, ControllerOptions options) {
    KubernetesClient client = api.client(identity);
    Manager m = new Manager(client, options.manager(MetricsServer.Options.PLAIN), new ApiHealth(null), new CrdWait.Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    managers.add(m);
    return m;
  }

  static AutoscalerSettings kwok(Path groups) {
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.SCAN_INTERVAL, Duration.ofSeconds(1)).build();
    return new AutoscalerSettings("kwok", o, "headroom-system", groups, null, Duration.ZERO, 30);
  }

  @Test
  void theBufferControllerAndTheAutoscalerShareOneInformerPerKindAndScope() throws IOException {
    Path groups = Files.writeString(dir.resolve("groups.yaml"), GROUPS);
    ControllerOptions options = Fixtures.options("a", false, Duration.ofMinutes(5), false);
    Manager m = manager("a", options);
    // as `headroom run` wires it: the autoscaler's shared informers first, then the buffer controller (whose
    // CapacityBuffer informer resyncs), then the autoscaler
    AutoscalerRuntime.registerInformers(m.cache());
    new BufferController(m, options, Clock.systemUTC(), Ticker.SYSTEM);
    AutoscalerRuntime.create(m, kwok(groups), Clock.systemUTC(), "a", new CrdWait.Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    m.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> m.notReadyReason().isEmpty());

    // the registry: every kind once, cluster-wide; the kinds both read (Pod, CapacityBuffer, PodTemplate) included
    assertThat(m.cache().keys()).extracting(InformerCache.Key::kind).doesNotHaveDuplicates()
        .contains("Pod", "CapacityBuffer", "PodTemplate", "Node", "PodDisruptionBudget", "ResourceQuota", "Deployment");
    assertThat(m.cache().keys()).allSatisfy(k -> assertThat(k.namespace()).isNull());

    // the API server: one list and one watch per resource (a watch opens just after its list)
    List<String> resources = List.of("pods", "capacitybuffers", "podtemplates", "nodes", "poddisruptionbudgets", "resourcequotas",
        "deployments", "replicasets", "statefulsets", "jobs", "replicationcontrollers");
    await().atMost(Duration.ofSeconds(30)).until(() -> count(api.callsBy("a"), "watch").keySet().containsAll(resources));
    List<ApiCall> calls = api.callsBy("a");
    Map<String, Long> lists = count(calls, "list");
    Map<String, Long> watches = count(calls, "watch");
    for (String r : resources) {
      assertThat(lists).as("lists of " + r).containsEntry(r, 1L);
      assertThat(watches).as("watches of " + r).containsEntry(r, 1L);
    }
  }

  private static Map<String, Long> count(List<ApiCall> calls, String verb) {
    return calls.stream().filter(c -> c.verb().equals(verb) && c.namespace() == null)
        .collect(Collectors.groupingBy(ApiCall::resource, TreeMap::new, Collectors.counting()));
  }

  @Test
  void namespacedInformersAreKeyedByScope() throws IOException {
    ControllerOptions options = new ControllerOptions(List.of("shop", "web"), true, false, false, Fixtures.options("a", false, Duration.ofMinutes(5), false).lease(),
        Fixtures.options("a", false, Duration.ofMinutes(5), false).timing(), 0, Duration.ofMinutes(5), dev.headroom.core.buffer.BufferSettings.defaults(),
        ControllerOptions.DEFAULT_DRY_RUN_CACHE_TTL);
    Manager m = manager("a", options);
    new BufferController(m, options, Clock.systemUTC(), Ticker.SYSTEM);
    assertThat(m.cache().keys()).contains(new InformerCache.Key("Pod", "shop"), new InformerCache.Key("Pod", "web"))
        .doesNotContain(new InformerCache.Key("Pod", null));
    // asking again for a kind and scope gives the same informer
    assertThat(m.cache().informer(io.fabric8.kubernetes.api.model.Pod.class, "shop", Duration.ZERO))
        .isSameAs(m.cache().informer(io.fabric8.kubernetes.api.model.Pod.class, "shop", Duration.ZERO));
  }

  @Test
  void aNamespacedBufferControllerSharesTheAutoscalersClusterWidePodInformer() throws IOException {
    Path groups = Files.writeString(dir.resolve("groups.yaml"), GROUPS);
    ControllerOptions base = Fixtures.options("a", false, Duration.ofMinutes(5), false);
    ControllerOptions options = new ControllerOptions(List.of("shop"), true, false, false, base.lease(), base.timing(), 0, Duration.ofMinutes(5),
        dev.headroom.core.buffer.BufferSettings.defaults(), ControllerOptions.DEFAULT_DRY_RUN_CACHE_TTL);
    Manager m = manager("a", options);
    // as `headroom run` wires it: the autoscaler's informers first, then the buffer controller, then the autoscaler
    AutoscalerRuntime.registerInformers(m.cache());
    new BufferController(m, options, Clock.systemUTC(), Ticker.SYSTEM);
    AutoscalerRuntime.create(m, kwok(groups), Clock.systemUTC(), "a", new CrdWait.Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    m.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> m.notReadyReason().isEmpty());

    // Pod and PodTemplate once, cluster-wide; CapacityBuffer in both scopes (the controller's resyncs, the autoscaler's not)
    assertThat(m.cache().keys()).contains(new InformerCache.Key("Pod", null), new InformerCache.Key("PodTemplate", null),
        new InformerCache.Key("CapacityBuffer", "shop"), new InformerCache.Key("CapacityBuffer", null), new InformerCache.Key("ResourceQuota", "shop"))
        .doesNotContain(new InformerCache.Key("Pod", "shop"), new InformerCache.Key("PodTemplate", "shop"));
    await().atMost(Duration.ofSeconds(30)).until(() -> count(api.callsBy("a"), "watch").containsKey("pods"));
    assertThat(api.callsBy("a")).filteredOn(c -> c.resource().equals("pods") && (c.verb().equals("list") || c.verb().equals("watch")))
        .extracting(c -> c.verb() + " " + c.namespace()).containsExactlyInAnyOrder("list null", "watch null");
  }

  /** Records its starts and stops. */
  static final class Recording implements Manager.Runnable {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void start() {
      events.add("start");
    }

    @Override
    public void stop() {
      events.add("stop");
    }
  }

  @Test
  void leaderRunnablesStartWhenTheLeaseIsWonAndStopWhenItIsLost() throws Exception {
    Manager a = manager("a", Fixtures.options("a", true, Duration.ofMinutes(5), false));
    Manager b = manager("b", Fixtures.options("b", true, Duration.ofMinutes(5), false));
    Recording ra = new Recording();
    Recording rb = new Recording();
    Recording always = new Recording();
    a.add(ra, true);
    a.add(always, false);
    b.add(rb, true);
    a.start();
    await().atMost(Duration.ofSeconds(30)).until(a::isLeader);
    assertThat(ra.events).containsExactly("start");
    assertThat(always.events).containsExactly("start");
    b.start();
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> rb.events.isEmpty());

    // released on close: a's runnable stops, b takes over
    a.close();
    assertThat(ra.events).containsExactly("start", "stop");
    assertThat(always.events).containsExactly("start", "stop");
    assertThat(a.awaitTermination()).isZero();
    await().atMost(Duration.ofSeconds(30)).until(b::isLeader);
    assertThat(rb.events).containsExactly("start");

    // lost (another holder took the Lease): b's runnable stops and the process ends with 1
    KubernetesClient admin = api.admin();
    admin.leases().inNamespace("headroom-system").withName(ControllerOptions.DEFAULT_LEASE_NAME).edit(l -> {
      l.getSpec().setHolderIdentity("someone-else");
      l.getSpec().setLeaseDurationSeconds(3600);
      l.getSpec().setRenewTime(ZonedDateTime.now());
      l.getSpec().setAcquireTime(ZonedDateTime.now());
      return l;
    });
    assertThat(b.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(b.awaitTermination()).isEqualTo(1);
    assertThat(rb.events).containsExactly("start", "stop");
    assertThat(b.isLeader()).isFalse();
    Lease lease = admin.leases().inNamespace("headroom-system").withName(ControllerOptions.DEFAULT_LEASE_NAME).get();
    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("someone-else");
  }

  @Test
  void registeredChecksDecideReadinessAndLivenessAfterTheCaches() throws Exception {
    Manager m = manager("a", Fixtures.options("a", false, Duration.ofMinutes(5), false));
    String[] ready = {"warming up"};
    String[] live = {null};
    m.addReadinessCheck("test", () -> Optional.ofNullable(ready[0]));
    m.addLivenessCheck("test", () -> Optional.ofNullable(live[0]));
    assertThat(m.checks()).containsExactly("test", "test");
    assertThat(m.notReadyReason()).contains("starting");
    m.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> m.notReadyReason().equals(Optional.of("warming up")));
    assertThat(probe(m.httpPort(), "/readyz")).isEqualTo("503 warming up");
    ready[0] = null;
    assertThat(probe(m.httpPort(), "/readyz")).isEqualTo("200 ok");
    assertThat(probe(m.httpPort(), "/healthz")).isEqualTo("200 ok");
    live[0] = "stuck";
    assertThat(probe(m.httpPort(), "/healthz")).isEqualTo("503 stuck");
    // plain mode: /metrics on the probe port, with the manager's leader gauge
    assertThat(probe(m.httpPort(), "/metrics")).startsWith("200 ").contains(Manager.LEADER_METRIC + " 1.0");
  }

  static String probe(int port, String path) throws Exception {
    java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port + path)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    return r.statusCode() + " " + r.body().trim();
  }
}
