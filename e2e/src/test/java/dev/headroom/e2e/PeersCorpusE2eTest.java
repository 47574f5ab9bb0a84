package dev.headroom.e2e;

import static dev.headroom.e2e.ClusterExplain.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.cli.input.InputDocument;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue #23 item 1, "same buffers, three implementations": every example under {@code examples/buffers/} and the
 * corpus {@code peers/corpus.yaml} (each file in fresh namespaces per implementation, the whole corpus at once),
 * applied under Karpenter alone ({@code e2e/peers karpenter up}), under the Cluster Autoscaler alone with its own
 * buffer controller ({@code e2e/peers ca up}) and under {@code headroom run} alone (buffer controller and the KWOK
 * autoscaler). For every buffer the settled status (replicas, podTemplateRef, podTemplateGeneration,
 * provisioningStrategy, and per condition type its status, reason, message and observedGeneration) and the chunks
 * the implementation's nodes hold free for it ({@link #heldChunks}) are recorded; the differences between each peer
 * and Headroom must be exactly the lines of {@code peers/karpenter-differences.txt} and {@code peers/ca-differences.txt}
 * (each tagged with the docs/peers.md row that explains it), so a new one fails. A peer's column is skipped, with one
 * line, when that peer is not there; the test skips when neither is.
 */
class PeersCorpusE2eTest {
  static final String KARPENTER_NODE_LABEL = "karpenter.sh/nodepool";
  static final String ACTIVE_CAPACITY = "buffer.x-k8s.io/active-capacity";
  static final String CA_GROUP_LABEL = "headroom.dev/ca-node-group";
  static final String CORPUS = "e2e/src/test/resources/peers/corpus.yaml";
  /** Statuses, nodes and pods unchanged this long count as settled. */
  static final Duration SETTLE = Duration.ofSeconds(8);

  private static TestBed bed;
  private static KubernetesClient admin;
  private static final List<String> namespaces = new ArrayList<>();
  private static HeadroomProcess headroom;
  private static String group;
  private static boolean karpenterStarted;
  private static boolean caStarted;
  private static boolean withKarpenter;
  private static boolean withCa;

  @BeforeAll
  static void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    withKarpenter = karpenterDir().isPresent();
    withCa = caBinary().isPresent();
    if (!withKarpenter) {
      System.out.println("PeersCorpusE2eTest: Karpenter's column skipped: its KWOK controller is not built (e2e/peers build)");
    }
    if (!withCa) {
      System.out.println("PeersCorpusE2eTest: the Cluster Autoscaler's column skipped: no binary (HEADROOM_CA_BIN; docs/peers.md)");
    }
    Assumptions.assumeTrue(withKarpenter || withCa, "neither Karpenter nor the Cluster Autoscaler is there");
  }

  @AfterAll
  static void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    deleteNamespaces(new ArrayList<>(namespaces));
    if (karpenterStarted) {
      peers(Map.of(), "karpenter", "down");
    }
    if (caStarted) {
      peers(Map.of(), "ca", "down");
    }
    if (group != null) {
      admin.nodes().withLabel(AutoscalerE2eTest.GROUP_LABEL, group).delete();
    }
  }

  /** What one implementation did with the corpus. */
  record Outcome(String who, Map<String, JsonNode> statuses, Map<String, Integer> held, List<Node> nodes, long settledMs) {}

  /** The corpus applied in fresh namespaces: {@code FILE:NS} → the namespace it went to. */
  record Applied(Map<String, String> namespaces, List<String> admitted, List<String> mayStayWithoutStatus) {
    /** {@code FILE:NS/NAME} of a buffer in a renamed namespace. */
    String key(String renamedNs, String name) {
      for (var e : namespaces.entrySet()) {
        if (e.getValue().equals(renamedNs)) {
          return e.getKey() + "/" + name;
        }
      }
      throw new IllegalArgumentException(renamedNs);
    }
  }

  @Test
  void everyBufferOfTheCorpusDiffersBetweenEachPeerAloneAndHeadroomAloneExactlyAsDocumented() throws Exception {
    bed.applyCrd();
    Map<String, List<InputDocument>> files = corpusFiles();
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    List<String> failures = new ArrayList<>();
    Outcome karpenter = null;
    Outcome ca = null;

    // 1. Karpenter alone.
    if (withKarpenter) {
      karpenterStarted = true;
      Instant from = Instant.now();
      peers(Map.of(), "karpenter", "up");
      long t0 = System.nanoTime();
      Applied applied = apply(files, "k" + suffix);
      karpenter = settle("karpenter", applied, labelled(KARPENTER_NODE_LABEL, null), t0);
      assertThat(karpenter.nodes()).as("Karpenter's nodes").isNotEmpty().allMatch(PeersCorpusE2eTest::readyAndUntainted);
      quickstartBound(applied);
      recordRequests("karpenter", "karpenter", from);
      deleteNamespaces(new ArrayList<>(applied.namespaces().values()));
      peers(Map.of(), "karpenter", "down");
      karpenterStarted = false;
      await("Karpenter's nodes gone").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
          .until(() -> admin.nodes().withLabel(KARPENTER_NODE_LABEL).list().getItems().isEmpty());
    }

    // 2. The Cluster Autoscaler alone, its own buffer controller and pod injection on, its KWOK group of 4-CPU nodes.
    if (withCa) {
      Applied applied = apply(files, "c" + suffix);
      caStarted = true;
      Instant from = Instant.now();
      long t0 = System.nanoTime();
      peers(Map.of("HEADROOM_CA_BUFFERS", "controller", "HEADROOM_CA_MAX_NODES", "40"), "ca", "up");
      ca = settle("ca", applied, labelled(CA_GROUP_LABEL, null), t0);
      quickstartBound(applied);
      recordRequests("ca", "cluster-autoscaler", from);
      deleteNamespaces(new ArrayList<>(applied.namespaces().values()));
      peers(Map.of(), "ca", "down");
      caStarted = false;
      await("the Cluster Autoscaler's nodes gone").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
          .until(() -> admin.nodes().withLabel(CA_GROUP_LABEL).list().getItems().isEmpty());
    }

    // 3. Headroom alone: buffer controller and the KWOK autoscaler, as AutoscalerE2eTest starts them.
    Applied applied = apply(files, "h" + suffix);
    group = "corpus-" + suffix;
    Path groups = bed.nodeGroupFile(group, 40);
    long t0 = System.nanoTime();
    Instant from = Instant.now();
    List<String> args = new ArrayList<>(List.of("--leader-elect=false", "--cloud-provider=kwok", "--node-groups=" + groups,
        "--scan-interval=1s", "--max-node-provision-time=2m"));
    applied.namespaces().values().forEach(ns -> args.add("--namespace=" + ns));
    headroom = HeadroomProcess.start(bed, "headroom-corpus-" + suffix, args);
    Outcome ours = settle("headroom", applied, labelled(AutoscalerE2eTest.GROUP_LABEL, group), t0);
    quickstartBound(applied);
    recordRequests("headroom", headroom.user(), from);
    Instant now = Instant.now();

    if (karpenter != null) {
      failures.addAll(compare(karpenter, ours, "karpenter-differences.txt", now));
    }
    if (ca != null) {
      failures.addAll(compare(ca, ours, "ca-differences.txt", now));
    }
    assertThat(failures).as("differences not as documented (docs/peers.md; the actual lists are in target/e2e/)").isEmpty();
  }

  /**
   * The differences between a peer and Headroom, written to {@code target/e2e/peers-corpus-PEER.txt}, against the
   * expected lines of {@code peers/FILE}; returns a line per unexpected or missing difference.
   */
  static List<String> compare(Outcome peer, Outcome ours, String file, Instant now) throws IOException {
    List<String> actual = differences(peer, ours);
    Files.write(bed.out().resolve("peers-corpus-" + peer.who() + ".txt"), actual);
    List<String> expected = expected(bed.root().resolve("e2e/src/test/resources/peers").resolve(file), now);
    List<String> out = new ArrayList<>();
    actual.stream().filter(l -> !expected.contains(l)).forEach(l -> out.add("new:     " + l));
    expected.stream().filter(l -> !actual.contains(l)).forEach(l -> out.add("missing: " + l));
    System.out.println("PeersCorpusE2eTest: " + peer.who() + " / headroom: " + actual.size() + " differences, "
        + out.size() + " not as documented");
    return out;
  }

  /**
   * The expected lines of a differences file: {@code [ROW] LINE} or {@code [ROW when=BUFFER:open|closed] LINE} (a line
   * of the scheduled example that holds only while that buffer's window is open, or closed, at {@code now});
   * {@code #} comments and blank lines skipped. ROW names the row of docs/peers.md's table, which must exist.
   */
  static List<String> expected(Path file, Instant now) throws IOException {
    String docs = Files.readString(bed.root().resolve("docs/peers.md"));
    List<String> out = new ArrayList<>();
    for (String line : Files.exists(file) ? Files.readAllLines(file) : List.<String>of()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\[(\\w+)(?: when=([\\w-]+):(open|closed))?\\] (.*)$").matcher(line);
      if (!m.matches()) {
        throw new IllegalStateException(file + ": not [ROW] LINE: " + line);
      }
      if (!docs.contains("| " + m.group(1) + " |")) {
        throw new IllegalStateException(file + ": row " + m.group(1) + " is not in docs/peers.md's table");
      }
      if (m.group(2) != null && open(m.group(2), now) != m.group(3).equals("open")) {
        continue;
      }
      out.add(m.group(4));
    }
    return out;
  }

  /**
   * Whether the scheduled example's buffer's window is open: {@link #pinnedSchedules} keeps office-hours open and
   * nightly-batch closed for hours from the test's start, whatever the time of day the test runs at.
   */
  static boolean open(String buffer, Instant now) {
    return switch (buffer) {
      case "office-hours" -> true;
      case "nightly-batch" -> false;
      default -> throw new IllegalArgumentException("no schedule for " + buffer);
    };
  }

  /**
   * The scheduled example with its two windows moved relative to {@code now} (UTC, every day): office-hours open from
   * an hour before to four hours after, nightly-batch only eight hours later, so that no window opens or closes while
   * the test runs (its peers ignore the annotation; Headroom's status would flip mid-test at the example's own
   * boundaries, 17:00 UTC in winter, for instance). The buffers, templates and everything else are the example's.
   */
  static Path pinnedSchedules(Path example, Instant now) throws IOException {
    int h = now.atZone(ZoneId.of("UTC")).getHour();
    String open = h + 4 <= 24
        ? String.format("Mon-Sun %02d:00-%02d:00 UTC", Math.max(0, h - 1), h + 4)
        : String.format("Mon-Sun %02d:00-24:00 UTC; Mon-Sun 00:00-%02d:00 UTC", h - 1, h + 4 - 24);
    int from = (h + 8) % 24;
    String closed = String.format("Mon-Sun %02d:00-%02d:00 UTC", from, from + 1);
    String text = Files.readString(example);
    String office = "\"Mon-Fri 09:00-18:00 Europe/Berlin\"";
    String nightly = "\"Mon-Sun 01:00-05:00 UTC\"";
    if (text.split(java.util.regex.Pattern.quote(office), -1).length != 2
        || text.split(java.util.regex.Pattern.quote(nightly), -1).length != 2) {
      throw new IllegalStateException(example + ": the windows this test pins are not the example's any more");
    }
    String pinned = text.replace(office, "\"" + open + "\"").replace(nightly, "\"" + closed + "\"");
    Path out = bed.root().resolve("e2e/target/e2e/scheduled-pinned/scheduled.yaml");
    Files.createDirectories(out.getParent());
    Files.writeString(out, pinned);
    return out;
  }

  static Predicate<Node> labelled(String label, String value) {
    return n -> n.getMetadata().getLabels() != null && n.getMetadata().getLabels().containsKey(label)
        && (value == null || value.equals(n.getMetadata().getLabels().get(label)));
  }

  /** The quickstart's 10 pods are bound (the check of the quickstart-only comparison this test replaced). */
  static void quickstartBound(Applied applied) {
    List<Pod> pods = admin.pods().inNamespace(applied.namespaces().get("quickstart:shop")).withLabel("app", "web").list().getItems();
    assertThat(pods).hasSize(10).allMatch(p -> p.getSpec().getNodeName() != null);
  }

  /** Every example file and the corpus, by file stem. */
  static Map<String, List<InputDocument>> corpusFiles() throws Exception {
    Map<String, List<InputDocument>> out = new TreeMap<>();
    List<Path> paths;
    try (Stream<Path> s = Files.list(bed.root().resolve("examples/buffers"))) {
      paths = new ArrayList<>(s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList());
    }
    paths.add(bed.root().resolve(CORPUS));
    for (Path p : paths) {
      Path src = p.getFileName().toString().equals("scheduled.yaml") ? pinnedSchedules(p, Instant.now()) : p;
      out.put(p.getFileName().toString().replaceFirst("\\.yaml$", ""), ClusterExplain.load(src));
    }
    return out;
  }

  /** Each file in its own fresh namespaces ({@code NS-TAG-i}). */
  static Applied apply(Map<String, List<InputDocument>> files, String tag) {
    Map<String, String> renamed = new LinkedHashMap<>();
    List<String> admitted = new ArrayList<>();
    List<String> exempt = new ArrayList<>();
    int i = 0;
    for (var f : files.entrySet()) {
      ClusterExplain.Applied a = ClusterExplain.apply(bed, f.getValue(), tag + "-" + (i++));
      a.namespaces().forEach((orig, ns) -> {
        renamed.put(f.getKey() + ":" + orig, ns);
        namespaces.add(ns);
      });
      admitted.addAll(a.admittedBuffers());
      for (InputDocument d : f.getValue()) {
        Map<?, ?> spec = d.copyOfRaw().get("spec") instanceof Map<?, ?> m ? m : Map.of();
        Object strategy = spec.get("provisioningStrategy");
        boolean foreign = strategy != null && !strategy.equals("") && !strategy.equals(ACTIVE_CAPACITY);
        boolean noRef = !spec.containsKey("podTemplateRef") && !spec.containsKey("scalableRef");
        if (d.kind().equals("CapacityBuffer") && (foreign || noRef)) {
          String orig = d.namespace().isEmpty() ? "default" : d.namespace();
          exempt.add(a.namespaces().get(orig) + "/" + d.name());
        }
      }
    }
    return new Applied(renamed, admitted, exempt);
  }

  /**
   * Waits until every admitted buffer has a condition, every pod of the corpus that can run is bound, and the
   * statuses, the implementation's Ready nodes and the pods' nodes have not changed for {@link #SETTLE}; then
   * records the statuses (by {@code FILE:NS/NAME}, namespaces renamed back) and the chunks held free.
   */
  static Outcome settle(String who, Applied applied, Predicate<Node> ours, long t0) {
    List<String> nss = new ArrayList<>(applied.namespaces().values());
    AtomicReference<String> last = new AtomicReference<>("");
    AtomicReference<Map<String, JsonNode>> statuses = new AtomicReference<>(Map.of());
    AtomicReference<String> why = new AtomicReference<>("");
    try {
      await(who + ": the corpus's statuses and capacity settled").atMost(Duration.ofMinutes(5)).during(SETTLE)
        .pollInterval(Duration.ofMillis(500)).until(() -> {
          Map<String, JsonNode> s = ClusterExplain.clusterStatuses(admin, nss);
          // a buffer of a foreign provisioning strategy or without any ref may stay without status (Headroom leaves
          // the first untouched, the Cluster Autoscaler both)
          List<String> without = s.entrySet().stream().filter(e -> e.getValue().path("conditions").isEmpty())
              .map(Map.Entry::getKey).filter(k -> !applied.mayStayWithoutStatus().contains(k)).toList();
          boolean complete = s.size() == applied.admitted().size() && without.isEmpty();
          List<Pod> pods = new ArrayList<>();
          nss.forEach(ns -> pods.addAll(admin.pods().inNamespace(ns).list().getItems()));
          List<String> pending = pods.stream().filter(p -> p.getSpec().getNodeName() == null && !finished(p))
              .map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()).toList();
          boolean bound = pending.isEmpty();
          why.set("buffers " + s.size() + " of " + applied.admitted().size() + ", without conditions " + without + ", pending pods " + pending);
          StringBuilder state = new StringBuilder(s.toString());
          admin.nodes().list().getItems().stream().filter(ours).filter(PeersCorpusE2eTest::readyAndUntainted)
              .map(n -> n.getMetadata().getName()).sorted().forEach(n -> state.append(' ').append(n));
          pods.stream().map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName()).sorted().forEach(p -> state.append(' ').append(p));
          boolean same = complete && bound && state.toString().equals(last.get());
          last.set(state.toString());
          statuses.set(s);
          return same;
        });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(who + ": not settled within 5 minutes: " + why.get(), e);
    }
    long settledMs = (System.nanoTime() - t0) / 1_000_000 - SETTLE.toMillis();
    Measurements.record(who + ": corpus applied to statuses and capacity settled (ms, without the " + SETTLE.toSeconds() + " s of stillness)", settledMs);
    Map<String, JsonNode> byKey = new TreeMap<>();
    for (var e : statuses.get().entrySet()) {
      String[] nsName = e.getKey().split("/", 2);
      byKey.put(applied.key(nsName[0], nsName[1]), renameBack(e.getValue(), applied));
    }
    List<Node> nodes = admin.nodes().list().getItems().stream().filter(ours).toList();
    Map<String, Integer> held = heldChunks(applied, byKey, nodes);
    Measurements.record(who + ": nodes for the corpus", nodes.size() + " " + nodes.stream().map(PeersCorpusE2eTest::shape).sorted().toList());
    Measurements.record(who + ": chunks held free per buffer", held);
    return new Outcome(who, byKey, held, nodes, settledMs);
  }

  /** The status with every renamed namespace written back as the original one. */
  static JsonNode renameBack(JsonNode status, Applied applied) {
    String text = status.toString();
    for (var e : applied.namespaces().entrySet()) {
      text = text.replace(e.getValue(), e.getKey().substring(e.getKey().indexOf(':') + 1));
    }
    return JSON.readTree(text);
  }

  /**
   * The chunks of each buffer that the implementation's nodes hold free: each node's allocatable less the requests
   * of the pods bound to it (not finished), then, buffer by buffer in {@code FILE:NS/NAME} order, the buffer's
   * {@code status.replicas} chunks (the effective requests of its pod template, resolved from its spec: the
   * PodTemplate or the workload's template) placed first-fit onto the nodes in name order, each taking a pod slot;
   * the count placed. A buffer without replicas or without a resolvable template holds 0.
   */
  static Map<String, Integer> heldChunks(Applied applied, Map<String, JsonNode> statuses, List<Node> nodes) {
    List<Node> sorted = nodes.stream().sorted((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName())).toList();
    Map<String, Map<String, BigDecimal>> free = new LinkedHashMap<>();
    for (Node n : sorted) {
      Map<String, BigDecimal> f = new HashMap<>();
      n.getStatus().getAllocatable().forEach((r, q) -> f.put(r, Quantity.getAmountInBytes(q)));
      free.put(n.getMetadata().getName(), f);
    }
    for (Pod p : admin.pods().inAnyNamespace().list().getItems()) {
      Map<String, BigDecimal> f = p.getSpec().getNodeName() == null ? null : free.get(p.getSpec().getNodeName());
      if (f == null || finished(p)) {
        continue;
      }
      requests(p.getSpec()).forEach((r, q) -> f.merge(r, q.negate(), BigDecimal::add));
      f.merge("pods", BigDecimal.ONE.negate(), BigDecimal::add);
    }
    Map<String, Integer> out = new TreeMap<>();
    for (var e : statuses.entrySet()) {
      int replicas = e.getValue().path("replicas").asInt(0);
      Optional<Map<String, BigDecimal>> shape = replicas == 0 ? Optional.empty() : chunk(applied, e.getKey());
      int placed = 0;
      for (int i = 0; i < replicas && shape.isPresent(); i++) {
        Optional<Map<String, BigDecimal>> fit = free.values().stream().filter(f -> fits(shape.get(), f)).findFirst();
        if (fit.isEmpty()) {
          break;
        }
        shape.get().forEach((r, q) -> fit.get().merge(r, q.negate(), BigDecimal::add));
        fit.get().merge("pods", BigDecimal.ONE.negate(), BigDecimal::add);
        placed++;
      }
      out.put(e.getKey(), placed);
    }
    return out;
  }

  private static boolean fits(Map<String, BigDecimal> chunk, Map<String, BigDecimal> free) {
    if (free.getOrDefault("pods", BigDecimal.ZERO).signum() <= 0) {
      return false;
    }
    return chunk.entrySet().stream().allMatch(c -> c.getValue().signum() <= 0
        || free.getOrDefault(c.getKey(), BigDecimal.ZERO).compareTo(c.getValue()) >= 0);
  }

  /** One chunk's effective requests, from the buffer's spec in the namespace it went to. */
  static Optional<Map<String, BigDecimal>> chunk(Applied applied, String key) {
    String fileNs = key.substring(0, key.lastIndexOf('/'));
    String ns = applied.namespaces().get(fileNs);
    String name = key.substring(key.lastIndexOf('/') + 1);
    GenericKubernetesResource b = ClusterExplain.buffers(admin, ns).stream().filter(x -> x.getMetadata().getName().equals(name))
        .findFirst().orElseThrow();
    JsonNode spec = JSON.valueToTree(b.getAdditionalProperties().get("spec"));
    PodTemplateSpec template = null;
    if (spec.has("podTemplateRef")) {
      PodTemplate t = admin.v1().podTemplates().inNamespace(ns).withName(spec.path("podTemplateRef").path("name").asString()).get();
      template = t == null ? null : t.getTemplate();
    } else if (spec.has("scalableRef")) {
      String target = spec.path("scalableRef").path("name").asString();
      switch (spec.path("scalableRef").path("kind").asString()) {
        case "Deployment" -> template = Optional.ofNullable(admin.apps().deployments().inNamespace(ns).withName(target).get())
            .map(d -> d.getSpec().getTemplate()).orElse(null);
        case "StatefulSet" -> template = Optional.ofNullable(admin.apps().statefulSets().inNamespace(ns).withName(target).get())
            .map(d -> d.getSpec().getTemplate()).orElse(null);
        case "ReplicaSet" -> template = Optional.ofNullable(admin.apps().replicaSets().inNamespace(ns).withName(target).get())
            .map(d -> d.getSpec().getTemplate()).orElse(null);
        case "Job" -> template = Optional.ofNullable(admin.batch().v1().jobs().inNamespace(ns).withName(target).get())
            .map(d -> d.getSpec().getTemplate()).orElse(null);
        default -> template = null;
      }
    }
    return template == null ? Optional.empty() : Optional.of(requests(template.getSpec()));
  }

  /**
   * A pod's effective requests as the scheduler counts them: the containers' and native sidecars' sum, or a regular
   * init container's (with the sidecars started before it) if larger; a resource set only under limits counts its
   * limit (admission's defaulting).
   */
  static Map<String, BigDecimal> requests(PodSpec spec) {
    Map<String, BigDecimal> running = new HashMap<>();
    Map<String, BigDecimal> peak = new HashMap<>();
    for (Container c : Optional.ofNullable(spec.getInitContainers()).orElse(List.of())) {
      Map<String, BigDecimal> r = containerRequests(c);
      if ("Always".equals(c.getRestartPolicy())) {
        r.forEach((k, v) -> running.merge(k, v, BigDecimal::add));
        running.forEach((k, v) -> peak.merge(k, v, BigDecimal::max));
      } else {
        Map<String, BigDecimal> during = new HashMap<>(running);
        r.forEach((k, v) -> during.merge(k, v, BigDecimal::add));
        during.forEach((k, v) -> peak.merge(k, v, BigDecimal::max));
      }
    }
    for (Container c : spec.getContainers()) {
      containerRequests(c).forEach((k, v) -> running.merge(k, v, BigDecimal::add));
    }
    running.forEach((k, v) -> peak.merge(k, v, BigDecimal::max));
    return peak;
  }

  private static Map<String, BigDecimal> containerRequests(Container c) {
    Map<String, BigDecimal> out = new HashMap<>();
    ResourceRequirements r = c.getResources();
    if (r == null) {
      return out;
    }
    Optional.ofNullable(r.getLimits()).orElse(Map.of()).forEach((k, q) -> out.put(k, Quantity.getAmountInBytes(q)));
    Optional.ofNullable(r.getRequests()).orElse(Map.of()).forEach((k, q) -> out.put(k, Quantity.getAmountInBytes(q)));
    return out;
  }

  /**
   * One line per difference between a peer's outcome and Headroom's, for every buffer key of either: top-level
   * status fields but {@code conditions} by JSON value; per condition type its status, reason, message and
   * observedGeneration ("-" when absent); and the chunks held free ({@code capacity}).
   */
  static List<String> differences(Outcome peer, Outcome ours) {
    List<String> out = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>(peer.statuses().keySet());
    keys.addAll(ours.statuses().keySet());
    for (String key : keys) {
      JsonNode p = peer.statuses().getOrDefault(key, JSON.createObjectNode());
      JsonNode h = ours.statuses().getOrDefault(key, JSON.createObjectNode());
      for (String line : statusDifferences(p, h, peer.who(), List.of("status", "reason", "message", "observedGeneration"))) {
        out.add(key + " " + line);
      }
      String pc = String.valueOf(peer.held().getOrDefault(key, 0));
      String hc = String.valueOf(ours.held().getOrDefault(key, 0));
      if (!pc.equals(hc)) {
        out.add(key + " capacity: " + peer.who() + "=" + pc + " headroom=" + hc);
      }
    }
    return out;
  }

  static boolean finished(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static String shape(Node n) {
    Map<String, Quantity> a = n.getStatus().getAllocatable();
    String type = n.getMetadata().getLabels() == null ? "?" : n.getMetadata().getLabels().getOrDefault("node.kubernetes.io/instance-type", "?");
    return type + "(" + a.get("cpu") + " cpu, " + a.get("memory") + ")";
  }

  static boolean readyAndUntainted(Node n) {
    boolean ready = n.getStatus() != null && n.getStatus().getConditions() != null
        && n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    boolean tainted = n.getSpec().getTaints() != null
        && n.getSpec().getTaints().stream().anyMatch(t -> t.getKey().equals("node.kubernetes.io/not-ready"));
    return ready && !tainted;
  }

  private static void recordRequests(String who, String user, Instant from) {
    List<AuditLog.Event> events = bed.audit().events(e -> e.user().equals(user) && !e.received().isBefore(from));
    Measurements.record(who + ": API requests on the corpus from its start until settled (audit log, user " + user + ")", events.size());
    Measurements.record(who + ": of them writes", events.stream().filter(AuditLog.Event::write).count());
  }

  /** Deletes the namespaces together and waits until all are gone. */
  static void deleteNamespaces(List<String> nss) {
    nss.forEach(ns -> admin.namespaces().withName(ns).delete());
    await("namespaces deleted").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300))
        .until(() -> nss.stream().allMatch(ns -> admin.namespaces().withName(ns).get() == null));
    namespaces.removeAll(nss);
  }

  /** {@code e2e/peers ARGS} on the bed (static: other peer tests call it before this class has run). */
  private static String peers(Map<String, String> extraEnv, String... args) {
    TestBed b = TestBed.get();
    List<String> cmd = new ArrayList<>(List.of(b.root().resolve("e2e/peers").toString()));
    cmd.addAll(List.of(args));
    Map<String, String> env = new HashMap<>(b.scriptEnv());
    env.putAll(extraEnv);
    return Scripts.run(b.root(), env, Duration.ofMinutes(5), cmd.toArray(String[]::new));
  }

  /** The binary {@code e2e/peers ca path} prints, if there is one. */
  static Optional<Path> caBinary() {
    try {
      return Optional.of(Path.of(peers(Map.of(), "ca", "path").strip()));
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  /** The directory {@code e2e/peers karpenter path} prints, if Karpenter is built. */
  static Optional<Path> karpenterDir() {
    try {
      return Optional.of(Path.of(peers(Map.of(), "karpenter", "path").strip()));
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  /**
   * One line per difference of two statuses, {@code FIELD: PEER=… headroom=…}: every top-level field but
   * {@code conditions} by its JSON value, and per condition type each of {@code conditionFields} ("-" when the field
   * or the condition is absent).
   */
  static List<String> statusDifferences(JsonNode peer, JsonNode ours, String who, List<String> conditionFields) {
    List<String> out = new ArrayList<>();
    TreeSet<String> fields = new TreeSet<>();
    peer.propertyNames().forEach(fields::add);
    ours.propertyNames().forEach(fields::add);
    fields.remove("conditions");
    for (String f : fields) {
      String p = value(peer.get(f));
      String h = value(ours.get(f));
      if (!p.equals(h)) {
        out.add(f + ": " + who + "=" + p + " headroom=" + h);
      }
    }
    Map<String, JsonNode> pc = conditions(peer);
    Map<String, JsonNode> hc = conditions(ours);
    TreeSet<String> types = new TreeSet<>(pc.keySet());
    types.addAll(hc.keySet());
    for (String type : types) {
      for (String field : conditionFields) {
        String p = pc.containsKey(type) ? value(pc.get(type).get(field)) : "-";
        String h = hc.containsKey(type) ? value(hc.get(type).get(field)) : "-";
        if (!p.equals(h)) {
          out.add("condition " + type + " " + field + ": " + who + "=" + p + " headroom=" + h);
        }
      }
    }
    return out;
  }

  /** A status value as text; RFC 3339 times in it (schedule messages) become {@code <time>}. */
  private static String value(JsonNode n) {
    if (n == null || n.isMissingNode() || n.isNull()) {
      return "-";
    }
    String s = n.isString() ? n.asString() : n.toString();
    return s.replaceAll("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})", "<time>");
  }

  private static Map<String, JsonNode> conditions(JsonNode status) {
    Map<String, JsonNode> out = new TreeMap<>();
    for (JsonNode c : status.path("conditions")) {
      out.put(c.path("type").asString(), c);
    }
    return out;
  }
}
