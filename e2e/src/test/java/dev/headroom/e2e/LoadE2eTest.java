package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.controller.autoscaling.AutoscalerMetrics;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #28 item 2: {@code headroom run} (buffer controller and KWOK autoscaler, the product's JVM flags) at size on
 * the real control plane. Per 10 buffers: one namespace, two Deployments of 10 pods, the buffers on them mixing
 * {@code percentage}, {@code replicas} and {@code limits}; a ResourceQuota in every tenth namespace; one kwok node per
 * 20 buffers. The size is {@code HEADROOM_LOAD_BUFFERS} (default 200, the CI version; {@code ./e2e/load} runs 10,000:
 * 1,000 namespaces, 2,000 Deployments, 20,000 pods, 500 nodes). It measures the time from start to every status
 * written, Headroom's requests per second then and in steady state, its writes over three resync periods, heap after
 * a full GC and RSS, the time to re-size a buffer after its Deployment is scaled (p50, p99, from the scale call), and
 * the autoscaler's loop time; it asserts what holds at any size (every buffer Ready with the expected count, no write
 * in steady state) and records the figures and the goals in {@code measurements.txt}.
 */
class LoadE2eTest {
  static final int BUFFERS = Integer.parseInt(System.getenv().getOrDefault("HEADROOM_LOAD_BUFFERS", "200"));
  /** Buffer-controller workers ({@code --concurrent-reconciles}), {@code HEADROOM_LOAD_CONCURRENT_RECONCILES} (default 1). */
  static final int WORKERS = Integer.parseInt(System.getenv().getOrDefault("HEADROOM_LOAD_CONCURRENT_RECONCILES", "1"));
  /** Extra JVM flags of the {@code headroom run} process, {@code HEADROOM_LOAD_JVM_ARGS} (space-separated; e.g. a flight recording). */
  static final List<String> EXTRA_JVM = List.of(System.getenv().getOrDefault("HEADROOM_LOAD_JVM_ARGS", "").trim().split("\\s+"))
      .stream().filter(a -> !a.isEmpty()).toList();
  static final int NAMESPACES = Math.max(1, BUFFERS / 10);
  static final int NODES = Math.max(1, BUFFERS / 20);
  static final int POD_REPLICAS = 10;
  /** Short in the tier's small run; at size a pass over 1,000 namespaces must fit well inside one period. */
  static final Duration RESYNC = Duration.ofSeconds(BUFFERS >= 5000 ? 30 : 10);
  static final String GROUP_LABEL = "headroom.dev/node-group";

  private TestBed bed;
  private KubernetesClient admin;
  private String id;
  private final List<String> namespaces = new ArrayList<>();
  private HeadroomProcess headroom;
  private ExecutorService pool;
  private SharedIndexInformer<GenericKubernetesResource> watched;

  @BeforeEach
  void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    id = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    pool = Executors.newFixedThreadPool(4);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (headroom != null) {
      headroom.close();
    }
    if (watched != null) {
      watched.close();
    }
    List<Future<?>> gone = new ArrayList<>();
    for (String ns : namespaces) {
      gone.add(pool.submit(() -> admin.namespaces().withName(ns).delete()));
    }
    for (Future<?> f : gone) {
      f.get();
    }
    admin.nodes().withLabel("headroom.dev/load", id).delete();
    pool.shutdownNow();
  }

  /** The expected chunk count of buffer {@code j} of a namespace (Deployments at {@code replicas} pods). */
  static int expected(int j, int replicas) {
    return switch (j % 3) {
      case 0 -> (int) Math.ceil(replicas * 20 / 100.0); // percentage: 20
      case 1 -> 2; // replicas: 2
      default -> 5; // limits cpu 50m of 10m pods
    };
  }

  @Test
  void tenThousandBuffersGetTheirStatusesAndStayQuiet() throws Exception {
    long t0 = System.nanoTime();
    // Nodes: kwok's, 8 CPU, 110 pods; the Deployments' pods fit on them.
    parallel(NODES, i -> admin.nodes().resource(new NodeBuilder().withNewMetadata().withName("load-" + id + "-" + i)
        .addToLabels("headroom.dev/load", id).addToAnnotations("kwok.x-k8s.io/node", "fake").endMetadata()
        .withNewSpec().addNewTaint().withKey("kwok.x-k8s.io/node").withValue("fake").withEffect("NoSchedule").endTaint().endSpec()
        .withNewStatus().addToCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110")))
        .addToAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"))).endStatus().build()).create());
    for (int n = 0; n < NAMESPACES; n++) {
      namespaces.add("load-" + id + "-" + n);
    }
    parallel(NAMESPACES, n -> {
      String ns = namespaces.get(n);
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
      for (int d = 0; d < 2; d++) {
        admin.apps().deployments().inNamespace(ns).resource(deployment("app-" + d)).create();
      }
      if (n % 10 == 0) {
        // room for the pods and 20 chunks of 10m more: the namespace's buffers ask for more and are limited
        admin.resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder().withNewMetadata().withName("cpu").endMetadata()
            .withNewSpec().withHard(Map.of("requests.cpu", new Quantity((2 * POD_REPLICAS * 10 + 200) + "m"))).endSpec().build()).create();
      }
      for (int j = 0; j < 10; j++) {
        admin.resource(buffer(ns, j)).create();
      }
    });
    Measurements.record("load: objects created (" + BUFFERS + " buffers, " + NAMESPACES + " namespaces, " + 2 * NAMESPACES
        + " Deployments, " + NODES + " nodes) (s)", (System.nanoTime() - t0) / 1e9);
    long podsFrom = System.nanoTime();
    int pods = 2 * NAMESPACES * POD_REPLICAS;
    await("every Deployment's pods bound").atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofSeconds(5))
        .until(() -> boundPods() >= pods);
    Measurements.record("load: " + pods + " pods created and bound by the bed's controllers (s)", (System.nanoTime() - podsFrom) / 1e9);

    // The test watches the buffers (listing 10,000 of them every second would load the API server more than Headroom).
    SharedIndexInformer<GenericKubernetesResource> all = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1",
        CapacityBufferVersion.KIND).inAnyNamespace().inform();
    watched = all;
    // Headroom: buffer controller and autoscaler (a group it may scale; the buffers fit the nodes there are).
    String user = "headroom-load-" + id;
    Path groups = bed.nodeGroupFile("load-" + id, 5);
    Instant start = Instant.now();
    long startNanos = System.nanoTime();
    List<String> jvm = new ArrayList<>(List.of("-Xmx1536m", "-XX:+ExitOnOutOfMemoryError"));
    jvm.addAll(EXTRA_JVM);
    headroom = HeadroomProcess.startAs(bed, user, bed.user(user, "system:masters"), jvm,
        List.of("--leader-elect=false", "--resync-period=" + RESYNC.toSeconds() + "s", "--cloud-provider=kwok", "--node-groups=" + groups,
            "--scan-interval=10s", "--max-node-provision-time=2m", "--concurrent-reconciles=" + WORKERS),
        // at size on a loaded machine the first list of 20,000 pods alone has taken over a minute (it counts in the
        // start-to-statuses figure either way)
        Duration.ofMinutes(BUFFERS >= 5000 ? 10 : 1));
    Measurements.record("load: buffer-controller workers (--concurrent-reconciles)", WORKERS);
    await("every buffer's status written").atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofMillis(500))
        .until(() -> readyBuffers() == BUFFERS);
    double allStatuses = (System.nanoTime() - startNanos) / 1e9;
    Instant statused = Instant.now();
    Measurements.record("load: start to every status written (s), goal 60 s", allStatuses);
    Map<String, double[]> phasesAtStatuses = phases(headroom.metrics());
    checkCounts();
    // The autoscaler's conditions come a loop (and a write) after the buffer controller's status: the steady state
    // starts once every buffer carries them.
    await("every buffer's autoscaler conditions written").atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(500))
        .until(() -> buffersWithAutoscalerConditions() == BUFFERS);
    Measurements.record("load: start to every buffer carrying the autoscaler's Provisioning condition too (s)", (System.nanoTime() - startNanos) / 1e9);

    // Steady state: three resync periods after a settling period.
    await().pollDelay(RESYNC).atMost(RESYNC.plusSeconds(5)).until(() -> true);
    Instant quietFrom = Instant.now();
    await().pollDelay(RESYNC.multipliedBy(3)).atMost(RESYNC.multipliedBy(3).plusSeconds(5)).until(() -> true);
    Instant quietTo = Instant.now();
    String metrics = headroom.metrics();
    long heapUsedKb = headroom.heapAfterFullGcKb(bed.root(), 1);
    long rssKb = headroom.procStatus("VmRSS");
    long hwmKb = headroom.procStatus("VmHWM");

    // Re-size: a tenth of the Deployments (at most 100) scaled from 10 to 12; their percentage buffers go from 2 to 3.
    int scaled = Math.min(100, NAMESPACES);
    Map<String, Long> resized = new ConcurrentHashMap<>();
    SharedIndexInformer<GenericKubernetesResource> watch = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1",
        CapacityBufferVersion.KIND).inAnyNamespace().withLabel("headroom.dev/load-watch", "true").inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource b) {}

          @Override
          public void onUpdate(GenericKubernetesResource oldB, GenericKubernetesResource newB) {
            if (replicas(newB) == 3) {
              resized.putIfAbsent(newB.getMetadata().getNamespace() + "/" + newB.getMetadata().getName(), System.nanoTime());
            }
          }

          @Override
          public void onDelete(GenericKubernetesResource b, boolean unknown) {}
        });
    Map<String, Long> scaledAt = new ConcurrentHashMap<>();
    // when each scaled Deployment's observed count (status.replicas, the base of a percentage, spec §2.4) reached 12:
    // what comes before is the bed's controllers' part of the re-size, what comes after Headroom's
    Map<String, Long> observedAt = new ConcurrentHashMap<>();
    SharedIndexInformer<Deployment> deployments = admin.apps().deployments().inAnyNamespace().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Deployment d) {}

      @Override
      public void onUpdate(Deployment oldD, Deployment newD) {
        if ("app-0".equals(newD.getMetadata().getName()) && newD.getStatus() != null && Integer.valueOf(12).equals(newD.getStatus().getReplicas())) {
          observedAt.putIfAbsent(newD.getMetadata().getNamespace() + "/buf-0", System.nanoTime());
        }
      }

      @Override
      public void onDelete(Deployment d, boolean unknown) {}
    });
    try {
      parallel(scaled, n -> {
        String ns = namespaces.get(n);
        scaledAt.put(ns + "/buf-0", System.nanoTime());
        admin.apps().deployments().inNamespace(ns).withName("app-0").scale(12);
      });
      await("the scaled Deployments' buffers re-sized").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200))
          .until(() -> resized.keySet().containsAll(scaledAt.keySet()));
    } finally {
      watch.close();
      deployments.close();
    }
    List<Double> resizeSeconds = new ArrayList<>();
    List<Double> afterObserved = new ArrayList<>();
    scaledAt.forEach((k, at) -> {
      resizeSeconds.add((resized.get(k) - at) / 1e9);
      Long observed = observedAt.get(k);
      if (observed != null) {
        afterObserved.add(Math.max(0, resized.get(k) - observed) / 1e9);
      }
    });
    Collections.sort(resizeSeconds);
    Collections.sort(afterObserved);
    double p50 = percentile(resizeSeconds, 0.50);
    double p99 = percentile(resizeSeconds, 0.99);

    Map<String, double[]> phasesAtEnd = phases(metrics);
    double[] main = phasesAtEnd.getOrDefault("main", new double[3]);
    double loopSum = main[0];
    double loopCount = main[1];
    double loopMax = main[2];
    double[] mainAtStatuses = phasesAtStatuses.getOrDefault("main", new double[3]);
    StringBuilder startPhases = new StringBuilder();
    StringBuilder laterPhases = new StringBuilder();
    for (Map.Entry<String, double[]> e : phasesAtEnd.entrySet()) {
      double[] before = phasesAtStatuses.getOrDefault(e.getKey(), new double[3]);
      startPhases.append(String.format("%s %.3f; ", e.getKey(), mainAtStatuses[1] == 0 ? 0 : before[0] / mainAtStatuses[1]));
      double loopsAfter = loopCount - mainAtStatuses[1];
      laterPhases.append(String.format("%s %.3f; ", e.getKey(), loopsAfter <= 0 ? 0 : (e.getValue()[0] - before[0]) / loopsAfter));
    }
    Measurements.record("load: autoscaler phases per loop until every status (s, " + (long) mainAtStatuses[1] + " loops)", startPhases.toString().trim());
    Measurements.record("load: autoscaler phases per loop after every status (s, " + (long) (loopCount - mainAtStatuses[1]) + " loops)",
        laterPhases.toString().trim());

    headroom.close();
    long[] startWindow = requests(user, start, statused);
    long[] quiet = requests(user, quietFrom, quietTo);
    double startSeconds = Duration.between(start, statused).toMillis() / 1000.0;
    double quietSeconds = Duration.between(quietFrom, quietTo).toMillis() / 1000.0;
    Measurements.record("load: Headroom's requests per second from start to every status (requests, writes)",
        String.format("%.1f/s (%d, %d writes in %.1f s)", startWindow[0] / startSeconds, startWindow[0], startWindow[1], startSeconds));
    Measurements.record("load: Headroom's requests per second in steady state (requests, writes)",
        String.format("%.2f/s (%d, %d writes in %.1f s = 3 resync periods)", quiet[0] / quietSeconds, quiet[0], quiet[1], quietSeconds));
    Measurements.record("load: heap after full GC (MiB), goal 1024; RSS (MiB); peak RSS (MiB)",
        String.format("%.0f; %.0f; %.0f", heapUsedKb / 1024.0, rssKb / 1024.0, hwmKb / 1024.0));
    Measurements.record("load: re-size after a Deployment scale, from the scale call, " + scaled + " buffers (s): p50, p99 (goal 2 s)",
        String.format("%.2f, %.2f", p50, p99));
    Measurements.record("load: re-size from the Deployment's status.replicas reaching 12 (Headroom's part), " + afterObserved.size()
        + " buffers (s): p50, p99", String.format("%.2f, %.2f", percentile(afterObserved, 0.50), percentile(afterObserved, 0.99)));
    Measurements.record("load: autoscaler loop at " + NODES + " nodes and " + BUFFERS + " buffers (s): mean, max (goal 1 s)",
        String.format("%.3f, %.3f over %.0f loops", loopCount == 0 ? 0 : loopSum / loopCount, loopMax, loopCount));
    Measurements.record("load: goals met (statuses <= 60 s, re-size p99 < 2 s, loop < 1 s, heap < 1 GiB)",
        List.of(allStatuses <= 60, p99 < 2, loopCount > 0 && loopSum / loopCount < 1, heapUsedKb < 1024 * 1024));
    assertThat(quiet[1]).as("writes in steady state").isZero();
    assertThat(loopCount).as("autoscaler loops").isPositive();
  }

  /** Per {@code function} label of the autoscaler's duration metric: sum, count, max (a max over the whole run). */
  static Map<String, double[]> phases(String metrics) {
    Matcher m = Pattern.compile("(?m)^" + AutoscalerMetrics.FUNCTION_DURATION + "_(sum|count|max)\\{function=\"([^\"]+)\"[^}]*} ([0-9.eE+]+)$").matcher(metrics);
    Map<String, double[]> out = new java.util.TreeMap<>();
    while (m.find()) {
      double[] v = out.computeIfAbsent(m.group(2), k -> new double[3]);
      double x = Double.parseDouble(m.group(3));
      switch (m.group(1)) {
        case "sum" -> v[0] = x;
        case "count" -> v[1] = x;
        default -> v[2] = x;
      }
    }
    return out;
  }

  private Deployment deployment(String name) {
    return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withReplicas(POD_REPLICAS)
        .withNewSelector().addToMatchLabels("app", name).endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
        .addNewToleration().withKey("kwok.x-k8s.io/node").withOperator("Exists").withEffect("NoSchedule").endToleration()
        .addToNodeSelector("headroom.dev/load", id)
        .addNewContainer().withName("main").withImage("registry.k8s.io/pause:3.10").withNewResources()
        .addToRequests("cpu", new Quantity("10m")).addToRequests("memory", new Quantity("16Mi")).endResources()
        .endContainer().withTerminationGracePeriodSeconds(0L).endSpec().endTemplate().endSpec().build();
  }

  /** Buffer {@code j} of a namespace: on app-(j % 2), by percentage, replicas or limits (j % 3). */
  private GenericKubernetesResource buffer(String ns, int j) {
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    b.setKind(CapacityBufferVersion.KIND);
    ObjectMetaBuilder meta = new ObjectMetaBuilder().withName("buf-" + j).withNamespace(ns);
    if (j == 0) {
      meta.addToLabels("headroom.dev/load-watch", "true");
    }
    b.setMetadata(meta.build());
    Map<String, Object> ref = Map.of("apiGroup", "apps", "kind", "Deployment", "name", "app-" + (j % 2));
    b.setAdditionalProperty("spec", switch (j % 3) {
      case 0 -> Map.of("scalableRef", ref, "percentage", 20);
      case 1 -> Map.of("scalableRef", ref, "replicas", 2);
      default -> Map.of("scalableRef", ref, "limits", Map.of("cpu", "50m"));
    });
    return b;
  }

  /** Every buffer's count as expected (the quota-limited namespaces: at most expected, and LimitedByQuotas says why). */
  private void checkCounts() {
    List<String> wrong = new ArrayList<>();
    for (GenericKubernetesResource b : allBuffers()) {
      String ns = b.getMetadata().getNamespace();
      int j = Integer.parseInt(b.getMetadata().getName().substring(4));
      boolean quota = namespaces.indexOf(ns) % 10 == 0;
      int want = expected(j, POD_REPLICAS);
      int got = replicas(b);
      if (quota ? got > want : got != want) {
        wrong.add(ns + "/" + b.getMetadata().getName() + " " + got + " (want " + (quota ? "<= " : "") + want + ")");
      }
    }
    assertThat(wrong).as("buffers with an unexpected count").isEmpty();
  }

  private List<GenericKubernetesResource> allBuffers() {
    Set<String> mine = new HashSet<>(namespaces);
    return watched.getStore().list().stream().filter(b -> mine.contains(b.getMetadata().getNamespace())).toList();
  }

  @SuppressWarnings("unchecked")
  private long readyBuffers() {
    return allBuffers().stream().filter(b -> b.getAdditionalProperties().get("status") instanceof Map<?, ?> s
        && s.get("conditions") instanceof List<?> l && ((List<Map<String, Object>>) l).stream()
            .anyMatch(c -> "ReadyForProvisioning".equals(c.get("type")) && "True".equals(c.get("status")))
        && s.get("replicas") != null).count();
  }

  @SuppressWarnings("unchecked")
  private long buffersWithAutoscalerConditions() {
    return allBuffers().stream().filter(b -> b.getAdditionalProperties().get("status") instanceof Map<?, ?> s
        && s.get("conditions") instanceof List<?> l && ((List<Map<String, Object>>) l).stream()
            .anyMatch(c -> "Provisioning".equals(c.get("type")))).count();
  }

  private long boundPods() {
    Set<String> mine = new HashSet<>(namespaces);
    return admin.pods().inAnyNamespace().withLabel("app").list().getItems().stream()
        .filter(p -> mine.contains(p.getMetadata().getNamespace()) && p.getSpec().getNodeName() != null).count();
  }

  private static int replicas(GenericKubernetesResource b) {
    return b.getAdditionalProperties().get("status") instanceof Map<?, ?> s && s.get("replicas") instanceof Number n ? n.intValue() : -1;
  }

  private static double percentile(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }

  /**
   * Completed requests and writes of {@code user} received in [from, to), read from the audit log line by line without
   * keeping it (at size it holds every pod write of the bed with its body).
   */
  private long[] requests(String user, Instant from, Instant to) throws Exception {
    Path file = bed.auditLogPath();
    String who = "\"username\":\"" + user + "\"";
    Pattern received = Pattern.compile("\"requestReceivedTimestamp\":\"([^\"]+)\"");
    Pattern verb = Pattern.compile("\"verb\":\"([a-z]+)\"");
    long all = 0;
    long writes = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.contains(who) || !line.contains("\"stage\":\"ResponseComplete\"")) {
          continue;
        }
        Matcher t = received.matcher(line);
        Matcher v = verb.matcher(line);
        if (!t.find() || !v.find()) {
          continue;
        }
        Instant at = Instant.parse(t.group(1));
        if (at.isBefore(from) || !at.isBefore(to)) {
          continue;
        }
        all++;
        if (List.of("create", "update", "patch", "delete", "deletecollection").contains(v.group(1))) {
          writes++;
        }
      }
    }
    return new long[] {all, writes};
  }

  private interface IntTask {
    void run(int i) throws Exception;
  }

  private void parallel(int n, IntTask task) throws Exception {
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = i;
      futures.add(pool.submit(() -> {
        task.run(k);
        return null;
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
  }
}
