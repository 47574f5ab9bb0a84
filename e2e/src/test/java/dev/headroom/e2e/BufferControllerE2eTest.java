package dev.headroom.e2e;

import static dev.headroom.e2e.ClusterExplain.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.cli.Explainer;
import dev.headroom.cli.input.InputDocument;
import dev.headroom.core.buffer.BufferSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Item 2: {@code headroom run}'s buffer controller against the real API server, on every example under
 * {@code examples/buffers/}. One Headroom process (leader election off, a 2 s resync) watches the examples'
 * namespaces.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BufferControllerE2eTest {
  static final Duration RESYNC = Duration.ofSeconds(2);
  private static TestBed bed;
  private static KubernetesClient admin;
  private static HeadroomProcess headroom;
  private static final Map<String, ClusterExplain.Applied> applied = new LinkedHashMap<>();
  private static final List<String> namespaces = new ArrayList<>();
  private static final Map<String, List<String>> explainRejected = new LinkedHashMap<>();
  private static String quickstartNamespace;

  @BeforeAll
  static void setUp() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    List<Path> files;
    try (Stream<Path> s = Files.list(bed.root().resolve("examples/buffers"))) {
      files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    int i = 0;
    for (Path f : files) {
      List<InputDocument> docs = ClusterExplain.load(f);
      String tag = suffix + "-" + (i++);
      ClusterExplain.Applied a = ClusterExplain.apply(bed, docs, tag);
      applied.put(f.getFileName().toString(), a);
      namespaces.addAll(a.namespaces().values());
      // What explain says of the file itself: which buffers it rejects (by the renamed namespace).
      Explainer.Result r = new Explainer(new BufferSettings(true)).explain(docs, Instant.now());
      List<String> rejected = new ArrayList<>();
      for (String d : r.diagnostics()) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("CapacityBuffer (\\S+)/(\\S+) rejected").matcher(d);
        if (m.find()) {
          rejected.add(a.namespaces().get(m.group(1)) + "/" + m.group(2));
        }
      }
      explainRejected.put(f.getFileName().toString(), rejected);
      if (f.getFileName().toString().equals("quickstart.yaml")) {
        quickstartNamespace = a.namespaces().get("shop");
      }
    }
    List<String> args = new ArrayList<>(List.of("--leader-elect=false", "--resync-period=" + RESYNC.toSeconds() + "s"));
    for (String ns : namespaces) {
      args.add("--namespace=" + ns);
    }
    headroom = HeadroomProcess.start(bed, "headroom-buffers-" + suffix, args);
  }

  @AfterAll
  static void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    for (String ns : namespaces) {
      bed.deleteNamespace(ns);
    }
  }

  @Test
  @Order(1)
  void theApiServerRejectsExactlyTheBuffersExplainRejects() {
    for (var e : applied.entrySet()) {
      assertThat(e.getValue().rejectedBuffers()).as(e.getKey()).containsExactlyInAnyOrderElementsOf(explainRejected.get(e.getKey()));
    }
    assertThat(applied.get("broken.yaml").rejectedBuffers()).isNotEmpty();
  }

  @Test
  @Order(2)
  void everyStatusTheControllerWritesEqualsWhatExplainPrints() {
    awaitStatusesEqualExplain(Duration.ofSeconds(60));
    Map<String, JsonNode> cluster = ClusterExplain.clusterStatuses(admin, namespaces);
    int admitted = applied.values().stream().mapToInt(a -> a.admittedBuffers().size()).sum();
    assertThat(cluster).hasSize(admitted);
    assertThat(cluster.values()).allSatisfy(s -> assertThat(s.path("conditions").size()).isPositive());
  }

  @Test
  @Order(3)
  void scalingTheDeploymentResizesThePercentageBufferWithinTwoSeconds() {
    awaitStatusesEqualExplain(Duration.ofSeconds(60));
    String key = quickstartNamespace + "/web-headroom";
    int before = ClusterExplain.clusterStatuses(admin, List.of(quickstartNamespace)).get(key).path("replicas").asInt();
    int replicas = admin.apps().deployments().inNamespace(quickstartNamespace).withName("web").get().getSpec().getReplicas();
    long start = System.nanoTime();
    admin.apps().deployments().inNamespace(quickstartNamespace).withName("web").scale(replicas * 2);
    await("buffer re-sized").atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(20))
        .until(() -> ClusterExplain.clusterStatuses(admin, List.of(quickstartNamespace)).get(key).path("replicas").asInt() != before);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    Measurements.record("buffer re-size after a Deployment scale (ms)", took.toMillis());
    awaitStatusesEqualExplain(Duration.ofSeconds(30));
    assertThat(ClusterExplain.clusterStatuses(admin, List.of(quickstartNamespace)).get(key).path("replicas").asInt()).isGreaterThan(before);
  }

  @Test
  @Order(4)
  void aSteadyStateMakesNoWriteOverThreeResyncPeriods() {
    awaitStatusesEqualExplain(Duration.ofSeconds(60));
    // Settled: the statuses are explain's. From now on nothing changes, so nothing may be written.
    AuditLog audit = bed.audit();
    audit.events(e -> false); // parse the log so far (tens of MB after the peers' tests) before the timed window
    Instant from = Instant.now();
    await("no write by " + headroom.user()).during(RESYNC.multipliedBy(3).plusMillis(500)).atMost(RESYNC.multipliedBy(4))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> audit.events(e -> e.user().equals(headroom.user()) && e.write() && e.received().isAfter(from)).isEmpty());
    // The resyncs did happen (Headroom reconciled and decided that nothing changed).
    assertThat(headroom.alive()).isTrue();
    assertThat(audit.events(e -> e.user().equals(headroom.user()) && e.write() && e.received().isAfter(from))).isEmpty();
  }

  @Test
  @Order(5)
  void aConcurrentStatusWriterLosesNoUpdate() {
    String name = "web-headroom";
    String ns = quickstartNamespace;
    AuditLog audit = bed.audit();
    Instant from = Instant.now();
    var buffers = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND).inNamespace(ns);
    int conflicts = 0;
    int round = 0;
    int replicas = admin.apps().deployments().inNamespace(ns).withName("web").get().getSpec().getReplicas();
    while (round < 60 && conflicts == 0) {
      round++;
      String message = null;
      // Change what Headroom computes, and meanwhile write a condition of our own on the same status, a few times
      // in a row so that one of our writes lands between Headroom's read of its cache and its write.
      admin.apps().deployments().inNamespace(ns).withName("web").scale(replicas + round);
      for (int burst = 0; burst < 4; burst++) {
        message = "round " + round + "." + burst;
        writeForeignCondition(buffers.withName(name), message);
      }
      String last = message;
      await("round " + round + " settled").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
        GenericKubernetesResource b = buffers.withName(name).get();
        assertThat(foreignMessage(b)).as("our condition survives").isEqualTo(last);
        assertThat(ClusterExplain.clusterStatuses(admin, List.of(ns)))
            .isEqualTo(ClusterExplain.explainStatuses(admin, List.of(ns), Instant.now()));
      });
      conflicts = audit.events(e -> e.user().equals(headroom.user()) && e.received().isAfter(from) && e.bufferWrite()
          && e.name().equals(name) && e.code() == 409).size();
    }
    Measurements.record("rounds until Headroom met a 409 on the status", round);
    assertThat(conflicts).as("Headroom met a 409 on the buffer's status within %d rounds", round).isPositive();
  }

  @SuppressWarnings("unchecked")
  private static void writeForeignCondition(io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> r, String message) {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource b = r.get();
      Map<String, Object> status = (Map<String, Object>) b.getAdditionalProperties().computeIfAbsent("status", k -> new LinkedHashMap<>());
      List<Map<String, Object>> conditions = new ArrayList<>((List<Map<String, Object>>) status.getOrDefault("conditions", List.of()));
      conditions.removeIf(c -> ((String) c.get("type")).startsWith(ClusterExplain.FOREIGN_PREFIX));
      conditions.add(new LinkedHashMap<>(Map.of("type", ClusterExplain.FOREIGN_PREFIX + "Audited", "status", "True",
          "reason", "Audited", "message", message, "lastTransitionTime", Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString())));
      status.put("conditions", conditions);
      try {
        r.updateStatus(b);
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt > 20) {
          throw e;
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static String foreignMessage(GenericKubernetesResource b) {
    Object status = b.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> list)) {
      return null;
    }
    for (Object o : list) {
      Map<String, Object> c = (Map<String, Object>) o;
      if (((String) c.get("type")).startsWith(ClusterExplain.FOREIGN_PREFIX)) {
        return (String) c.get("message");
      }
    }
    return null;
  }

  private static void awaitStatusesEqualExplain(Duration atMost) {
    await("statuses equal explain's").atMost(atMost).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
      Map<String, JsonNode> cluster = ClusterExplain.clusterStatuses(admin, namespaces);
      Map<String, JsonNode> explain = ClusterExplain.explainStatuses(admin, namespaces, Instant.now());
      assertThat(cluster).as("cluster statuses (left) against explain (right)").isEqualTo(explain);
    });
  }

}
