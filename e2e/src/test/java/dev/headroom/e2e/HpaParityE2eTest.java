package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.core.workload.Behavior;
import dev.headroom.core.workload.HpaAutoscaler;
import dev.headroom.core.workload.HpaConfig;
import dev.headroom.core.workload.HpaDecision;
import dev.headroom.core.workload.HpaMetric;
import dev.headroom.core.workload.MetricReading;
import dev.headroom.core.workload.PodInfo;
import dev.headroom.core.workload.ScaleTarget;
import dev.headroom.core.workload.ScalingHistory;
import dev.headroom.core.workload.ScalingPolicy;
import dev.headroom.core.workload.ScalingRules;
import dev.headroom.core.workload.SelectPolicy;
import dev.headroom.core.workload.TargetKind;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #24 item 3: the real HPA controller of kube-controller-manager (sync period 1 s in the bed) scales two
 * Deployments from an external metric the test serves ({@link ExternalMetricsServer}), one with an AverageValue
 * target and one with a Value target, each with its own scale-up and scale-down policies and stabilisation windows.
 * The test holds each value of a series until the Deployment has settled and the controller has synced it a number
 * of times, and records every sync: when the controller read the metric, the value it read, the Deployment's state
 * at that moment (status.replicas and the pods, from informers) and what the controller then wrote to the scale
 * subresource (the API server's audit log), if anything. Then Headroom's {@link HpaAutoscaler} is fed the same
 * observations in the same order, with the same spec, and every decision is compared.
 */
class HpaParityE2eTest {
  static final String NODE_LABEL = "headroom.dev/e2e-hpa";
  /** Consecutive syncs of one value without a scale write before the series moves on (covers every window). */
  static final int QUIET_SYNCS = 10;

  /** One HPA of the test: its spec (rendered into YAML and into an {@link HpaConfig}) and the series it replays. */
  record Case(String deployment, String cpu, String metric, TargetKind kind, long target, int min, int max, int initial,
      int upWindow, SelectPolicy upSelect, List<ScalingPolicy> up, int downWindow, SelectPolicy downSelect,
      List<ScalingPolicy> down, List<Long> series) {

    HpaConfig config() {
      Behavior b = new Behavior(new ScalingRules(upWindow, upSelect, up, null),
          new ScalingRules(downWindow, downSelect, down, null));
      return HpaConfig.of(List.of(HpaMetric.external(metric, kind, target * 1000)), min, max).withBehavior(b)
          .withSyncPeriod(Duration.ZERO);
    }

    String yaml(String namespace) {
      String targetField = kind == TargetKind.VALUE ? "{type: Value, value: \"" + target + "\"}"
          : "{type: AverageValue, averageValue: \"" + target + "\"}";
      return """
          apiVersion: autoscaling/v2
          kind: HorizontalPodAutoscaler
          metadata:
            name: %s
            namespace: %s
          spec:
            scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}
            minReplicas: %d
            maxReplicas: %d
            metrics:
            - type: External
              external:
                metric: {name: %s}
                target: %s
            behavior:
              scaleUp:
                stabilizationWindowSeconds: %d
                selectPolicy: %s
                policies: %s
              scaleDown:
                stabilizationWindowSeconds: %d
                selectPolicy: %s
                policies: %s
          """.formatted(deployment, namespace, deployment, min, max, metric, targetField, upWindow, select(upSelect),
          policies(up), downWindow, select(downSelect), policies(down));
    }

    private static String select(SelectPolicy p) {
      return switch (p) {
        case MAX -> "Max";
        case MIN -> "Min";
        case DISABLED -> "Disabled";
      };
    }

    private static String policies(List<ScalingPolicy> ps) {
      return ps.stream().map(p -> "{type: " + (p.type() == ScalingPolicy.Type.PODS ? "Pods" : "Percent") + ", value: "
          + p.value() + ", periodSeconds: " + p.periodSeconds() + "}").collect(Collectors.joining(", ", "[", "]"));
    }
  }

  /** What the Deployment looked like when the controller read the metric. */
  record Snapshot(int specReplicas, int statusReplicas, List<PodInfo> pods) {}

  /** One sync of the controller, and the decisions of both. */
  record Sync(Instant at, long milli, int current, Snapshot seen, int controller, HpaDecision headroom, boolean edge) {
    boolean agrees() {
      return controller == headroom.replicas();
    }

    @Override
    public String toString() {
      long ready = seen.pods().stream().filter(PodInfo::runningAndReady).count();
      return at + " value=" + milli / 1000.0 + " current=" + current + " status=" + seen.statusReplicas() + " ready="
          + ready + " -> controller " + controller + ", headroom " + headroom.replicas() + " (" + headroom.reason() + ")"
          + (agrees() ? "" : edge ? " at a timing edge" : " DIFFERENT");
    }
  }

  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private ExternalMetricsServer metrics;
  private SharedIndexInformer<Pod> pods;
  private SharedIndexInformer<Deployment> deployments;
  private final Map<ExternalMetricsServer.Request, Snapshot> snapshots = new ConcurrentHashMap<>();
  private final List<String> nodes = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    ns = bed.namespace("hpa");
    for (int i = 0; i < 2; i++) {
      String name = ns + "-node-" + i;
      Node n = new NodeBuilder().withNewMetadata().withName(name).addToLabels(NODE_LABEL, ns)
          .addToAnnotations("kwok.x-k8s.io/node", "fake").endMetadata().withNewStatus()
          .addToCapacity(Map.of("cpu", new Quantity("16"), "memory", new Quantity("32Gi"), "pods", new Quantity("110")))
          .addToAllocatable(Map.of("cpu", new Quantity("16"), "memory", new Quantity("32Gi"), "pods", new Quantity("110")))
          .endStatus().build();
      admin.nodes().resource(n).create();
      nodes.add(name);
    }
    pods = admin.pods().inNamespace(ns).inform();
    deployments = admin.apps().deployments().inNamespace(ns).inform();
    metrics = ExternalMetricsServer.start(bed, bed.out().resolve("hpa-parity"));
    metrics.onRequest(r -> snapshots.put(r, snapshot(deploymentOf(r.metric()))));
  }

  @AfterEach
  void tearDown() {
    if (metrics != null) {
      metrics.close();
    }
    if (pods != null) {
      pods.close();
      deployments.close();
    }
    bed.deleteNamespace(ns);
    for (String n : nodes) {
      admin.nodes().withName(n).delete();
    }
  }

  private final Map<String, String> deploymentOfMetric = new ConcurrentHashMap<>();

  private String deploymentOf(String metric) {
    return deploymentOfMetric.get(metric);
  }

  @Test
  void theRealHpaControllerAndHpaAutoscalerDecideAlike() throws IOException {
    // AverageValue: replicas = ceil(total / 10), rate-limited up by 2 pods per 4 s, down by 50 % per 4 s after a
    // 6 s window.
    Case avg = new Case("avg", "100m", "queue_avg", TargetKind.AVERAGE_VALUE, 10, 1, 10, 1,
        0, SelectPolicy.MAX, List.of(ScalingPolicy.pods(2, 4)),
        6, SelectPolicy.MAX, List.of(ScalingPolicy.percent(50, 4)),
        List.of(10L, 75L, 18L, 3L));
    // Value: replicas = ceil(value / 20 x ready pods); up: the larger of 100 % and 1 pod per 3 s after a 2 s window;
    // down: the smaller of 1 pod and 50 % per 2 s after a 5 s window. Its pods ask for 3.5 CPUs, so the two 16-CPU
    // nodes hold 8 of them: above 8 replicas the rest stay Pending, and the controller multiplies by 8 ready pods.
    Case val = new Case("val", "3500m", "backlog_val", TargetKind.VALUE, 20, 1, 12, 2,
        2, SelectPolicy.MAX, List.of(ScalingPolicy.percent(100, 3), ScalingPolicy.pods(1, 3)),
        5, SelectPolicy.MIN, List.of(ScalingPolicy.pods(1, 2), ScalingPolicy.percent(50, 2)),
        List.of(20L, 30L, 8L));
    List<Case> cases = List.of(avg, val);
    for (Case c : cases) {
      deploymentOfMetric.put(c.metric(), c.deployment());
      deployment(c.deployment(), c.cpu(), c.initial());
      metrics.set(c.metric(), c.series().get(0) * 1000);
    }
    Duration settle = Duration.ofSeconds(120);
    for (Case c : cases) {
      await(c.deployment() + " ready").atMost(settle).pollInterval(Duration.ofMillis(200))
          .until(() -> settled(c.deployment(), c.initial()));
    }
    Instant started = Instant.now();
    for (Case c : cases) {
      admin.resource(c.yaml(ns)).inNamespace(ns).create();
    }
    Map<String, Integer> step = new ConcurrentHashMap<>();
    Map<String, Integer> stepStart = new ConcurrentHashMap<>();
    cases.forEach(c -> {
      step.put(c.metric(), 0);
      stepStart.put(c.metric(), 0);
    });
    await("every series replayed").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(200)).until(() -> {
      boolean done = true;
      for (Case c : cases) {
        int s = step.get(c.metric());
        if (s >= c.series().size()) {
          continue;
        }
        done = false;
        List<ExternalMetricsServer.Request> seen = metrics.requests(c.metric());
        List<ExternalMetricsServer.Request> sinceStep = seen.subList(stepStart.get(c.metric()), seen.size());
        if (quiet(c, sinceStep)) {
          int next = s + 1;
          step.put(c.metric(), next);
          stepStart.put(c.metric(), seen.size());
          if (next < c.series().size()) {
            metrics.set(c.metric(), c.series().get(next) * 1000);
          }
        }
      }
      return done;
    });
    for (Case c : cases) {
      admin.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName(c.deployment()).delete();
    }
    Duration replay = Duration.between(started, Instant.now());

    StringBuilder report = new StringBuilder();
    int total = 0;
    int differing = 0;
    int edges = 0;
    List<String> failures = new ArrayList<>();
    for (Case c : cases) {
      List<Sync> syncs = replayThroughHeadroom(c);
      report.append("== ").append(c.deployment()).append(" (").append(c.kind()).append(' ').append(c.target())
          .append(", series ").append(c.series()).append(")\n");
      for (Sync s : syncs) {
        report.append(s.agrees() ? "   " : "!! ").append(s).append('\n');
        total++;
        if (!s.agrees()) {
          differing++;
          if (s.edge()) {
            edges++;
          } else {
            failures.add(c.deployment() + ": " + s);
          }
        }
      }
      List<Integer> path = new ArrayList<>();
      path.add(c.initial());
      syncs.stream().filter(s -> s.controller() != s.current()).forEach(s -> path.add(s.controller()));
      Measurements.record("HPA parity " + c.deployment() + " (" + c.kind() + "): replica path of the controller", path);
    }
    Path file = bed.out().resolve("hpa-parity.txt");
    Files.writeString(file, report, StandardCharsets.UTF_8);
    Measurements.record("HPA parity: syncs compared / differing / of those at a timing edge (series replay " + replay.toSeconds() + " s, load " + load() + ")", total + " / " + differing + " / " + edges);
    assertThat(total).as("syncs recorded").isGreaterThan(4 * QUIET_SYNCS);
    assertThat(failures).as("syncs where the HPA controller and HpaAutoscaler differ, other than at a timing edge (all syncs in " + file + ")")
        .isEmpty();
  }

  /** The series may move on: the Deployment settled, and QUIET_SYNCS syncs of this value since the last scale write. */
  private boolean quiet(Case c, List<ExternalMetricsServer.Request> sinceStep) {
    Deployment d = deployments.getIndexer().getByKey(ns + "/" + c.deployment());
    if (d == null || sinceStep.size() < QUIET_SYNCS) {
      return false;
    }
    int spec = d.getSpec().getReplicas();
    Snapshot now = snapshot(c.deployment());
    if (now.statusReplicas() != spec || now.pods().size() != spec) {
      return false;
    }
    // Every pod exists; the ready ones (all of them, or as many as the nodes hold) unchanged for QUIET_SYNCS syncs.
    List<ExternalMetricsServer.Request> last = sinceStep.subList(sinceStep.size() - QUIET_SYNCS, sinceStep.size());
    return last.stream().allMatch(r -> snapshots.containsKey(r) && snapshots.get(r).specReplicas() == spec
        && snapshots.get(r).statusReplicas() == spec && ready(snapshots.get(r)) == ready(now));
  }

  private static long ready(Snapshot s) {
    return s.pods().stream().filter(PodInfo::runningAndReady).count();
  }

  private List<AuditLog.Event> scaleWrites(String deployment) {
    return bed.audit().events(e -> e.verb().equals("update") && e.resource().equals("deployments")
        && e.subresource().equals("scale") && e.namespace().equals(ns) && e.name().equals(deployment) && e.code() == 200);
  }

  /**
   * The controller's syncs of one case, each with its decision (the scale write that followed it before the next
   * sync, or no change), and HpaAutoscaler's decision for the same observation. Headroom decides every sync from the
   * history the controller has at that point: the recommendations of the earlier syncs (the same inputs give the same
   * recommendations) and the controller's own scale events, so one difference does not carry into the next syncs.
   * A difference is at a timing edge when the controller's count lies between Headroom's decisions at the two ends
   * of what the controller's clock can have been: the controller stamps recommendations and scale events, and reads
   * its "now", with its own {@code time.Now()} (horizontal.go: {@code stabilizeRecommendationWithBehaviors},
   * {@code storeScaleEvent}), some time after the metric read Headroom is given and before its next read; under load
   * that is hundreds of milliseconds, so an entry that close to a window or period edge counts for one and not for the
   * other.
   */
  private List<Sync> replayThroughHeadroom(Case c) {
    List<ExternalMetricsServer.Request> reads = metrics.requests(c.metric());
    List<AuditLog.Event> writes = scaleWrites(c.deployment());
    Instant created = reads.get(0).at();
    ScalingHistory history = new ScalingHistory().recommendation(c.initial(), created); // recordInitialRecommendation
    ScalingHistory late = new ScalingHistory().recommendation(c.initial(), created); // the same, stamped late
    List<Sync> out = new ArrayList<>();
    int current = c.initial();
    int w = 0;
    for (int i = 0; i < reads.size(); i++) {
      ExternalMetricsServer.Request r = reads.get(i);
      Instant next = i + 1 < reads.size() ? reads.get(i + 1).at() : Instant.MAX;
      int decided = current;
      int inWindow = 0;
      while (w < writes.size() && writes.get(w).received().isBefore(next)) {
        if (writes.get(w).received().isAfter(r.at())) {
          decided = writes.get(w).raw().path("requestObject").path("spec").path("replicas").asInt();
          inWindow++;
        }
        w++;
      }
      assertThat(inWindow).as("scale writes between two syncs of " + c.deployment()).isLessThanOrEqualTo(1);
      Snapshot seen = snapshots.get(r);
      ScaleTarget target = new ScaleTarget(current, seen.statusReplicas(), seen.pods());
      Map<String, MetricReading> readings = Map.of(c.metric(), MetricReading.external(r.milli()));
      ScalingHistory after = copy(history, null);
      HpaDecision d = HpaAutoscaler.withHistory(c.config(), created, after).decide(r.at(), target, readings);
      Instant until = i + 1 < reads.size() ? next : r.at().plusSeconds(1);
      boolean edge = false;
      if (d.replicas() != decided) {
        // The controller's clock for this sync lies in [read, next read); its entries were stamped in the same
        // bounds. Fewest entries in the windows: early stamps, latest now; most: late stamps, earliest now.
        int fewest = HpaAutoscaler.withHistory(c.config(), created, copy(history, null))
            .decide(until.minusMillis(1), target, readings).replicas();
        int most = HpaAutoscaler.withHistory(c.config(), created, copy(late, null))
            .decide(r.at(), target, readings).replicas();
        edge = Math.min(fewest, most) <= decided && decided <= Math.max(fewest, most);
      }
      int recommended = after.recommendations().stream().filter(x -> x.at().equals(r.at())).mapToInt(x -> x.replicas())
          .findFirst().orElse(current);
      // the history as the controller has it: this sync's recommendation, and its scale event, not Headroom's
      history = copy(after, d.replicas() != current ? r.at() : null);
      late = copy(late, null).recommendation(recommended, until.minusMillis(1));
      if (decided > current) {
        history.scaleUp(decided - current, r.at());
        late.scaleUp(decided - current, until.minusMillis(1));
      } else if (decided < current) {
        history.scaleDown(current - decided, r.at());
        late.scaleDown(current - decided, until.minusMillis(1));
      }
      out.add(new Sync(r.at(), r.milli(), current, seen, decided, d, edge));
      current = decided;
    }
    return out;
  }

  /** A copy of a history without its outdated events, and without the events recorded at {@code drop}. */
  private static ScalingHistory copy(ScalingHistory h, Instant drop) {
    ScalingHistory c = new ScalingHistory();
    h.recommendations().forEach(x -> c.recommendation(x.replicas(), x.at()));
    h.scaleUpEvents().stream().filter(e -> !e.outdated() && !e.at().equals(drop)).forEach(e -> c.scaleUp(e.change(), e.at()));
    h.scaleDownEvents().stream().filter(e -> !e.outdated() && !e.at().equals(drop))
        .forEach(e -> c.scaleDown(e.change(), e.at()));
    return c;
  }

  private Snapshot snapshot(String deployment) {
    Deployment d = deployments.getIndexer().getByKey(ns + "/" + deployment);
    int status = d == null || d.getStatus() == null || d.getStatus().getReplicas() == null ? 0 : d.getStatus().getReplicas();
    List<PodInfo> list = pods.getIndexer().list().stream()
        .filter(p -> deployment.equals(p.getMetadata().getLabels().get("app")))
        .map(PodInfo::from).toList();
    return new Snapshot(d == null ? -1 : d.getSpec().getReplicas(), status, list);
  }

  private boolean settled(String deployment, int replicas) {
    Deployment d = deployments.getIndexer().getByKey(ns + "/" + deployment);
    if (d == null || d.getStatus() == null || d.getSpec().getReplicas() != replicas) {
      return false;
    }
    Integer status = d.getStatus().getReplicas();
    List<PodInfo> mine = snapshot(deployment).pods();
    return (replicas == 0 ? status == null || status == 0 : status != null && status == replicas)
        && mine.size() == replicas && mine.stream().allMatch(PodInfo::runningAndReady);
  }

  private void deployment(String name, String cpu, int replicas) {
    Deployment d = new DeploymentBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
        .withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
        .addToNodeSelector(NODE_LABEL, ns)
        .addNewToleration().withKey("kwok.x-k8s.io/node").withOperator("Exists").withEffect("NoSchedule").endToleration()
        .addNewContainer().withName("main").withImage("registry.k8s.io/pause:3.10").withNewResources()
        .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("64Mi")).endResources()
        .endContainer().withTerminationGracePeriodSeconds(0L).endSpec().endTemplate().endSpec().build();
    bed.create(ns, d);
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }
}
