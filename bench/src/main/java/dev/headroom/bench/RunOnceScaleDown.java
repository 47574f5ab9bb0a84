package dev.headroom.bench;

import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.autoscaler.EventSink;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.autoscaler.scaledown.DrainRules;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code runonce-scaledown}: the shape of the upstream Cluster Autoscaler {@code BenchmarkRunOnceScaleDown}
 * ({@code core/bench/benchmark_runonce_test.go}) through {@link Autoscaler#runOnce}. {@code --pods N} is the node
 * count (default 2,000): one node group {@code ng1} (0..10,000) of N Ready nodes of 10,000 mCPU, 10,000 bytes
 * and 100 pods, each holding 40 pods of 100 mCPU / 100 bytes (1 % each, 40 % per node; pod {@code i} on node
 * {@code i mod N}) without a controller and annotated {@code safe-to-evict: true}. Options as CA's: unneeded
 * time 0, scale-down delay after add 0, {@code maxScaleDownParallelism = maxDrainParallelism =
 * scaleDownNonEmptyCandidatesCount = 2,000}. The remaining 40 % of the nodes fill to exactly 100 %, so 60 %
 * (1,200 of 2,000) are deleted in the one loop; a run that deletes any other number fails the benchmark. Ports are
 * the in-memory ones; events and status writes are dropped. The outcome's pods are the nodes expected to go,
 * its placed count the nodes deleted, its nodes the nodes left.
 */
public final class RunOnceScaleDown implements Scenario {

  /** The loop time. */
  public static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
  /** Pods per node before the loop. */
  public static final int PODS_PER_NODE = 40;
  /** The node group. */
  public static final String GROUP = "ng1";

  @Override
  public String name() {
    return "runonce-scaledown";
  }

  @Override
  public int defaultPods() {
    return 2_000;
  }

  @Override
  public String description() {
    return "CA's RunOnce scale-down shape: N nodes at 40 % (40 pods of 1 %), 60 % of them deleted in one loop (--pods = nodes)";
  }

  @Override
  public Prepared prepare(int nodes) {
    AutoscalerOptions options = options(nodes);
    NodeGroup group = group(nodes);
    StaticClusterView view = view(nodes);
    int expected = expectedDeletions(nodes);
    return () -> {
      RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(group));
      IterationResult r = new Autoscaler(options, view, provider, EventSink.NONE, BufferStatusWriter.NONE,
          new AutoscalerState(options), SnapshotSimulation::new).runOnce(NOW);
      int deleted = r.scaleDown().size();
      if (deleted != expected) {
        throw new IllegalStateException(name() + ": " + deleted + " nodes deleted, expected " + expected);
      }
      return new Outcome(expected, deleted, nodes - deleted);
    };
  }

  /** Nodes the loop must delete: those whose pods fit, exactly, on the rest (60 %). */
  public static int expectedDeletions(int nodes) {
    return nodes - (nodes * PODS_PER_NODE + 99) / 100;
  }

  /** CA's options of the benchmark, for {@code nodes} nodes (2,000 in CA's). */
  public static AutoscalerOptions options(int nodes) {
    int n = Math.max(2_000, nodes);
    return AutoscalerOptions.builder()
        .set(AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, Duration.ZERO)
        .set(AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD, Duration.ZERO)
        .set(AutoscalerOptions.MAX_SCALE_DOWN_PARALLELISM, n)
        .set(AutoscalerOptions.MAX_DRAIN_PARALLELISM, n)
        .set(AutoscalerOptions.SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT, n)
        .set(AutoscalerOptions.MAX_NODES_TOTAL, 10_000)
        .set(AutoscalerOptions.EXPANDER, "least-waste")
        .build();
  }

  /** The group {@code ng1}: 0..10,000 nodes, target size {@code nodes}. */
  public static NodeGroup group(int nodes) {
    Node template = new NodeBuilder()
        .withNewMetadata().withName("template-" + GROUP).withLabels(Map.of(NodeGroupLabels.NODE_GROUP, GROUP)).endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().withCapacity(resources()).withAllocatable(resources()).endStatus()
        .build();
    return new NodeGroup(GROUP, 0, 10_000, nodes, 0.5, Duration.ZERO, template, NodeGroupOptions.NONE);
  }

  /** The cluster: {@code nodes} nodes {@code ng1-node-K}, pod {@code pod-I} on node {@code I mod nodes}. */
  public static StaticClusterView view(int nodes) {
    StaticClusterView.Builder view = StaticClusterView.builder();
    String created = NOW.minus(Duration.ofDays(1)).toString();
    for (int n = 0; n < nodes; n++) {
      String name = GROUP + "-node-" + n;
      view.node(new NodeBuilder()
          .withNewMetadata().withName(name).withUid(name + "-uid").withCreationTimestamp(created)
          .withLabels(Map.of(NodeGroupLabels.NODE_GROUP, GROUP, NodeGroupLabels.HOSTNAME, name)).endMetadata()
          .withNewSpec().withProviderID("bench://" + name).endSpec()
          .withNewStatus().withCapacity(resources()).withAllocatable(resources())
          .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").build()).endStatus()
          .build());
    }
    for (int i = 0; i < nodes * PODS_PER_NODE; i++) {
      view.pod(pod("pod-" + i, GROUP + "-node-" + (i % nodes)));
    }
    return view.build();
  }

  private static Pod pod(String name, String node) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withUid(name + "-uid")
        .withCreationTimestamp(NOW.minus(Duration.ofHours(1)).toString())
        .withAnnotations(Map.of(DrainRules.SAFE_TO_EVICT, "true")).endMetadata()
        .withNewSpec().withNodeName(node).addNewContainer().withName("c").withNewResources()
        .addToRequests("cpu", new Quantity("100m")).addToRequests("memory", new Quantity("100")).endResources()
        .endContainer().endSpec()
        .withNewStatus().withPhase("Running").endStatus()
        .build();
  }

  private static Map<String, Quantity> resources() {
    return Map.of("cpu", new Quantity("10"), "memory", new Quantity("10000"), "pods", new Quantity("100"));
  }
}
