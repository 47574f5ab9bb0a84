package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.cli.input.InputDocument;
import dev.headroom.controller.autoscaling.BufferConditionWriter;
import dev.headroom.controller.kube.StatusWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue #23 item 2: Headroom's buffer controller beside the upstream Cluster Autoscaler. {@code headroom run} runs as
 * the buffer controller only (no {@code --cloud-provider}); the Cluster Autoscaler ({@code e2e/peers ca up}, its KWOK
 * cloud provider, one node group of 4-CPU nodes starting at 0) runs with its own buffer controller off and its pod
 * injection on. CA reads the status Headroom writes (replicas, and podTemplateRef to the PodTemplate Headroom manages)
 * and scales its group up for the buffer; a Deployment then scales into that room and its pods bind to the node that
 * was there before, and CA adds a node to hold the buffer again. From the API server's audit log: each controller
 * changes only its own condition types and never another's, and in a steady window after settling neither changes
 * the status. Skipped, with one line, when there is no Cluster Autoscaler binary.
 */
class PeersCaE2eTest {
  /** The user {@code e2e/peers ca up} runs CA as. */
  static final String CA_USER = "cluster-autoscaler";
  /** The node group of {@code e2e/peers ca up}'s default templates, and the label that names it. */
  static final String CA_GROUP = "ca-e2e-4x8";
  static final String CA_GROUP_LABEL = "headroom.dev/ca-node-group";
  static final String BUFFER = "web-buffer";
  /** Buffer chunks (1 CPU each): 3 fit one 4-CPU node next to the kube-proxy pod CA's templates carry. */
  static final int CHUNKS = 3;
  /** How long the steady window lasts once everything has settled. */
  static final Duration STEADY = Duration.ofSeconds(10);
  /** The condition types CA's pod injection writes (processors/capacitybuffer/pod_list_processor.go). */
  static final Set<String> CA_CONDITIONS = Set.of("Provisioning");

  private static TestBed bed;
  private static KubernetesClient admin;
  private static final List<String> namespaces = new ArrayList<>();
  private static HeadroomProcess headroom;
  private static boolean caStarted;

  @BeforeAll
  static void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    boolean present = caBinary().isPresent();
    if (!present) {
      System.out.println("PeersCaE2eTest: skipped: no Cluster Autoscaler binary (HEADROOM_CA_BIN; docs/peers.md)");
    }
    Assumptions.assumeTrue(present, "no Cluster Autoscaler binary (HEADROOM_CA_BIN; docs/peers.md)");
  }

  @AfterAll
  static void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    if (caStarted) {
      peers(Map.of(), "ca", "down");
    }
    for (String ns : namespaces) {
      bed.deleteNamespace(ns);
    }
    admin.nodes().withLabel(CA_GROUP_LABEL).delete();
  }

  @Test
  void clusterAutoscalerProvisionsTheBuffersHeadroomWritesAndNeitherOverwritesTheOther() throws Exception {
    bed.applyCrd();
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    double loadBefore = load();
    Instant from = Instant.now();

    // Headroom as the buffer controller only, on a namespace of its own; CA with its pod injection only.
    List<InputDocument> docs = ClusterExplain.load(objects(suffix));
    String ns = ClusterExplain.apply(bed, docs, suffix).namespaces().get("peers-ca");
    namespaces.add(ns);
    long t0 = System.nanoTime();
    headroom = HeadroomProcess.start(bed, "headroom-ca-" + suffix, List.of("--leader-elect=false", "--namespace=" + ns,
        "--resync-period=2s"));
    caStarted = true;
    peers(Map.of("HEADROOM_CA_BUFFERS", "injection"), "ca", "up");
    Measurements.record("CA beside Headroom: both processes started (ms)", ms(t0));

    // 1. Headroom's status: replicas and the PodTemplate it manages for the Deployment.
    await("Headroom's status of " + BUFFER).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
        .until(() -> {
          JsonNode s = status(ns);
          return s.path("replicas").asInt(-1) == CHUNKS && !s.path("podTemplateRef").path("name").asString("").isEmpty()
              && conditionStatus(s, "ReadyForProvisioning").equals("True");
        });
    JsonNode first = status(ns);
    String template = first.path("podTemplateRef").path("name").asString();
    assertThat(admin.v1().podTemplates().inNamespace(ns).withName(template).get().getMetadata().getOwnerReferences())
        .as("the PodTemplate of the status is the one Headroom manages for the buffer")
        .anyMatch(r -> r.getKind().equals(CapacityBufferVersion.KIND) && r.getName().equals(BUFFER));

    // 2. CA injects the buffer's fake pods and scales its group from 0 to 1.
    await("CA's Provisioning condition on " + BUFFER).atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
        .until(() -> conditionStatus(status(ns), "Provisioning").equals("True"));
    JsonNode provisioning = condition(status(ns), "Provisioning").orElseThrow();
    assertThat(provisioning.path("reason").asString()).isEqualTo("FakePodsInjected");
    await("CA's node for the buffer").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
        .until(() -> caNodes().size() == 1 && caNodes().stream().allMatch(PeersCaE2eTest::readyAndUntainted));
    Measurements.record("CA beside Headroom: started to CA's first node Ready without a not-ready taint (ms)", ms(t0));
    Set<String> before = caNodes().stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());

    // 3. The Deployment scales into the room: its pods bind to the node that was there, no new node for them.
    long t1 = System.nanoTime();
    admin.apps().deployments().inNamespace(ns).withName("web").scale(CHUNKS);
    await("the Deployment's pods bound").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100)).until(() -> {
      List<Pod> pods = webPods(ns);
      return pods.size() == CHUNKS && pods.stream().allMatch(p -> p.getSpec().getNodeName() != null);
    });
    Measurements.record("CA beside Headroom: Deployment scaled 0 -> " + CHUNKS + " to all pods bound on the buffered room (ms)", ms(t1));
    assertThat(webPods(ns)).as("every pod on the node the buffer held").allMatch(p -> before.contains(p.getSpec().getNodeName()));

    // 4. CA holds the buffer again: a second node for its fake pods.
    await("CA's second node for the buffer").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
        .until(() -> caNodes().size() == 2 && caNodes().stream().allMatch(PeersCaE2eTest::readyAndUntainted));
    Measurements.record("CA beside Headroom: Deployment scaled to CA's second node Ready (ms)", ms(t1));

    // 5. Settled (status, nodes and pods unchanged for 5 s), then the steady window.
    awaitSettled(ns, Duration.ofSeconds(5));
    Instant steadyFrom = Instant.now();
    AtomicReference<String> steady = new AtomicReference<>(fingerprint(ns));
    await("steady for " + STEADY).atMost(STEADY.plusSeconds(30)).during(STEADY).pollInterval(Duration.ofMillis(500))
        .until(() -> fingerprint(ns).equals(steady.get()));
    Instant steadyTo = Instant.now();
    assertThat(caNodes()).as("no node came or went in the steady window").hasSize(2);

    // The audit log: who changed which parts of the buffer's status, in every write from the start to the window's end.
    List<AuditLog.Event> writes = bed.audit().events(e -> e.resource().equals("capacitybuffers") && e.namespace().equals(ns)
        && e.name().equals(BUFFER) && e.write() && !e.verb().equals("delete") && !e.received().isAfter(steadyTo));
    List<Change> changes = changes(writes);
    Map<String, Set<String>> changedBy = new TreeMap<>();
    for (Change c : changes) {
      changedBy.computeIfAbsent(c.user(), u -> new TreeSet<>()).addAll(c.parts());
    }
    System.out.println("PeersCaE2eTest: parts of the status each user changed: " + changedBy);
    changes.forEach(c -> System.out.println("PeersCaE2eTest:   " + c));
    Set<String> headroomOwns = new TreeSet<>(Set.of("replicas", "podTemplateRef", "podTemplateGeneration", "provisioningStrategy"));
    StatusWriter.CONTROLLER_CONDITIONS.forEach(t -> headroomOwns.add("condition " + t));
    assertThat(changedBy.get(headroom.user())).as("Headroom changed its own fields and condition types only")
        .isNotEmpty().isSubsetOf(headroomOwns).contains("condition ReadyForProvisioning", "replicas", "podTemplateRef");
    assertThat(changedBy.get(CA_USER)).as("CA changed its Provisioning condition only")
        .containsExactly("condition Provisioning");
    assertThat(changes).as("no write moved a condition's lastTransitionTime without its status flipping")
        .allMatch(c -> c.movedTimes().isEmpty());
    assertThat(changedBy.keySet()).as("nobody else changed the status").containsExactlyInAnyOrder(headroom.user(), CA_USER, "admin");
    assertThat(changedBy.get("admin")).as("the test's own create carries no status").isEmpty();
    assertThat(BufferConditionWriter.AUTOSCALER_CONDITIONS).as("the condition types Headroom's own autoscaler writes")
        .containsAll(CA_CONDITIONS);

    // The steady window: status writes of each, and which of them changed anything (a new resourceVersion).
    List<AuditLog.Event> inWindow = bed.audit().events(e -> e.resource().equals("capacitybuffers") && e.namespace().equals(ns) && e.write()
        && !e.received().isBefore(steadyFrom) && !e.received().isAfter(steadyTo));
    long headroomWrites = inWindow.stream().filter(e -> e.user().equals(headroom.user())).count();
    List<AuditLog.Event> caWrites = inWindow.stream().filter(e -> e.user().equals(CA_USER)).toList();
    long caChanging = caWrites.stream().filter(PeersCaE2eTest::changedResourceVersion).count();
    double window = Duration.between(steadyFrom, steadyTo).toMillis() / 1000.0;
    Measurements.record("CA beside Headroom: steady window (s)", window);
    Measurements.record("CA beside Headroom: buffer status writes by Headroom in the steady window", headroomWrites);
    Measurements.record("CA beside Headroom: buffer status writes by CA in the steady window (update of the status subresource)", caWrites.size());
    Measurements.record("CA beside Headroom: of them changing the object (new resourceVersion)", caChanging);
    for (String user : List.of(headroom.user(), CA_USER)) {
      List<AuditLog.Event> all = bed.audit().events(e -> e.user().equals(user) && !e.received().isBefore(steadyFrom)
          && !e.received().isAfter(steadyTo));
      Measurements.record("CA beside Headroom: API requests of " + user + " in the steady window (writes)",
          all.size() + " (" + all.stream().filter(AuditLog.Event::write).count() + ")");
    }
    assertThat(headroomWrites).as("Headroom writes no status in the steady window").isZero();
    assertThat(caChanging).as("CA's status writes in the steady window change nothing").isZero();

    // From the audit log: Headroom's first status write, CA's first Provisioning write, CA's first node.
    Instant headroomFirst = changes.stream().filter(c -> c.user().equals(headroom.user())).findFirst().orElseThrow().at();
    Instant caFirst = changes.stream().filter(c -> c.user().equals(CA_USER)).findFirst().orElseThrow().at();
    Instant caNode = bed.audit().events(e -> e.user().equals(CA_USER) && e.verb().equals("create") && e.resource().equals("nodes")
        && e.code() == 201 && !e.received().isBefore(from)).stream().map(AuditLog.Event::completed).min(Comparator.naturalOrder()).orElseThrow();
    Measurements.record("CA beside Headroom: Headroom's first status write to CA's Provisioning=True write (ms, audit log)",
        Duration.between(headroomFirst, caFirst).toMillis());
    Measurements.record("CA beside Headroom: Headroom's first status write to CA's first node created (ms, audit log)",
        Duration.between(headroomFirst, caNode).toMillis());

    // Requests per user, from the start to the window's end (the audit log logs every read of these users too; a
    // watch still open counts once, at its start: CA's informers open theirs as watch-lists, without a list).
    for (String user : List.of(headroom.user(), CA_USER)) {
      List<AuditLog.Event> all = bed.audit().requests(e -> e.user().equals(user) && !e.received().isBefore(from) && !e.received().isAfter(steadyTo));
      Measurements.record("CA beside Headroom: API requests of " + user + " (writes)", all.size() + " (" + all.stream().filter(AuditLog.Event::write).count() + ")");
      Map<String, Long> byKind = all.stream().collect(Collectors.groupingBy(e -> e.verb() + " " + e.resource()
          + (e.subresource().isEmpty() ? "" : "/" + e.subresource()), TreeMap::new, Collectors.counting()));
      System.out.println("PeersCaE2eTest: requests of " + user + ": " + byKind);
    }
    caProcess().ifPresent(p -> {
      Measurements.record("CA beside Headroom: CA CPU seconds (whole process)", p.cpuSeconds());
      Measurements.record("CA beside Headroom: CA peak RSS (MiB)", p.peakRssMib());
    });
    Measurements.record("CA beside Headroom: load average (1 min) before / after", loadBefore + " / " + load());
  }

  /** One successful status-changing write: who, and which parts of the status it changed. */
  record Change(String user, String verb, long resourceVersion, Instant at, Set<String> parts, Set<String> movedTimes) {
    @Override
    public String toString() {
      return at + " rv " + resourceVersion + " " + user + " " + verb + " " + parts
          + (movedTimes.isEmpty() ? "" : " lastTransitionTime moved without a flip: " + movedTimes);
    }
  }

  /**
   * Replays the successful writes in the order of the resourceVersion they produced: each write's response is the
   * object as stored after it, the previous response the object as it was before. Parts are the top-level status
   * fields and, per condition type, "condition TYPE" when anything of it (status, reason, message, times,
   * observedGeneration) differs or it appeared or went.
   */
  static List<Change> changes(List<AuditLog.Event> writes) {
    List<AuditLog.Event> ok = writes.stream().filter(e -> e.code() / 100 == 2 && e.raw().has("responseObject"))
        .sorted(Comparator.comparingLong(PeersCaE2eTest::responseVersion)).toList();
    List<Change> out = new ArrayList<>();
    JsonNode previous = ClusterExplain.JSON.createObjectNode();
    long previousVersion = -1;
    for (AuditLog.Event e : ok) {
      long rv = responseVersion(e);
      JsonNode now = e.raw().path("responseObject").path("status");
      if (rv != previousVersion) {
        out.add(new Change(e.user(), e.verb() + (e.subresource().isEmpty() ? "" : " " + e.subresource()), rv, e.completed(),
            parts(previous, now), movedTimes(previous, now)));
      }
      previous = now;
      previousVersion = rv;
    }
    return out;
  }

  static Set<String> parts(JsonNode before, JsonNode after) {
    Set<String> out = new TreeSet<>();
    Set<String> fields = new TreeSet<>();
    before.propertyNames().forEach(fields::add);
    after.propertyNames().forEach(fields::add);
    fields.remove("conditions");
    for (String f : fields) {
      if (!before.path(f).equals(after.path(f))) {
        out.add(f);
      }
    }
    Map<String, JsonNode> b = conditions(before);
    Map<String, JsonNode> a = conditions(after);
    Set<String> types = new TreeSet<>(b.keySet());
    types.addAll(a.keySet());
    for (String t : types) {
      if (!String.valueOf(b.get(t)).equals(String.valueOf(a.get(t)))) {
        out.add("condition " + t);
      }
    }
    return out;
  }

  /** Condition types whose status is the same before and after but whose lastTransitionTime is not. */
  static Set<String> movedTimes(JsonNode before, JsonNode after) {
    Set<String> out = new TreeSet<>();
    Map<String, JsonNode> b = conditions(before);
    conditions(after).forEach((t, c) -> {
      JsonNode was = b.get(t);
      if (was != null && was.path("status").equals(c.path("status"))
          && !was.path("lastTransitionTime").equals(c.path("lastTransitionTime"))) {
        out.add(t);
      }
    });
    return out;
  }

  private static Map<String, JsonNode> conditions(JsonNode status) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (JsonNode c : status.path("conditions")) {
      out.put(c.path("type").asString(), c);
    }
    return out;
  }

  private static long responseVersion(AuditLog.Event e) {
    return Long.parseLong(e.raw().path("responseObject").path("metadata").path("resourceVersion").asString("0"));
  }

  /** Whether a write's response carries another resourceVersion than the one its request was based on. */
  static boolean changedResourceVersion(AuditLog.Event e) {
    String asked = e.raw().path("requestObject").path("metadata").path("resourceVersion").asString("");
    String got = e.raw().path("responseObject").path("metadata").path("resourceVersion").asString("");
    return e.code() / 100 == 2 && !asked.equals(got);
  }

  /** Waits until the buffer's status, the CA nodes and the pods' placement have not changed for {@code quiet}. */
  private static void awaitSettled(String ns, Duration quiet) {
    AtomicReference<String> last = new AtomicReference<>("");
    await("settled for " + quiet).atMost(Duration.ofMinutes(2)).during(quiet).pollInterval(Duration.ofMillis(250)).until(() -> {
      String f = fingerprint(ns);
      boolean same = f.equals(last.get());
      last.set(f);
      return same;
    });
  }

  /** The buffer's raw status (timestamps included), the CA nodes with their readiness, and where each pod is. */
  private static String fingerprint(String ns) {
    StringBuilder sb = new StringBuilder(rawStatus(ns).toString());
    caNodes().stream().map(n -> n.getMetadata().getName() + "=" + readyAndUntainted(n)).sorted().forEach(s -> sb.append(' ').append(s));
    webPods(ns).stream().map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName()).sorted().forEach(s -> sb.append(' ').append(s));
    return sb.toString();
  }

  private static JsonNode rawStatus(String ns) {
    GenericKubernetesResource b = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND)
        .inNamespace(ns).withName(BUFFER).get();
    return b == null ? ClusterExplain.JSON.createObjectNode()
        : ClusterExplain.JSON.readTree(ClusterExplain.SERIALIZATION.asJson(b)).path("status");
  }

  private static JsonNode status(String ns) {
    return ClusterExplain.normalise(rawStatus(ns));
  }

  private static Optional<JsonNode> condition(JsonNode status, String type) {
    for (JsonNode c : status.path("conditions")) {
      if (c.path("type").asString().equals(type)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  private static String conditionStatus(JsonNode status, String type) {
    return condition(status, type).map(c -> c.path("status").asString()).orElse("-");
  }

  private static List<Node> caNodes() {
    return admin.nodes().withLabel(CA_GROUP_LABEL, CA_GROUP).list().getItems();
  }

  private static List<Pod> webPods(String ns) {
    return admin.pods().inNamespace(ns).withLabel("app", "web").list().getItems();
  }

  private static boolean readyAndUntainted(Node n) {
    boolean ready = n.getStatus() != null && n.getStatus().getConditions() != null
        && n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    boolean tainted = n.getSpec().getTaints() != null
        && n.getSpec().getTaints().stream().anyMatch(t -> t.getKey().equals("node.kubernetes.io/not-ready"));
    return ready && !tainted;
  }

  /**
   * A Deployment at 0 replicas whose pods (1 CPU / 1 GiB) select CA's node group, and a buffer of {@link #CHUNKS}
   * chunks of its shape.
   */
  private static Path objects(String suffix) throws IOException {
    Path f = bed.out().resolve("peers-ca-" + suffix + ".yaml");
    Files.writeString(f, """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          namespace: peers-ca
        spec:
          replicas: 0
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              nodeSelector: {%s: %s}
              containers:
                - name: web
                  image: nginx:1.27
                  resources:
                    requests: {cpu: "1", memory: 1Gi}
        ---
        apiVersion: autoscaling.x-k8s.io/v1beta1
        kind: CapacityBuffer
        metadata:
          name: %s
          namespace: peers-ca
        spec:
          scalableRef: {apiGroup: apps, kind: Deployment, name: web}
          replicas: %d
        """.formatted(CA_GROUP_LABEL, CA_GROUP, BUFFER, CHUNKS), StandardCharsets.UTF_8);
    return f;
  }

  private static long ms(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }

  static double load() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** CPU time and peak RSS of a process, from /proc. */
  record ProcessUse(double cpuSeconds, long peakRssMib) {}

  /** CA's process use, from the PID {@code e2e/peers ca up} recorded. */
  static Optional<ProcessUse> caProcess() {
    try {
      Path state = bed.kubeconfig().getParent();
      String pid = Files.readString(state.resolve("cluster-autoscaler.pid")).strip();
      String stat = Files.readString(Path.of("/proc", pid, "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime in clock ticks (USER_HZ 100)
      long hwm = Files.readAllLines(Path.of("/proc", pid, "status")).stream().filter(l -> l.startsWith("VmHWM:"))
          .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024).findFirst().orElse(-1L);
      return Optional.of(new ProcessUse(cpu, hwm));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The CA binary {@code e2e/peers ca path} names, if any. */
  static Optional<Path> caBinary() {
    try {
      return Optional.of(Path.of(peers(Map.of(), "ca", "path").strip()));
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  private static String peers(Map<String, String> extraEnv, String... args) {
    List<String> cmd = new ArrayList<>(List.of(bed.root().resolve("e2e/peers").toString()));
    cmd.addAll(List.of(args));
    Map<String, String> env = new LinkedHashMap<>(bed.scriptEnv());
    env.putAll(extraEnv);
    return Scripts.run(bed.root(), env, Duration.ofMinutes(5), cmd.toArray(String[]::new));
  }
}
