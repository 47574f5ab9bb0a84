package dev.headroom.e2e;

import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.core.autoscaler.AutoscalerOption;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.sim.scenario.Scenario;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One strategy of a scenario run for real on the bed, its timeline compressed by {@code scale} (every duration of
 * the scenario divided by it): the scenario's node groups as KWOK node groups of {@code headroom run} (the start-up
 * delay in {@link CalibrationKwok}'s stages), each workload a Deployment whose replicas follow the timeline the
 * simulator computed for this strategy, each job a batch/v1 Job whose pods kwok completes after the run time, the
 * strategy's CapacityBuffers, the real kube-scheduler, and {@code headroom run} (buffer controller and autoscaler)
 * as a process. A label of its own on the nodes and a node selector on the pods keep it apart from a run of another
 * strategy at the same time.
 */
final class CalibrationRun {
  static final String RUN_LABEL = "calibration.headroom.dev/run";

  private final TestBed bed;
  private final KubernetesClient admin;
  private final Scenario scenario;
  private final Scenario.Strategy strategy;
  private final Map<String, TreeMap<Long, Integer>> replicas;
  private final double scale;
  private final String tag;
  private final String ns;
  /** Monotonic milliseconds since {@link #base} for every watch event. */
  private final long base = System.nanoTime();
  private final Map<String, long[]> pods = new ConcurrentHashMap<>();      // name → {created, bound or -1, gone or -1}
  private final Map<String, long[]> nodes = new ConcurrentHashMap<>();     // name → {created, deleted, schedulable, Ready; -1: not seen}
  private final Map<String, String> nodeGroupOf = new ConcurrentHashMap<>();
  private final Map<String, Double> prices = new HashMap<>();
  private final Map<String, Long> delays = new HashMap<>();
  /** Writes each new node's {@link CalibrationKwok#READY_AT}, off the watch's thread. */
  private final java.util.concurrent.ExecutorService annotator = Executors.newSingleThreadExecutor();

  CalibrationRun(TestBed bed, Scenario scenario, Scenario.Strategy strategy, Map<String, TreeMap<Long, Integer>> replicas, double scale, String tag) {
    this.bed = bed;
    this.admin = bed.admin();
    this.scenario = scenario;
    this.strategy = strategy;
    this.replicas = replicas;
    this.scale = scale;
    this.tag = tag;
    this.ns = "calibration-" + tag;
  }

  private long now() {
    return (System.nanoTime() - base) / 1_000_000;
  }

  private Duration scaled(Duration d) {
    return Duration.ofNanos(Math.round(d.toNanos() / scale));
  }

  private static String go(Duration d) {
    return d.toMillis() + "ms";
  }

  private String groupId(NodeGroup g) {
    return g.id() + "-" + tag;
  }

  /** Runs the strategy and returns its figures (scenario seconds). */
  Calibration.Figures run() throws IOException, InterruptedException {
    bed.createNamespace(ns);
    Watch podWatch = admin.pods().inNamespace(ns).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod p) {
        long t = now();
        long[] r = pods.computeIfAbsent(p.getMetadata().getName(), n -> new long[] {t, -1, -1});
        if (r[1] < 0 && p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()) {
          r[1] = t;
        }
        if (r[2] < 0 && (action == Action.DELETED || p.getMetadata().getDeletionTimestamp() != null)) {
          r[2] = t;
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    });
    Watch nodeWatch = admin.nodes().withLabel(RUN_LABEL, tag).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Node n) {
        long t = now();
        boolean fresh = !nodes.containsKey(n.getMetadata().getName());
        long[] r = nodes.computeIfAbsent(n.getMetadata().getName(), x -> new long[] {t, -1, -1, -1});
        Map<String, String> a = n.getMetadata().getAnnotations();
        if (fresh && a != null && a.containsKey(CalibrationKwok.NODE_DELAY) && !a.containsKey(CalibrationKwok.READY_AT)) {
          Instant at = Instant.now().plusMillis(Long.parseLong(a.get(CalibrationKwok.NODE_DELAY).replace("ms", "")));
          String name = n.getMetadata().getName();
          annotator.submit(() -> admin.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"annotations\":{\"" + CalibrationKwok.READY_AT + "\":\"" + at + "\"}}}"));
        }
        if (r[3] < 0 && nodeReady(n)) {
          r[3] = t;
        }
        if (r[2] < 0 && schedulable(n)) {
          r[2] = t;
        }
        nodeGroupOf.putIfAbsent(n.getMetadata().getName(), n.getMetadata().getLabels().getOrDefault(NodeGroupLabels.NODE_GROUP, ""));
        if (r[1] < 0 && (action == Action.DELETED || n.getMetadata().getDeletionTimestamp() != null)) {
          r[1] = t;
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    });
    HeadroomProcess headroom = null;
    ScheduledExecutorService timeline = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread th = new Thread(r, "calibration-" + tag);
      th.setDaemon(true);
      return th;
    });
    try {
      Path groups = nodeGroupFile();
      createInitialNodes();
      for (Scenario.Workload w : scenario.workloads()) {
        createDeployment(w);
      }
      int initial = scenario.workloads().stream().mapToInt(Scenario.Workload::replicas).sum();
      await(ns + ": initial replicas bound and Ready").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
          .until(() -> admin.pods().inNamespace(ns).list().getItems().stream().filter(CalibrationRun::ready).count() == initial);
      if (strategy instanceof Scenario.Buffers b) {
        for (Scenario.BufferDef d : b.buffers()) {
          createBuffer(d);
        }
      }
      Set<String> before = Set.copyOf(pods.keySet());
      headroom = HeadroomProcess.start(bed, "headroom-" + ns, headroomArgs(groups));
      long t0 = now();
      for (Map.Entry<String, TreeMap<Long, Integer>> e : replicas.entrySet()) {
        String w = e.getKey();
        for (Map.Entry<Long, Integer> step : e.getValue().entrySet()) {
          if (step.getKey() == 0) {
            continue;
          }
          int r = step.getValue();
          timeline.schedule(() -> admin.apps().deployments().inNamespace(ns).withName(w).scale(r),
              Math.round(step.getKey() * 1000 / scale), TimeUnit.MILLISECONDS);
        }
      }
      for (Scenario.Job j : scenario.jobs()) {
        long every = j.every().toMillis();
        int n = 0;
        for (long at = j.start().toMillis(); at < scenario.duration().toMillis(); at += every) {
          int index = ++n;
          timeline.schedule(() -> createJob(j, index), Math.round(at / scale), TimeUnit.MILLISECONDS);
          if (every <= 0) {
            break;
          }
        }
      }
      long end = t0 + Math.round(scenario.duration().toMillis() / scale);
      HeadroomProcess h = headroom;
      await(ns + ": the scenario's " + scenario.duration() + " at 1/" + scale).pollDelay(Duration.ofMillis(end - now()))
          .atMost(Duration.ofMillis(end - now() + 60_000)).pollInterval(Duration.ofMillis(500)).until(() -> {
            h.checkAlive();
            return now() >= end;
          });
      writeTimeline(t0, before);
      String metrics = "";
      try {
        metrics = h.metrics();
      } catch (IOException | InterruptedException e) {
        // no loop figure then
      }
      double loop = Calibration.histogramQuantile(metrics, "headroom_function_duration_seconds", "function=\"main\"", 0.95) * scale;
      return figures(before, t0, end, loop);
    } finally {
      timeline.shutdownNow();
      annotator.shutdownNow();
      if (headroom != null) {
        headroom.close();
      }
      podWatch.close();
      nodeWatch.close();
      bed.deleteNamespace(ns);
      admin.nodes().withLabel(RUN_LABEL, tag).delete();
    }
  }

  private Calibration.Figures figures(Set<String> before, long t0, long end, double loopP95) {
    List<Double> waits = new ArrayList<>();
    for (Map.Entry<String, long[]> e : pods.entrySet()) {
      long[] r = e.getValue();
      if (before.contains(e.getKey()) || r[0] < t0 || r[0] >= end) {
        continue;
      }
      long until = r[1] >= 0 ? r[1] : r[2] >= 0 ? Math.min(r[2], end) : end;
      waits.add(Math.max(0, until - r[0]) * scale / 1000.0);
    }
    waits.sort(null);
    double slo = scenario.sloPodWait().toMillis() / 1000.0;
    double nodeHours = 0;
    double cost = 0;
    TreeMap<Long, Integer> count = new TreeMap<>();
    long tick = scenario.tick().toMillis();
    for (long t = 0; t <= scenario.duration().toMillis(); t += tick) {
      count.put(t / 1000, 0);
    }
    for (Map.Entry<String, long[]> e : nodes.entrySet()) {
      long[] r = e.getValue();
      long from = Math.max(r[0], t0);
      long to = r[1] >= 0 ? Math.min(r[1], end) : end;
      if (to <= from) {
        continue;
      }
      double hours = (to - from) * scale / 3_600_000.0;
      nodeHours += hours;
      cost += hours * prices.getOrDefault(nodeGroupOf.get(e.getKey()), 0.0);
      for (Map.Entry<Long, Integer> c : count.entrySet()) {
        long real = t0 + Math.round(c.getKey() * 1000 / scale);
        if (real >= r[0] && (r[1] < 0 || real < r[1])) {
          c.setValue(c.getValue() + 1);
        }
      }
    }
    List<Double> overheads = new ArrayList<>();
    for (Map.Entry<String, long[]> e : nodes.entrySet()) {
      long[] r = e.getValue();
      if (r[0] >= t0 && r[2] >= 0) {
        overheads.add((r[2] - r[0] - delays.getOrDefault(nodeGroupOf.get(e.getKey()), 0L)) * scale / 1000.0);
      }
    }
    overheads.sort(null);
    List<Double> initialWaits = new ArrayList<>();
    for (String name : before) {
      long[] r = pods.get(name);
      if (r != null && r[1] >= 0) {
        initialWaits.add((r[1] - r[0]) * scale / 1000.0);
      }
    }
    initialWaits.sort(null);
    int over = (int) waits.stream().filter(w -> w > slo).count();
    return new Calibration.Figures(strategy.name(), waits.size(), Calibration.percentile(waits, 0.50), Calibration.percentile(waits, 0.95),
        waits.isEmpty() ? 0 : waits.get(waits.size() - 1), over, nodeHours, cost, count, Calibration.percentile(overheads, 0.5),
        Calibration.percentile(initialWaits, 0.95), loopP95);
  }

  /** Every pod and node of the run, in scenario seconds since the start: {@code target/e2e/calibration-TAG-*.csv}. */
  private void writeTimeline(long t0, Set<String> before) throws IOException {
    StringBuilder p = new StringBuilder("pod,initial,created_s,bound_s,gone_s\n");
    pods.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> p.append(e.getKey()).append(',')
        .append(before.contains(e.getKey())).append(',').append(since(t0, e.getValue()[0])).append(',')
        .append(since(t0, e.getValue()[1])).append(',').append(since(t0, e.getValue()[2])).append('\n'));
    Files.writeString(bed.out().resolve("calibration-" + tag + "-" + strategy.name() + "-pods.csv"), p);
    StringBuilder n = new StringBuilder("node,group,created_s,ready_s,schedulable_s,deleted_s\n");
    nodes.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> n.append(e.getKey()).append(',')
        .append(nodeGroupOf.get(e.getKey())).append(',').append(since(t0, e.getValue()[0])).append(',')
        .append(since(t0, e.getValue()[3])).append(',').append(since(t0, e.getValue()[2])).append(',').append(since(t0, e.getValue()[1])).append('\n'));
    Files.writeString(bed.out().resolve("calibration-" + tag + "-" + strategy.name() + "-nodes.csv"), n);
  }

  private String since(long t0, long t) {
    return t < 0 ? "" : String.format(java.util.Locale.ROOT, "%.1f", (t - t0) * scale / 1000.0);
  }

  /** The scenario's node groups for {@code --node-groups}: ids and a label of this run's own; Ready is kwok's. */
  private Path nodeGroupFile() throws IOException {
    KubernetesSerialization ser = admin.getKubernetesSerialization();
    StringBuilder yaml = new StringBuilder();
    for (NodeGroup g : scenario.nodeGroups()) {
      prices.put(groupId(g), g.pricePerHour());
      delays.put(groupId(g), scaled(g.provisioningDelay()).toMillis());
      Map<String, Object> template = ser.convertValue(templateFor(g, scaled(g.provisioningDelay())), Map.class);
      ((Map<?, ?>) template).remove("spec");
      ((Map<?, ?>) template).remove("kind");
      ((Map<?, ?>) template).remove("apiVersion");
      Map<String, Object> spec = new LinkedHashMap<>();
      spec.put("minSize", g.minSize());
      spec.put("maxSize", g.maxSize());
      spec.put("targetSize", g.targetSize());
      spec.put("price", g.pricePerHour());
      // kwok turns the node Ready after the delay in its annotation; Headroom's own promotion never comes first
      spec.put("provisioningDelay", "24h");
      spec.put("template", template);
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("apiVersion", "headroom.dev/v1alpha1");
      doc.put("kind", "NodeGroup");
      doc.put("metadata", Map.of("name", groupId(g)));
      doc.put("spec", spec);
      yaml.append(ser.asYaml(doc));
    }
    Path file = bed.out().resolve(ns + "-node-groups.yaml");
    Files.writeString(file, yaml.toString());
    return file;
  }

  private Node templateFor(NodeGroup g, Duration delay) {
    Node t = g.template();
    Map<String, String> labels = new LinkedHashMap<>(t.getMetadata().getLabels() == null ? Map.of() : t.getMetadata().getLabels());
    labels.put(RUN_LABEL, tag);
    Map<String, String> annotations = new LinkedHashMap<>(t.getMetadata().getAnnotations() == null ? Map.of() : t.getMetadata().getAnnotations());
    annotations.put(KwokProvider.KWOK_ANNOTATION, CalibrationKwok.KWOK_VALUE);
    annotations.put(CalibrationKwok.NODE_DELAY, go(delay));
    return new NodeBuilder().withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
        .withNewStatus().withCapacity(t.getStatus().getCapacity()).withAllocatable(t.getStatus().getAllocatable()).endStatus().build();
  }

  /** The groups' {@code targetSize} nodes, Ready at the start, as Headroom's KWOK provider would have created them. */
  private void createInitialNodes() {
    List<String> names = new ArrayList<>();
    for (NodeGroup g : scenario.nodeGroups()) {
      for (int i = 0; i < g.targetSize(); i++) {
        String name = groupId(g) + "-init" + i;
        Node t = templateFor(g, Duration.ZERO);
        t.getMetadata().setName(name);
        t.getMetadata().getLabels().put(NodeGroupLabels.NODE_GROUP, groupId(g));
        t.getMetadata().getLabels().put(NodeGroupLabels.HOSTNAME, name);
        t.getMetadata().getAnnotations().put(KwokProvider.MANAGED_ANNOTATION, "true");
        t.getMetadata().getAnnotations().put(CalibrationKwok.READY_AT, Instant.now().toString());
        t.getMetadata().getAnnotations().put(KwokProvider.REQUESTED_AT_ANNOTATION, DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
        t.setSpec(new io.fabric8.kubernetes.api.model.NodeSpecBuilder().withProviderID(KwokProvider.PROVIDER_ID_PREFIX + name).build());
        t.getStatus().setConditions(List.of(new NodeConditionBuilder().withType("Ready").withStatus("False").withReason("Starting").build()));
        admin.nodes().resource(t).create();
        names.add(name);
      }
    }
    await(ns + ": initial nodes Ready and untainted").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() ->
        names.stream().allMatch(n -> {
          Node node = admin.nodes().withName(n).get();
          return node != null && node.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"))
              && (node.getSpec().getTaints() == null || node.getSpec().getTaints().isEmpty());
        }));
  }

  private PodTemplateSpec podTemplate(String app, PodSpec pod, Duration startup, Duration runTime, String restartPolicy) {
    PodSpecBuilder spec = new PodSpecBuilder(admin.getKubernetesSerialization().clone(pod))
        .addToNodeSelector(RUN_LABEL, tag).withSchedulerName(CalibrationScheduler.NAME).withTerminationGracePeriodSeconds(0L).withRestartPolicy(restartPolicy);
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(CalibrationKwok.POD_STARTUP, go(scaled(startup)));
    if (runTime != null) {
      annotations.put(CalibrationKwok.RUN_TIME, go(scaled(runTime)));
    }
    return new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", app).withAnnotations(annotations).endMetadata()
        .withSpec(spec.build()).build();
  }

  private void createDeployment(Scenario.Workload w) {
    admin.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder()
        .withNewMetadata().withName(w.name()).endMetadata()
        .withNewSpec().withReplicas(w.replicas()).withNewSelector().addToMatchLabels("app", w.name()).endSelector()
        .withTemplate(podTemplate(w.name(), w.pod(), w.startupTime(), null, "Always")).endSpec().build()).create();
  }

  private void createJob(Scenario.Job j, int index) {
    admin.batch().v1().jobs().inNamespace(ns).resource(new JobBuilder()
        .withNewMetadata().withName(j.name() + "-" + index).endMetadata()
        .withNewSpec().withParallelism(j.parallelism()).withCompletions(j.parallelism()).withBackoffLimit(6)
        .withTemplate(podTemplate(j.name(), j.pod(), j.startupTime(), j.runTime(), "Never")).endSpec().build()).create();
  }

  private void createBuffer(Scenario.BufferDef d) {
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    b.setKind(CapacityBufferVersion.KIND);
    b.setMetadata(new ObjectMetaBuilder().withName(d.name()).withNamespace(ns).build());
    b.setAdditionalProperty("spec", admin.getKubernetesSerialization().convertValue(d.spec(), Map.class));
    admin.resource(b).create();
  }

  /** {@code headroom run}'s flags: the scenario's autoscaler options, every duration among them scaled. */
  private List<String> headroomArgs(Path groups) {
    List<String> args = new ArrayList<>(List.of("--leader-elect=false", "--namespace=" + ns, "--cloud-provider=kwok",
        "--node-groups=" + groups, "--node-delete-delay-after-taint=0s",
        "--resync-period=" + go(scaled(Duration.ofMinutes(5)))));
    AutoscalerOptions o = scenario.autoscalerOptions();
    List<AutoscalerOption<?>> passed = List.of(AutoscalerOptions.SCAN_INTERVAL, AutoscalerOptions.MAX_NODE_PROVISION_TIME,
        AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, AutoscalerOptions.SCALE_DOWN_UNREADY_TIME, AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD,
        AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_DELETE, AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_FAILURE, AutoscalerOptions.EXPANDER,
        AutoscalerOptions.SCALE_DOWN_UTILIZATION_THRESHOLD, AutoscalerOptions.MAX_NODES_TOTAL,
        AutoscalerOptions.UNREMOVABLE_NODE_RECHECK_TIMEOUT, AutoscalerOptions.MAX_NODE_STARTUP_TIME,
        AutoscalerOptions.INITIAL_NODE_GROUP_BACKOFF_DURATION, AutoscalerOptions.MAX_NODE_GROUP_BACKOFF_DURATION,
        AutoscalerOptions.NODE_GROUP_BACKOFF_RESET_TIMEOUT, AutoscalerOptions.NEW_POD_COOLDOWN);
    for (AutoscalerOption<?> option : passed) {
      Object v = option.get(o);
      args.add("--" + option.key() + "=" + (v instanceof Duration d ? go(scaled(d)) : v));
    }
    // any other option of `run` the scenario sets would be lost on the way to the real run: refuse it, naming it
    for (AutoscalerOption<?> option : dev.headroom.cli.AutoscalerFlags.RUN) {
      if (!passed.contains(option) && !java.util.Objects.equals(option.get(o), option.defaultValue())) {
        throw new IllegalStateException("the calibration harness does not pass --" + option.key() + " (set to "
            + option.get(o) + " by the scenario) to headroom run; add it to CalibrationRun.headroomArgs");
      }
    }
    return args;
  }

  /** Ready, and without the not-ready NoSchedule taint (every pod tolerates the NoExecute one for 300 s: DefaultTolerationSeconds). */
  private static boolean nodeReady(Node n) {
    return n.getStatus() != null && n.getStatus().getConditions() != null
        && n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
  }

  private static boolean schedulable(Node n) {
    return nodeReady(n) && (n.getSpec().getTaints() == null || n.getSpec().getTaints().stream()
            .noneMatch(x -> x.getKey().equals(KwokProvider.NOT_READY_TAINT) && "NoSchedule".equals(x.getEffect())));
  }

  private static boolean ready(Pod p) {
    return p.getStatus() != null && p.getStatus().getConditions() != null
        && p.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
  }
}
