package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.autoscaler.EventSink;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * On-demand harness (not part of {@code verify}): one autoscaler iteration through the cluster-mode adapters
 * ({@link InformerClusterView} over in-memory listers, {@link PhaseTimer}, {@link AutoscalerMetrics}, the loop) at
 * 1,000 nodes and 30,000 pods, the upstream scalability shape. Run with
 * {@code ./mvnw -B -q -pl controller -am test -Dtest=AutoscalerIterationPerf -Dheadroom.perf=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "headroom.perf", matches = "true")
class AutoscalerIterationPerf {
  static final int NODES = 1000;
  static final int PODS_PER_NODE = 30;
  static final int BUFFERS = 10;
  static final int CHUNKS = 20;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void steadyState() {
    run("steady (1,000 nodes, 30,000 bound pods, 10 buffers x 20 chunks, nothing pending)", 0);
  }

  @Test
  void burst() {
    run("burst (same + 1,000 pending 3-cpu pods that need new nodes)", 1000);
  }

  /**
   * The shape of {@code ./e2e/load} at 10,000 buffers (LoadE2eTest): 500 nodes of 8 CPU, 20,000 bound 10m pods of
   * 2,000 ReplicaSets in 1,000 namespaces, 10,000 buffers (2, 2 or 5 chunks) each on its own managed PodTemplate; one
   * long-lived loop (as in {@code headroom run}), whose condition writes land in the listed objects as the informer's
   * would. {@code -Dheadroom.perf.buffers=N} scales it (N/20 nodes, N/10 namespaces).
   */
  @Test
  void loadShape() {
    int buffers = Integer.getInteger("headroom.perf.buffers", 10_000);
    int namespaces = Math.max(1, buffers / 10);
    int nodeCount = Math.max(1, buffers / 20);
    List<Node> nodes = new ArrayList<>();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(node(String.format("load-%05d", i)));
    }
    int pod = 0;
    for (int n = 0; n < namespaces; n++) {
      for (int d = 0; d < 2; d++) {
        for (int r = 0; r < 10; r++, pod++) {
          Pod p = pod("app-" + d + "-" + n + "-" + r, nodes.get(pod % nodeCount).getMetadata().getName(), "10m", "16Mi", "rs-" + n + "-" + d);
          p.getMetadata().setNamespace("load-" + n);
          pods.add(p);
        }
      }
    }
    List<CapacityBuffer> bs = new ArrayList<>();
    Map<String, PodTemplate> templates = new HashMap<>();
    for (int n = 0; n < namespaces; n++) {
      String ns = "load-" + n;
      for (int j = 0; j < 10; j++) {
        String name = "buf-" + j;
        PodTemplate t = new PodTemplateBuilder().withNewMetadata().withName(name).withNamespace(ns).withGeneration(1L).endMetadata()
            .withNewTemplate().withNewMetadata().addToLabels("app", "app-" + (j % 2)).endMetadata().withNewSpec().addNewContainer().withName("main")
            .withNewResources().addToRequests("cpu", new Quantity("10m")).addToRequests("memory", new Quantity("16Mi")).endResources()
            .endContainer().endSpec().endTemplate().build();
        templates.put(ns + "/" + name, t);
        CapacityBuffer b = buffer(name, name);
        b.getMetadata().setNamespace(ns);
        b.getMetadata().setUid(ns + "-" + name);
        b.getStatus().setReplicas(switch (j % 3) { case 0, 1 -> 2; default -> 5; });
        bs.add(b);
      }
    }
    // as AutoscalerRuntime wires it: a pod change feed (the informer's events) and one compile cache across loops
    PodChangeFeed feed = new PodChangeFeed();
    pods.forEach(feed::onAdd);
    ClusterListers listers = new ClusterListers(() -> nodes, () -> pods, List::of, () -> bs,
        (ns, n) -> Optional.ofNullable(templates.get(ns + "/" + n)), feed::since, () -> dev.headroom.core.autoscaler.PodGroups.NONE);
    dev.headroom.core.autoscaler.CompileCache compileCache = new dev.headroom.core.autoscaler.CompileCache();
    AutoscalerOptions options = AutoscalerOptions.builder().build();
    PhaseTimer timer = new PhaseTimer(Ticker.SYSTEM);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AutoscalerMetrics metrics = new AutoscalerMetrics(registry, 0);
    io.micrometer.core.instrument.Timer mainTimer = registry.find(AutoscalerMetrics.FUNCTION_DURATION).tag("function", PhaseTimer.MAIN).timer();
    int[] writes = new int[1];
    BufferStatusWriter landing = (b, c) -> {
      writes[0]++;
      b.getStatus().setConditions(new ArrayList<>(c));
    };
    AutoscalerLoop loop = new AutoscalerLoop(() -> {
      InMemoryProvider provider = new InMemoryProvider(nodes.get(0), nodeCount);
      NodeGroupProvider timed = timer.timed(provider);
      InformerClusterView view = new InformerClusterView(listers);
      Autoscaler a = new Autoscaler(options, timer.timed(view), timed, EventSink.NONE, timer.timed(landing),
          new AutoscalerState(options), () -> new SnapshotSimulation(compileCache));
      return new AutoscalerLoop.Iteration(a, view, timed);
    }, timer, metrics, java.time.Clock.systemUTC(), Ticker.SYSTEM, Duration.ofSeconds(10), () -> true);
    int loops = Integer.getInteger("headroom.perf.loops", 12);
    StringBuilder sb = new StringBuilder("PERF load shape (" + buffers + " buffers, " + nodeCount + " nodes, " + pods.size() + " pods):");
    IterationResult last = null;
    for (int i = 0; i < loops; i++) {
      writes[0] = 0;
      double main0 = mainTimer.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS);
      java.time.Instant startedAt = java.time.Instant.now();
      long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      long start = System.nanoTime();
      last = loop.runOnce(T0.plusSeconds(60 + 10L * i));
      long took = System.nanoTime() - start;
      long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
      sb.append(String.format("%n  loop %d (started %s): %s ms wall, %s ms CPU of the thread (runOnce %s ms wall; ports %s), %d condition writes",
          i, startedAt, ms(took), ms(cpu), ms((long) (mainTimer.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) - main0)),
          timer.totals().entrySet().stream().map(e -> e.getKey() + " " + ms(e.getValue())).toList(), writes[0]));
    }
    System.out.println(sb);
    assertThat(last.buffers()).hasSize(buffers);
  }

  private void run(String name, int pending) {
    List<Node> nodes = new ArrayList<>();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      String n = String.format("general-%05d", i);
      nodes.add(node(n));
      for (int j = 0; j < PODS_PER_NODE; j++) {
        pods.add(pod("app-" + i + "-" + j, n, "200m", "800Mi", "rs-" + (i % 50)));
      }
    }
    for (int i = 0; i < pending; i++) {
      pods.add(pod("burst-" + i, null, "3", "1Gi", "burst-rs"));
    }
    List<CapacityBuffer> buffers = new ArrayList<>();
    Map<String, PodTemplate> templates = new HashMap<>();
    for (int b = 0; b < BUFFERS; b++) {
      PodTemplate t = new PodTemplateBuilder().withNewMetadata().withName("t" + b).withNamespace("default").withGeneration(1L).endMetadata()
          .withNewTemplate().withNewSpec().addNewContainer().withName("c").withNewResources()
          .addToRequests("cpu", new Quantity("500m")).addToRequests("memory", new Quantity("1Gi")).endResources().endContainer().endSpec().endTemplate().build();
      templates.put("default/t" + b, t);
      buffers.add(buffer("b" + b, "t" + b));
    }
    ClusterListers listers = new ClusterListers(() -> nodes, () -> pods, List::of, () -> buffers,
        (ns, n) -> Optional.ofNullable(templates.get(ns + "/" + n)));
    AutoscalerOptions options = AutoscalerOptions.builder().build();
    PhaseTimer timer = new PhaseTimer(Ticker.SYSTEM);
    AutoscalerMetrics metrics = new AutoscalerMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), 0);
    int warmup = 3;
    int measured = 10;
    long[] mains = new long[measured];
    Map<String, long[]> phases = new LinkedHashMap<>();
    IterationResult last = null;
    for (int i = 0; i < warmup + measured; i++) {
      // A fresh term each time so every iteration sees the same input (a burst scale-up would otherwise be upcoming).
      AutoscalerLoop fresh = new AutoscalerLoop(() -> {
        InMemoryProvider provider = new InMemoryProvider(nodes.get(0));
        NodeGroupProvider timed = timer.timed(provider);
        InformerClusterView view = new InformerClusterView(listers);
        Autoscaler a = new Autoscaler(options, timer.timed(view), timed, EventSink.NONE, timer.timed((BufferStatusWriter) (b, c) -> {}),
            new AutoscalerState(options), SnapshotSimulation::new);
        return new AutoscalerLoop.Iteration(a, view, timed);
      }, timer, metrics, java.time.Clock.systemUTC(), Ticker.SYSTEM, Duration.ofSeconds(10), () -> true);
      long start = System.nanoTime();
      last = fresh.runOnce(T0.plusSeconds(60 + i));
      long took = System.nanoTime() - start;
      if (i >= warmup) {
        mains[i - warmup] = took;
        long ported = 0;
        for (long v : timer.totals().values()) {
          ported += v;
        }
        phases.computeIfAbsent(PhaseTimer.SIMULATION, k -> new long[measured])[i - warmup] = took - ported;
        for (Map.Entry<String, Long> e : timer.totals().entrySet()) {
          phases.computeIfAbsent(e.getKey(), k -> new long[measured])[i - warmup] = e.getValue();
        }
      }
    }
    Arrays.sort(mains);
    StringBuilder sb = new StringBuilder("PERF ").append(name).append(": runOnce median ").append(ms(mains[measured / 2]))
        .append(" ms, min ").append(ms(mains[0])).append(" ms, max ").append(ms(mains[measured - 1])).append(" ms");
    for (Map.Entry<String, long[]> e : phases.entrySet()) {
      long[] v = e.getValue().clone();
      Arrays.sort(v);
      sb.append("; ").append(e.getKey()).append(" median ").append(ms(v[measured / 2])).append(" ms");
    }
    sb.append("; result ").append(last.scaleUpResult()).append(" ").append(last.scaleUp()).append(", buffers ")
        .append(last.buffers().stream().mapToInt(IterationResult.BufferOutcome::onExistingNodes).sum()).append(" chunks on existing nodes")
        .append("; JVM ").append(System.getProperty("java.version")).append(", ").append(Runtime.getRuntime().availableProcessors()).append(" cpus");
    System.out.println(sb);
    if (pending > 0) {
      assertThat(last.scaleUp()).isNotEmpty();
    }
  }

  private static String ms(long nanos) {
    return String.format("%.1f", nanos / 1e6);
  }

  static Node node(String name) {
    Map<String, Quantity> cap = Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"));
    return new NodeBuilder().withNewMetadata().withName(name).withCreationTimestamp("2025-12-31T00:00:00Z")
        .addToLabels(NodeGroupLabels.NODE_GROUP, "general").addToLabels(NodeGroupLabels.HOSTNAME, name).endMetadata()
        .withNewSpec().withProviderID("kwok:" + name).endSpec()
        .withNewStatus().withCapacity(cap).withAllocatable(cap).addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
  }

  static Pod pod(String name, String node, String cpu, String memory, String rs) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid(name).withCreationTimestamp("2025-12-31T00:00:00Z")
        .addToLabels("app", rs)
        .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName(rs).withUid(rs).withController(true).endOwnerReference()
        .endMetadata()
        .withNewSpec().withNodeName(node).addNewContainer().withName("c").withNewResources()
        .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory)).endResources().endContainer().endSpec()
        .withNewStatus().withPhase(node == null ? "Pending" : "Running")
        .addNewCondition().withType("PodScheduled").withStatus(node == null ? "False" : "True").withReason(node == null ? "Unschedulable" : null).endCondition()
        .endStatus().build();
  }

  static CapacityBuffer buffer(String name, String template) {
    CapacityBuffer b = new CapacityBuffer();
    b.getMetadata().setName(name);
    b.getMetadata().setNamespace("default");
    b.getMetadata().setUid(name + "-uid");
    b.getMetadata().setGeneration(1L);
    CapacityBufferStatus s = new CapacityBufferStatus();
    LocalObjectRef ref = new LocalObjectRef();
    ref.setName(template);
    s.setPodTemplateRef(ref);
    s.setReplicas(CHUNKS);
    s.setPodTemplateGeneration(1L);
    s.setProvisioningStrategy(BufferConditions.STRATEGY_ACTIVE_CAPACITY);
    s.setConditions(new ArrayList<>(List.of(new ConditionBuilder().withType(BufferConditions.READY_FOR_PROVISIONING).withStatus("True")
        .withReason(BufferConditions.REASON_ATTRIBUTES_SET_SUCCESSFULLY).withMessage("ready").withLastTransitionTime("2025-12-31T00:00:00Z").build())));
    b.setStatus(s);
    return b;
  }

  /** One group holding every node; scale-ups only move the target. */
  static final class InMemoryProvider implements NodeGroupProvider {
    private final Node template;
    private int target;

    InMemoryProvider(Node sample) {
      this(sample, NODES);
    }

    InMemoryProvider(Node sample, int target) {
      this.template = sample;
      this.target = target;
    }

    @Override
    public List<NodeGroup> nodeGroups() {
      return List.of(new NodeGroup("general", 0, 5000, target, 0.4, Duration.ZERO, template, null));
    }

    @Override
    public Optional<String> nodeGroupOf(Node node) {
      return Optional.ofNullable(node.getMetadata().getLabels().get(NodeGroupLabels.NODE_GROUP));
    }

    @Override
    public void increaseSize(String groupId, int delta) {
      target += delta;
    }

    @Override
    public void deleteNodes(String groupId, List<Node> nodes) {
      target -= nodes.size();
    }

    @Override
    public void decreaseTargetSize(String groupId, int delta) {
      target += delta;
    }
  }
}
