package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.group;
import static dev.headroom.core.autoscaler.Fixtures.node;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.IterationResult.StandbyBuffer;
import dev.headroom.core.autoscaler.IterationResult.StandbyGroup;
import dev.headroom.core.autoscaler.memory.DryRun;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The standby-capacity step of the loop (docs/standby-capacity.md) over an in-memory provider that can suspend nodes. */
class StandbyCapacityTest {

  private static final AutoscalerOptions ON = AutoscalerOptions.builder().set(AutoscalerOptions.STANDBY_CAPACITY, true).build();
  private static final NodeGroup.Standby STANDBY = new NodeGroup.Standby(Duration.ofSeconds(20), 0.1);

  /** A world whose provider keeps standby targets and counts suspended nodes by their annotation. */
  static final class StandbyWorld extends Fixtures.World {
    final Map<String, Integer> standbyTargets = new LinkedHashMap<>();
    String unsupported;

    @Override
    public Optional<String> standbyUnsupported() {
      return Optional.ofNullable(unsupported);
    }

    @Override
    public boolean isStandby(Node n) {
      return Nodes.isStandby(n);
    }

    @Override
    public StandbyPool standbyPool(String groupId) {
      int suspended = 0;
      for (Node n : nodes) {
        if (Nodes.isStandby(n) && groupId.equals(n.getMetadata().getLabels().get("headroom.dev/node-group"))) {
          suspended++;
        }
      }
      return new StandbyPool(standbyTargets.getOrDefault(groupId, 0), suspended, 0);
    }

    @Override
    public void setStandbyTarget(String groupId, int target) {
      if (groups.get(groupId).standby() == null) {
        throw new ProviderException("node group " + groupId + " has no spec.standby");
      }
      calls.add("standby " + groupId + " " + target);
      standbyTargets.put(groupId, target);
    }
  }

  private static CapacityBuffer standbyBuffer(String name, String template, int replicas) {
    CapacityBuffer b = buffer(name, template, replicas);
    b.getStatus().setProvisioningStrategy(BufferConditions.STRATEGY_STANDBY_CAPACITY);
    return b;
  }

  private static Condition provisioning(StandbyBuffer b) {
    return StatusConditions.find(b.conditions(), BufferConditions.PROVISIONING).orElseThrow();
  }

  private static StandbyWorld world(NodeGroup... groups) {
    StandbyWorld w = new StandbyWorld();
    for (NodeGroup g : groups) {
      w.group(g);
    }
    w.nodes.add(node("general-0", "general", "4", "16Gi", true, T0.minusSeconds(3600)));
    return w;
  }

  @Test
  void theChunksOfAStandbyBufferBecomeTheGroupsStandbyTargetByBinpacking() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    w.templates.put("web", podTemplate("web", "1500m", "2Gi"));
    w.buffers.add(standbyBuffer("warm", "web", 5));

    IterationResult r = w.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);

    // two 1.5-CPU chunks per 4-CPU node: five chunks on three standby nodes
    assertThat(w.calls).containsExactly("standby general 3");
    assertThat(r.standbyGroups()).containsExactly(new StandbyGroup("general", 0, 3, 0, 0, 5));
    StandbyBuffer b = r.standbyBuffers().get(0);
    assertThat(b.nodeGroup()).isEqualTo("general");
    assertThat(b.kept()).isEqualTo(5);
    Condition c = provisioning(b);
    assertThat(c.getStatus()).isEqualTo(BufferConditions.TRUE);
    assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_STANDBY_NODES_KEPT);
    assertThat(c.getMessage()).isEqualTo("5 of 5 chunks kept on standby nodes of node group general (the group keeps 3)");
    assertThat(w.written).containsKey("warm");
    // a standby buffer is not injected: no virtual pods, no scale-up of running nodes
    assertThat(r.buffers()).isEmpty();
    assertThat(r.scaleUp()).isEmpty();
  }

  @Test
  void anUnchangedTargetIsNotSetAgainAndADeletedBufferTakesItToZero() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    w.templates.put("web", podTemplate("web", "1", "2Gi"));
    w.buffers.add(standbyBuffer("warm", "web", 4));
    Autoscaler a = w.autoscaler(ON, new AutoscalerState(ON));
    a.runOnce(T0);
    IterationResult second = a.runOnce(T0.plusSeconds(10));
    assertThat(second.standbyBuffers().get(0).statusWritten()).isFalse();
    w.buffers.clear();
    a.runOnce(T0.plusSeconds(20));
    assertThat(w.calls).containsExactly("standby general 1", "standby general 0");
  }

  @Test
  void withTheOptionOffStandbyBuffersAreLeftAlone() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    w.templates.put("web", podTemplate("web", "1", "2Gi"));
    w.buffers.add(standbyBuffer("warm", "web", 4));
    IterationResult r = w.autoscaler(AutoscalerOptions.DEFAULTS, new AutoscalerState(AutoscalerOptions.DEFAULTS)).runOnce(T0);
    assertThat(w.calls).isEmpty();
    assertThat(w.written).isEmpty();
    assertThat(r.standbyBuffers()).isEmpty();
    assertThat(r.buffers()).isEmpty();
  }

  @Test
  void theCheapestStandbyGroupWhoseTemplateTakesAChunkIsChosen() {
    StandbyWorld w = world(
        group("general", 0, 10, 1, "4", "16Gi"),
        group("small", 0, 10, 0, "2", "8Gi").withStandby(new NodeGroup.Standby(Duration.ofSeconds(10), 0.05)),
        group("large", 0, 10, 0, "8", "32Gi").withStandby(new NodeGroup.Standby(Duration.ofSeconds(10), 0.2)));
    w.templates.put("tiny", podTemplate("tiny", "1", "1Gi"));
    w.templates.put("big", podTemplate("big", "3", "4Gi"));
    w.buffers.add(standbyBuffer("a-tiny", "tiny", 3));
    w.buffers.add(standbyBuffer("b-big", "big", 2));

    IterationResult r = w.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);

    // tiny chunks on the cheaper small group (2 per node), big ones only fit the large group (2 per node)
    assertThat(r.standbyBuffers()).extracting(StandbyBuffer::nodeGroup).containsExactly("small", "large");
    assertThat(w.standbyTargets).containsExactlyInAnyOrderEntriesOf(Map.of("small", 2, "large", 1));
    assertThat(r.standbyGroups()).extracting(StandbyGroup::nodeGroup).containsExactly("small", "large");
  }

  @Test
  void aProviderThatCannotSuspendRefusesWithItsReason() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    w.unsupported = "the Cluster API provider cannot suspend nodes";
    w.templates.put("web", podTemplate("web", "1", "2Gi"));
    w.buffers.add(standbyBuffer("warm", "web", 2));
    w.buffers.add(buffer("active", "web", 1));

    IterationResult r = w.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);

    Condition c = provisioning(r.standbyBuffers().get(0));
    assertThat(c.getStatus()).isEqualTo(BufferConditions.FALSE);
    assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_STANDBY_NOT_SUPPORTED);
    assertThat(c.getMessage()).isEqualTo("the Cluster API provider cannot suspend nodes");
    assertThat(w.calls).noneMatch(s -> s.startsWith("standby"));
    assertThat(r.standbyGroups()).isEmpty();
    // the active buffer beside it is injected as ever
    assertThat(r.buffers()).extracting(IterationResult.BufferOutcome::name).containsExactly("active");
  }

  @Test
  void aChunkNoStandbyGroupTakesSaysWhy() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    w.templates.put("huge", podTemplate("huge", "16", "2Gi"));
    w.buffers.add(standbyBuffer("warm", "huge", 1));
    IterationResult r = w.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);
    Condition c = provisioning(r.standbyBuffers().get(0));
    assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_NO_STANDBY_NODE_GROUP);
    assertThat(c.getMessage()).startsWith("no node group with spec.standby takes a chunk (general: ").contains("cpu");
    assertThat(w.calls).containsExactly();

    StandbyWorld none = world(group("general", 0, 10, 1, "4", "16Gi"));
    none.templates.put("web", podTemplate("web", "1", "2Gi"));
    none.buffers.add(standbyBuffer("warm", "web", 1));
    IterationResult r2 = none.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);
    assertThat(provisioning(r2.standbyBuffers().get(0)).getMessage()).isEqualTo("no node group has spec.standby");
  }

  @Test
  void theTargetIsCappedAtTheGroupsMaximumSize() {
    StandbyWorld w = world(group("general", 0, 3, 1, "4", "16Gi").withStandby(STANDBY));
    w.templates.put("web", podTemplate("web", "4", "2Gi"));
    w.buffers.add(standbyBuffer("warm", "web", 10));
    IterationResult r = w.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);
    assertThat(w.standbyTargets).containsEntry("general", 3);
    assertThat(provisioning(r.standbyBuffers().get(0)).getMessage())
        .isEqualTo("3 of 10 chunks kept on standby nodes of node group general (the group keeps 3)");
  }

  @Test
  void standbyNodesAreNotPartOfTheLoopAndAPendingPodScalesTheGroupUp() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    Node suspended = node("general-standby", "general", "4", "16Gi", false, T0.minusSeconds(3600));
    suspended.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of(Nodes.STANDBY, Nodes.STANDBY_SUSPENDED)));
    suspended.getSpec().setUnschedulable(true);
    w.nodes.add(suspended);
    w.pods.add(pod("busy", "3", "1Gi", "general-0"));
    w.pods.add(pod("p", "2", "1Gi", null));

    IterationResult r = w.autoscaler(ON, new AutoscalerState(ON)).runOnce(T0);

    // the suspended node is neither a registered (unready) node nor room: the pending pod asks the group for one node,
    // which the provider serves by resuming
    assertThat(r.nodes()).extracting(IterationResult.NodeStatus::node).containsExactly("general-0");
    assertThat(r.scaleUp()).extracting(IterationResult.ScaleUpDecision::delta).containsExactly(1);
    assertThat(r.scaleDown()).isEmpty();
    assertThat(r.unneededNodes()).extracting(IterationResult.UnneededNode::node).doesNotContain("general-standby");
  }

  @Test
  void aResumedNodesStartUpCountsFromItsResumeNotItsCreation() {
    StandbyWorld w = world(group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY));
    // suspended for two hours
    Node standby = node("general-standby", "general", "4", "16Gi", false, T0.minusSeconds(7200));
    standby.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of(Nodes.STANDBY, Nodes.STANDBY_SUSPENDED)));
    w.nodes.add(standby);
    w.pods.add(pod("busy", "3", "1Gi", "general-0"));
    w.pods.add(pod("p", "2", "1Gi", null));
    Autoscaler a = w.autoscaler(ON, new AutoscalerState(ON));
    assertThat(a.runOnce(T0).scaleUp()).extracting(IterationResult.ScaleUpDecision::delta).containsExactly(1);
    // the provider served the increase by resuming it
    standby.getMetadata().getAnnotations().put(Nodes.STANDBY, Nodes.STANDBY_RESUMING);
    standby.getMetadata().getAnnotations().put(Nodes.RESUME_REQUESTED_AT, T0.plusSeconds(1).toString());

    IterationResult r = a.runOnce(T0.plusSeconds(10));

    // not Ready yet, and not late: the pending pod waits for it, no second node
    assertThat(r.nodes()).filteredOn(n -> n.node().equals("general-standby"))
        .singleElement().satisfies(n -> assertThat(n.state()).isEqualTo(IterationResult.NodeState.NOT_STARTED));
    assertThat(r.scaleUp()).isEmpty();
    assertThat(r.pendingPods().onUpcomingNodes()).isEqualTo(1);
    // measured from its creation the same node would be two hours late: unready
    standby.getMetadata().getAnnotations().remove(Nodes.RESUME_REQUESTED_AT);
    IterationResult late = a.runOnce(T0.plusSeconds(20));
    assertThat(late.nodes()).filteredOn(n -> n.node().equals("general-standby"))
        .singleElement().satisfies(n -> assertThat(n.state()).isEqualTo(IterationResult.NodeState.UNREADY));
  }

  @Test
  void planRecordsTheStandbyTargetAndCountsTheDumpsStandbyNodes() {
    NodeGroup g = group("general", 0, 10, 1, "4", "16Gi").withStandby(STANDBY);
    List<Node> nodes = new ArrayList<>();
    nodes.add(node("general-0", "general", "4", "16Gi", true, T0.minusSeconds(3600)));
    Node suspended = node("general-s", "general", "4", "16Gi", false, T0.minusSeconds(3600));
    suspended.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of(Nodes.STANDBY, Nodes.STANDBY_SUSPENDED)));
    nodes.add(suspended);
    StaticClusterView view = StaticClusterView.builder().nodes(nodes)
        .podTemplate(podTemplate("web", "1", "2Gi"))
        .buffer(standbyBuffer("warm", "web", 8)).build();

    DryRun run = DryRun.of(ON, view, List.of(g), T0);

    // (the empty running node is removed as ever; the suspended one is not a scale-down candidate)
    assertThat(run.providerCalls()).containsExactly(new RecordingNodeGroupProvider.Deletion("general", List.of("general-0")),
        new RecordingNodeGroupProvider.StandbyTarget("general", 1, 2));
    assertThat(run.result().standbyGroups()).containsExactly(new StandbyGroup("general", 1, 2, 1, 0, 8));
    assertThat(run.statusWrites()).containsKey("default/warm");
  }
}
