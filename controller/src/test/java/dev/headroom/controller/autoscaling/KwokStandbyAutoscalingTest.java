package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.NodeGroupProvider.StandbyPool;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Core's loop with {@code standby-capacity} on, the KWOK-style provider behind the runtime's decorators (drainer,
 * phase timer), on the CRUD mock server: a standby buffer becomes the group's standby target and a suspended node,
 * and a pending pod resumes that node rather than creating one.
 */
@EnableKubernetesMockClient(crud = true)
class KwokStandbyAutoscalingTest {
  KubernetesClient client;

  static final String GROUPS = """
      apiVersion: headroom.dev/v1alpha1
      kind: NodeGroup
      metadata:
        name: general
      spec:
        minSize: 0
        maxSize: 10
        targetSize: 0
        provisioningDelay: 30s
        standby: {resumeDelay: 5s}
        template:
          metadata:
            labels:
              node.kubernetes.io/instance-type: general-4x16
          status:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      """;

  private ClusterFixture fixture() {
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", GROUPS);
    AutoscalerOptions options = ClusterFixture.options().set(AutoscalerOptions.STANDBY_CAPACITY, true).build();
    return new ClusterFixture(client, options, f -> new KwokProvider(client, () -> groups, () -> client.nodes().list().getItems(), f.clock, new Random(7)));
  }

  private static List<Node> inState(ClusterFixture f, String state) {
    return f.nodes().stream().filter(n -> state.equals(n.getMetadata().getAnnotations().get(Nodes.STANDBY))).toList();
  }

  @Test
  void aStandbyBufferKeepsASuspendedNodeThatAPendingPodResumes() {
    ClusterFixture f = fixture();
    f.buffer("standby", 1, "1", "1Gi", BufferConditions.STRATEGY_STANDBY_CAPACITY);

    // 1. The buffer's chunk becomes the group's standby target; no running node is started for it.
    IterationResult first = f.step();
    assertThat(first.scaleUp()).isEmpty();
    assertThat(first.standbyGroups()).singleElement().satisfies(g -> {
      assertThat(g.nodeGroup()).isEqualTo("general");
      assertThat(g.previousTarget()).isZero();
      assertThat(g.target()).isEqualTo(1);
    });
    assertThat(f.provider.standbyPool("general").target()).as("the provider got the target through the decorators").isEqualTo(1);
    assertThat(f.condition("standby", BufferConditions.PROVISIONING)).get().satisfies(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_STANDBY_NODES_KEPT);
    });

    // 2. The next refresh prepares the standby node; the provisioning delay later it is suspended.
    f.step();
    assertThat(f.nodes()).singleElement().satisfies(n -> assertThat(n.getMetadata().getAnnotations()).containsEntry(Nodes.STANDBY, Nodes.STANDBY_PREPARING));
    IterationResult prepared = f.step(Duration.ofSeconds(30));
    assertThat(prepared.nodes()).as("the loop does not see standby nodes").isEmpty();
    assertThat(prepared.scaleDown()).isEmpty();
    List<Node> suspended = inState(f, Nodes.STANDBY_SUSPENDED);
    assertThat(suspended).hasSize(1);
    String standby = suspended.get(0).getMetadata().getName();
    assertThat(f.provider.standbyPool("general")).isEqualTo(new StandbyPool(1, 1, 0));
    for (int i = 0; i < 3; i++) {
      IterationResult quiet = f.step();
      assertThat(quiet.scaleUp()).isEmpty();
      assertThat(quiet.standbyGroups()).singleElement().satisfies(g -> assertThat(g.target()).isEqualTo(1));
    }
    assertThat(f.nodes()).hasSize(1);

    // 3. A pod needs a node: the scale-up resumes the suspended node instead of creating one.
    f.deployment("web", 1, "1", "1Gi");
    f.scheduler.schedule();
    assertThat(f.unbound("web")).hasSize(1);
    IterationResult up = f.step();
    assertThat(up.scaleUp()).singleElement().satisfies(d -> {
      assertThat(d.nodeGroup()).isEqualTo("general");
      assertThat(d.delta()).isEqualTo(1);
      assertThat(d.realPods()).isEqualTo(1);
    });
    assertThat(f.nodes()).as("no new node").singleElement().satisfies(n -> {
      assertThat(n.getMetadata().getName()).isEqualTo(standby);
      assertThat(n.getMetadata().getAnnotations()).containsEntry(Nodes.STANDBY, Nodes.STANDBY_RESUMING);
    });

    // 4. Not Ready before the resume delay: the pod waits, counted on the upcoming node (no second scale-up); the
    //    pool refills with a new preparing node.
    IterationResult waiting = f.step(Duration.ofSeconds(3));
    assertThat(waiting.scaleUp()).isEmpty();
    assertThat(waiting.pendingPods().onUpcomingNodes()).isEqualTo(1);
    assertThat(Nodes.isReady(client.nodes().withName(standby).get())).isFalse();
    assertThat(f.unbound("web")).hasSize(1);
    assertThat(inState(f, Nodes.STANDBY_PREPARING)).as("the pool refills").hasSize(1);

    // 5. The resume delay has passed: Ready, and the pod runs on the resumed node.
    IterationResult ready = f.step(Duration.ofSeconds(2));
    assertThat(ready.scaleUp()).isEmpty();
    Node resumed = client.nodes().withName(standby).get();
    assertThat(Nodes.isReady(resumed)).isTrue();
    assertThat(resumed.getMetadata().getAnnotations()).doesNotContainKey(Nodes.STANDBY);
    List<Pod> web = f.deploymentPods("web");
    assertThat(web).singleElement().satisfies(p -> assertThat(p.getSpec().getNodeName()).isEqualTo(standby));
    assertThat(f.provider.nodeGroups().get(0).targetSize()).isEqualTo(1);
    assertThat(f.nodes()).hasSize(2);
    assertThat(f.condition("standby", BufferConditions.PROVISIONING)).get()
        .satisfies(c -> assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_STANDBY_NODES_KEPT));

    // 6. The buffer goes: the standby target drops to 0 and the refill node is deleted; the resumed node stays.
    client.resources(dev.headroom.api.v1beta1.CapacityBuffer.class).inNamespace(ClusterFixture.NS).withName("standby").delete();
    IterationResult gone = f.step();
    assertThat(gone.standbyGroups()).singleElement().satisfies(g -> assertThat(g.target()).isZero());
    f.step();
    assertThat(f.nodes()).extracting(n -> n.getMetadata().getName()).containsExactly(standby);
  }

  /**
   * A node suspended for longer than {@code max-node-startup-time} (15 min) is resumed. Measured from its
   * creationTimestamp the resumed node would be UNREADY at once rather than upcoming: the loop would not count the
   * pending pod on it, would scale the group up a second time, and would count the node towards the unready-nodes
   * health gate. Core measures a resumed node's start-up from its resume ({@code Nodes.startedAt}:
   * {@link KwokProvider#RESUME_REQUESTED_AT_ANNOTATION} while {@code headroom.dev/standby: resuming}).
   */
  @Test
  void aNodeSuspendedForLongerThanTheStartupTimeIsStillUpcomingOnceResumed() {
    ClusterFixture f = fixture();
    f.buffer("standby", 1, "1", "1Gi", BufferConditions.STRATEGY_STANDBY_CAPACITY);
    f.step();
    f.step();
    f.step(Duration.ofSeconds(30));
    assertThat(inState(f, Nodes.STANDBY_SUSPENDED)).hasSize(1);
    f.step(Duration.ofMinutes(20));
    f.deployment("web", 1, "1", "1Gi");
    f.scheduler.schedule();
    assertThat(f.step().scaleUp()).singleElement().satisfies(d -> assertThat(d.delta()).isEqualTo(1));
    IterationResult waiting = f.step(Duration.ofSeconds(3));
    assertThat(waiting.scaleUp()).as("the resumed node is the pod's upcoming node").isEmpty();
    assertThat(waiting.pendingPods().onUpcomingNodes()).isEqualTo(1);
    assertThat(waiting.nodes()).allSatisfy(n -> assertThat(n.state()).isNotEqualTo(IterationResult.NodeState.UNREADY));
  }
}
