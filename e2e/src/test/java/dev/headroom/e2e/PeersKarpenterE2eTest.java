package dev.headroom.e2e;

import static dev.headroom.e2e.ClusterExplain.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.cli.input.InputDocument;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue #23's first comparison: {@code examples/buffers/quickstart.yaml} in a fresh namespace under Karpenter alone
 * (its KWOK controller, {@code e2e/peers karpenter up}, Headroom not running) and then in another fresh namespace
 * under {@code headroom run} alone (buffer controller and the KWOK autoscaler). Each provisions a node for it; the
 * two statuses of the buffer, once settled, differ exactly as {@link #EXPECTED_DIFFERENCES} says (docs/peers.md
 * explains each), so a new difference fails. Skipped, with one line, when Karpenter is not built.
 */
class PeersKarpenterE2eTest {
  static final String KARPENTER_NODE_LABEL = "karpenter.sh/nodepool";
  static final String BUFFER = "web-headroom";

  /**
   * {@code field: karpenter=… headroom=…}, one line per difference (see docs/peers.md): top-level status fields
   * and, per condition type, its status, reason and message.
   */
  static final List<String> EXPECTED_DIFFERENCES = List.of(
      // 1. a scalableRef buffer: Headroom writes the PodTemplate it manages for it; Karpenter none
      "podTemplateGeneration: karpenter=- headroom=1",
      "podTemplateRef: karpenter=- headroom={\"name\":\"capacitybuffer-web-headroom-pod-template\"}",
      // 2. Headroom's CapacityAvailable (spec §8.1) holds what Karpenter puts into Provisioning
      "condition CapacityAvailable status: karpenter=- headroom=True",
      "condition CapacityAvailable reason: karpenter=- headroom=FitsExistingCapacity",
      "condition CapacityAvailable message: karpenter=- headroom=All 2 virtual pods fit on existing capacity",
      // 3. Karpenter evaluates no ResourceQuota
      "condition LimitedByQuotas status: karpenter=- headroom=False",
      "condition LimitedByQuotas reason: karpenter=- headroom=ResourceQuotasAllocated",
      "condition LimitedByQuotas message: karpenter=- headroom=",
      // 4. Provisioning: Headroom's says the virtual pods are injected, Karpenter's whether they fit
      "condition Provisioning reason: karpenter=FitsExistingCapacity headroom=FakePodsInjected",
      "condition Provisioning message: karpenter=All 2 virtual pods fit on existing capacity headroom=",
      // 5. ReadyForProvisioning: the same status, each controller's own reason and message
      "condition ReadyForProvisioning reason: karpenter=Resolved headroom=AttributesSetSuccessfully",
      "condition ReadyForProvisioning message: karpenter=Pod template resolved successfully headroom=ready");

  private static TestBed bed;
  private static KubernetesClient admin;
  private static final List<String> namespaces = new ArrayList<>();
  private static HeadroomProcess headroom;
  private static String group;
  private static boolean karpenterStarted;

  @BeforeAll
  static void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    Optional<Path> dir = karpenterDir();
    if (dir.isEmpty()) {
      System.out.println("PeersKarpenterE2eTest: skipped: Karpenter's KWOK controller is not built (e2e/peers build)");
    }
    Assumptions.assumeTrue(dir.isPresent(), "Karpenter's KWOK controller is not built (e2e/peers build)");
  }

  @AfterAll
  static void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    for (String ns : namespaces) {
      bed.deleteNamespace(ns);
    }
    if (karpenterStarted) {
      peers("karpenter", "down");
    }
    if (group != null) {
      admin.nodes().withLabel(AutoscalerE2eTest.GROUP_LABEL, group).delete();
    }
  }

  @Test
  void quickstartBufferUnderKarpenterAloneAndUnderHeadroomAloneDiffersExactlyAsDocumented() throws Exception {
    bed.applyCrd();
    List<InputDocument> docs = ClusterExplain.load(bed.root().resolve("examples/buffers/quickstart.yaml"));
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);

    // 1. Karpenter alone.
    karpenterStarted = true;
    Instant karpenterFrom = Instant.now();
    peers("karpenter", "up");
    String kns = ClusterExplain.apply(bed, docs, "karpenter-" + suffix).namespaces().get("shop");
    namespaces.add(kns);
    long t0 = System.nanoTime();
    await("Karpenter provisions a Ready node for the quickstart").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
        .until(() -> admin.nodes().withLabel(KARPENTER_NODE_LABEL).list().getItems().stream().anyMatch(PeersKarpenterE2eTest::readyAndUntainted));
    Measurements.record("Karpenter: quickstart applied to its first node Ready without a not-ready taint (ms)", (System.nanoTime() - t0) / 1_000_000);
    awaitPodsBound(kns, Duration.ofMinutes(3));
    Measurements.record("Karpenter: quickstart applied to all 10 pods bound (ms)", (System.nanoTime() - t0) / 1_000_000);
    JsonNode karpenter = settledStatus(kns);
    recordRequests("Karpenter", "karpenter", karpenterFrom);
    Measurements.record("Karpenter: nodes for the quickstart", admin.nodes().withLabel(KARPENTER_NODE_LABEL).list().getItems().size());
    bed.deleteNamespace(kns);
    namespaces.remove(kns);
    peers("karpenter", "down");
    karpenterStarted = false;
    await("Karpenter's nodes gone").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
        .until(() -> admin.nodes().withLabel(KARPENTER_NODE_LABEL).list().getItems().isEmpty());

    // 2. Headroom alone: buffer controller and the KWOK autoscaler, as AutoscalerE2eTest starts them.
    String hns = ClusterExplain.apply(bed, docs, "headroom-" + suffix).namespaces().get("shop");
    namespaces.add(hns);
    group = "peers-" + suffix;
    Path groups = bed.nodeGroupFile(group, 10);
    t0 = System.nanoTime();
    Instant headroomFrom = Instant.now();
    headroom = HeadroomProcess.start(bed, "headroom-peers-" + suffix, List.of("--leader-elect=false", "--namespace=" + hns,
        "--cloud-provider=kwok", "--node-groups=" + groups, "--scan-interval=1s", "--max-node-provision-time=2m"));
    awaitPodsBound(hns, Duration.ofMinutes(3));
    Measurements.record("Headroom: quickstart applied to all 10 pods bound (ms, including the process start)", (System.nanoTime() - t0) / 1_000_000);
    JsonNode ours = settledStatus(hns);
    recordRequests("Headroom", headroom.user(), headroomFrom);
    Measurements.record("Headroom: nodes for the quickstart", admin.nodes().withLabel(AutoscalerE2eTest.GROUP_LABEL, group).list().getItems().size());

    System.out.println("PeersKarpenterE2eTest: Karpenter's status " + karpenter);
    System.out.println("PeersKarpenterE2eTest: Headroom's status  " + ours);
    assertThat(differences(karpenter, ours)).as("differences of the quickstart buffer's status (docs/peers.md)")
        .containsExactlyElementsOf(EXPECTED_DIFFERENCES);
  }

  /**
   * One line per difference: every top-level field but {@code conditions} by its JSON value, and per condition type
   * its status, reason and message ("-" when the field or the condition is absent).
   */
  static List<String> differences(JsonNode karpenter, JsonNode headroom) {
    List<String> out = new ArrayList<>();
    TreeSet<String> fields = new TreeSet<>();
    karpenter.propertyNames().forEach(fields::add);
    headroom.propertyNames().forEach(fields::add);
    fields.remove("conditions");
    for (String f : fields) {
      String k = value(karpenter.get(f));
      String h = value(headroom.get(f));
      if (!k.equals(h)) {
        out.add(f + ": karpenter=" + k + " headroom=" + h);
      }
    }
    Map<String, JsonNode> kc = conditions(karpenter);
    Map<String, JsonNode> hc = conditions(headroom);
    TreeSet<String> types = new TreeSet<>(kc.keySet());
    types.addAll(hc.keySet());
    for (String type : types) {
      for (String field : List.of("status", "reason", "message")) {
        String k = kc.containsKey(type) ? value(kc.get(type).get(field)) : "-";
        String h = hc.containsKey(type) ? value(hc.get(type).get(field)) : "-";
        if (!k.equals(h)) {
          out.add("condition " + type + " " + field + ": karpenter=" + k + " headroom=" + h);
        }
      }
    }
    return out;
  }

  private static String value(JsonNode n) {
    if (n == null || n.isMissingNode() || n.isNull()) {
      return "-";
    }
    return n.isString() ? n.asString() : n.toString();
  }

  private static Map<String, JsonNode> conditions(JsonNode status) {
    Map<String, JsonNode> out = new TreeMap<>();
    for (JsonNode c : status.path("conditions")) {
      out.put(c.path("type").asString(), c);
    }
    return out;
  }

  /** Requests and writes of {@code user} since {@code from} (the audit log), for the record: item 3 compares them. */
  private static void recordRequests(String who, String user, Instant from) {
    List<AuditLog.Event> events = bed.audit().events(e -> e.user().equals(user) && !e.received().isBefore(from));
    Measurements.record(who + ": API requests from its start until the buffer's status settled (audit log)", events.size());
    Measurements.record(who + ": of them writes", events.stream().filter(AuditLog.Event::write).count());
  }

  /** The buffer's status (conditions without timestamps) once it has not changed for 5 s. */
  private static JsonNode settledStatus(String ns) {
    AtomicReference<JsonNode> last = new AtomicReference<>(JSON.createObjectNode());
    await("status of " + ns + "/" + BUFFER + " settled").atMost(Duration.ofMinutes(2)).during(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(250)).until(() -> {
          JsonNode s = ClusterExplain.clusterStatuses(admin, List.of(ns)).get(ns + "/" + BUFFER);
          boolean same = s != null && s.path("conditions").size() > 0 && s.equals(last.get());
          last.set(s == null ? JSON.createObjectNode() : s);
          return same;
        });
    return last.get();
  }

  private static void awaitPodsBound(String ns, Duration atMost) {
    await("the quickstart's 10 pods bound in " + ns).atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
      List<Pod> pods = admin.pods().inNamespace(ns).withLabel("app", "web").list().getItems();
      return pods.size() == 10 && pods.stream().allMatch(p -> p.getSpec().getNodeName() != null);
    });
  }

  private static boolean readyAndUntainted(Node n) {
    boolean ready = n.getStatus() != null && n.getStatus().getConditions() != null
        && n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    boolean tainted = n.getSpec().getTaints() != null
        && n.getSpec().getTaints().stream().anyMatch(t -> t.getKey().equals("node.kubernetes.io/not-ready"));
    return ready && !tainted;
  }

  /** The directory {@code e2e/peers karpenter path} prints, if Karpenter is built. */
  static Optional<Path> karpenterDir() {
    try {
      return Optional.of(Path.of(peers("karpenter", "path").strip()));
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  private static String peers(String... args) {
    TestBed b = TestBed.get();
    List<String> cmd = new ArrayList<>(List.of(b.root().resolve("e2e/peers").toString()));
    cmd.addAll(List.of(args));
    return Scripts.run(b.root(), b.scriptEnv(), Duration.ofMinutes(5), cmd.toArray(String[]::new));
  }
}
