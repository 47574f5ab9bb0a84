package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.IterationResult.NodeState;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.autoscaler.memory.RecordingEventSink;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.RecordingStatusWriter;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AutoscalerMetricsTest {
  private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");

  private static Node node(String name, String group, boolean ready, Instant created) {
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity("4"), "memory", new Quantity("16Gi"), "pods", new Quantity("110"));
    return new NodeBuilder().withNewMetadata().withName(name).withUid(name + "-uid").withCreationTimestamp(created.toString())
        .withLabels(Map.of(NodeGroupLabels.NODE_GROUP, group, NodeGroupLabels.HOSTNAME, name)).endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().withCapacity(capacity).withAllocatable(capacity)
        .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition().endStatus()
        .build();
  }

  private static NodeGroup group(String id, int target, Duration maxNodeStartupTime) {
    NodeGroupOptions o = new NodeGroupOptions(null, null, null, null, null, maxNodeStartupTime, null);
    return new NodeGroup(id, 0, 10, target, 1.0, Duration.ZERO, node("template-" + id, id, true, NOW), o);
  }

  private static double gauge(SimpleMeterRegistry registry, String name, String... tags) {
    var g = registry.find(name).tags(tags).gauge();
    return g == null ? Double.NaN : g.value();
  }

  @Test
  void nodeStatesFollowCoreWhichHonoursAPerGroupStartupTime() {
    // "fast" gives its nodes 5 minutes to become Ready, "slow" the global 15 minutes; both not-Ready nodes are
    // 10 minutes old, so core counts fast-1 as unready (it holds no upcoming capacity) and slow-1 as not started.
    Instant tenMinutesAgo = NOW.minus(Duration.ofMinutes(10));
    StaticClusterView view = StaticClusterView.builder()
        .node(node("fast-0", "fast", true, tenMinutesAgo))
        .node(node("fast-1", "fast", false, tenMinutesAgo))
        .node(node("slow-1", "slow", false, tenMinutesAgo))
        .build();
    RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(
        group("fast", 2, Duration.ofMinutes(5)), group("slow", 1, null)));
    AutoscalerOptions options = AutoscalerOptions.builder().set(AutoscalerOptions.MAX_NODE_STARTUP_TIME, Duration.ofMinutes(15)).build();
    Autoscaler autoscaler = new Autoscaler(options, view, provider, new RecordingEventSink(), new RecordingStatusWriter(),
        new AutoscalerState(options), SnapshotSimulation::new);

    IterationResult r = autoscaler.runOnce(NOW);
    assertThat(r.nodes()).extracting(IterationResult.NodeStatus::node, IterationResult.NodeStatus::nodeGroup, IterationResult.NodeStatus::state)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("fast-0", "fast", NodeState.READY),
            org.assertj.core.groups.Tuple.tuple("fast-1", "fast", NodeState.UNREADY),
            org.assertj.core.groups.Tuple.tuple("slow-1", "slow", NodeState.NOT_STARTED));

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    AutoscalerMetrics metrics = new AutoscalerMetrics(registry, 0);
    metrics.record(r, 1_000_000, Map.of(), provider.nodeGroups(), view.pods());

    assertThat(gauge(registry, AutoscalerMetrics.NODES, "state", "ready")).isEqualTo(1);
    assertThat(gauge(registry, AutoscalerMetrics.NODES, "state", "unready")).isEqualTo(1);
    assertThat(gauge(registry, AutoscalerMetrics.NODES, "state", "notStarted")).isEqualTo(1);
    assertThat(gauge(registry, AutoscalerMetrics.NODES, "state", "unregistered")).isEqualTo(0);
    assertThat(gauge(registry, AutoscalerMetrics.NODE_GROUP_NODES, "node_group", "fast", "state", "unready")).isEqualTo(1);
    assertThat(gauge(registry, AutoscalerMetrics.NODE_GROUP_NODES, "node_group", "fast", "state", "notStarted")).isNaN();
    assertThat(gauge(registry, AutoscalerMetrics.NODE_GROUP_NODES, "node_group", "slow", "state", "notStarted")).isEqualTo(1);
  }

  @Test
  void standbyGaugesReportEachGroupsTargetAndItsSuspendedNodes() {
    Node ready = node("general-0", "general", true, NOW.minus(Duration.ofHours(1)));
    Node suspended = node("general-s", "general", false, NOW.minus(Duration.ofHours(1)));
    suspended.getMetadata().setAnnotations(Map.of(dev.headroom.core.autoscaler.Nodes.STANDBY, dev.headroom.core.autoscaler.Nodes.STANDBY_SUSPENDED));
    io.fabric8.kubernetes.api.model.PodTemplate t = new io.fabric8.kubernetes.api.model.PodTemplateBuilder().withNewMetadata()
        .withName("web").withNamespace("default").withGeneration(1L).endMetadata().withNewTemplate().withNewSpec().addNewContainer()
        .withName("c").withNewResources().addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("1Gi"))
        .endResources().endContainer().endSpec().endTemplate().build();
    dev.headroom.api.v1beta1.CapacityBuffer b = new dev.headroom.api.v1beta1.CapacityBuffer();
    b.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("warm").withNamespace("default").withGeneration(1L).build());
    dev.headroom.api.v1beta1.CapacityBufferStatus st = new dev.headroom.api.v1beta1.CapacityBufferStatus();
    st.setPodTemplateRef(new dev.headroom.api.v1beta1.LocalObjectRef("web"));
    st.setPodTemplateGeneration(1L);
    st.setReplicas(6);
    st.setProvisioningStrategy(dev.headroom.core.buffer.BufferConditions.STRATEGY_STANDBY_CAPACITY);
    st.setConditions(new java.util.ArrayList<>(List.of(dev.headroom.core.buffer.BufferConditions.ready(1))));
    b.setStatus(st);
    StaticClusterView view = StaticClusterView.builder().node(ready).node(suspended).podTemplate(t).buffer(b).build();
    NodeGroup g = group("general", 1, null).withStandby(new NodeGroup.Standby(Duration.ofSeconds(20), 0.1));
    RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(g)).withStandbyNodes(view.nodes());
    AutoscalerOptions options = AutoscalerOptions.builder().set(AutoscalerOptions.STANDBY_CAPACITY, true).build();
    IterationResult r = new Autoscaler(options, view, provider, new RecordingEventSink(), new RecordingStatusWriter(),
        new AutoscalerState(options), SnapshotSimulation::new).runOnce(NOW);

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new AutoscalerMetrics(registry, 0).record(r, 1_000_000, Map.of(), provider.nodeGroups(), view.pods());

    // six 1-CPU chunks on 4-CPU nodes: two standby nodes; the suspended one is not a node of the loop
    assertThat(gauge(registry, AutoscalerMetrics.STANDBY_TARGET, "node_group", "general")).isEqualTo(2);
    assertThat(gauge(registry, AutoscalerMetrics.STANDBY_NODES, "node_group", "general", "state", "suspended")).isEqualTo(1);
    assertThat(gauge(registry, AutoscalerMetrics.STANDBY_NODES, "node_group", "general", "state", "preparing")).isEqualTo(0);
    assertThat(gauge(registry, AutoscalerMetrics.NODES, "state", "unready")).isEqualTo(0);
    assertThat(gauge(registry, AutoscalerMetrics.NODES, "state", "ready")).isEqualTo(1);
  }
}
