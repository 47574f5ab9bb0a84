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
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code runonce-scaleup}: the shape of the upstream Cluster Autoscaler {@code BenchmarkRunOnceScaleUp}
 * (autoscaler spec §9) through {@link Autoscaler#runOnce}: one node group whose template has 10,000 mCPU and
 * 10,000 bytes of memory (size 0..10,000), N pending pods of 200 mCPU / 200 bytes without a controller,
 * expander {@code least-waste}, {@code maxNodesPerScaleUp = maxNodesTotal = 10,000}. 50 pods fit a node, so
 * the plan is N/50 nodes (1,000 for the default 50,000 pods). Ports are the in-memory ones of
 * {@code dev.headroom.core.autoscaler.memory}; events and status writes are dropped.
 */
public final class RunOnceScaleUp implements Scenario {

  /** The loop time. */
  public static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
  /** Pods per node of the template. */
  public static final int PODS_PER_NODE = 50;

  @Override
  public String name() {
    return "runonce-scaleup";
  }

  @Override
  public int defaultPods() {
    return 50_000;
  }

  @Override
  public String description() {
    return "CA's RunOnce scale-up shape: N identical pending pods, one node group, N/50 nodes";
  }

  @Override
  public Prepared prepare(int pods) {
    AutoscalerOptions options = options();
    NodeGroup group = group();
    StaticClusterView view = StaticClusterView.builder().pods(pods(pods)).build();
    return () -> {
      RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(group));
      IterationResult r = new Autoscaler(options, view, provider, EventSink.NONE, BufferStatusWriter.NONE,
          new AutoscalerState(options), SnapshotSimulation::new).runOnce(NOW);
      int nodes = r.scaleUp().stream().mapToInt(IterationResult.ScaleUpDecision::newTargetSize).sum();
      return new Outcome(pods, r.pendingPods().onNewNodes(), nodes);
    };
  }

  /** The benchmark's options. */
  public static AutoscalerOptions options() {
    return AutoscalerOptions.builder().set(AutoscalerOptions.MAX_NODES_TOTAL, 10_000).set(AutoscalerOptions.MAX_NODES_PER_SCALEUP, 10_000).set(AutoscalerOptions.EXPANDER, "least-waste").build();
  }

  /** The single group {@code ng}: 0..10,000 nodes of 10,000 mCPU and 10,000 bytes, 110 pods. */
  public static NodeGroup group() {
    Map<String, Quantity> resources = Map.of("cpu", new Quantity("10"), "memory", new Quantity("10000"), "pods", new Quantity("110"));
    Node template = new NodeBuilder()
        .withNewMetadata().withName("template-ng").withLabels(Map.of(NodeGroupLabels.NODE_GROUP, "ng")).endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().withCapacity(resources).withAllocatable(resources).endStatus()
        .build();
    return new NodeGroup("ng", 0, 10_000, 0, 1.0, Duration.ZERO, template, NodeGroupOptions.NONE);
  }

  /** {@code n} pending pods of 200 mCPU / 200 bytes, no controller, unique names and UIDs. */
  public static List<Pod> pods(int n) {
    List<Pod> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new PodBuilder()
          .withNewMetadata().withName("pod-" + i).withNamespace("default").withUid("pod-uid-" + i).endMetadata()
          .withNewSpec().addNewContainer().withName("c").withNewResources()
          .addToRequests("cpu", new Quantity("200m")).addToRequests("memory", new Quantity("200")).endResources()
          .endContainer().endSpec()
          .withStatus(unschedulable())
          .build());
    }
    return out;
  }

  /** {@code PodScheduled=False/Unschedulable}: how a real cluster shows a pending pod the scheduler could not place. */
  static io.fabric8.kubernetes.api.model.PodStatus unschedulable() {
    return new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending")
        .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable").endCondition().build();
  }
}
