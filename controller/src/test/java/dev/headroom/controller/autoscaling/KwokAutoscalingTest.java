package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.Events;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.autoscaler.ScaleUpResult;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The full loop with the KWOK-style provider against the CRUD mock server, one explicit iteration at a time. */
@EnableKubernetesMockClient(crud = true)
class KwokAutoscalingTest {
  KubernetesMockServer server;
  KubernetesClient client;

  static String groups(int min, int max, int target, String delay) {
    return """
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: general
        spec:
          minSize: %d
          maxSize: %d
          targetSize: %d
          provisioningDelay: %s
          template:
            metadata:
              labels:
                node.kubernetes.io/instance-type: general-4x16
            status:
              capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        """.formatted(min, max, target, delay);
  }

  private ClusterFixture fixture(AutoscalerOptions options, String yaml) {
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", yaml);
    return new ClusterFixture(client, options, f -> new KwokProvider(client, () -> groups, () -> client.nodes().list().getItems(), f.clock, new Random(7)));
  }

  @Test
  void pendingDeploymentAndBufferTurnIntoReadyNodesAndCapacityAvailable() {
    ClusterFixture f = fixture(ClusterFixture.options().build(), groups(0, 10, 0, "60s"));
    f.deployment("web", 6, "1", "1Gi");
    f.buffer("spare", 4, "1", "1Gi");
    f.scheduler.schedule();
    assertThat(f.unbound("web")).hasSize(6);

    IterationResult first = f.step();
    assertThat(first.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpSuccessful);
    int requested = first.scaleUp().stream().mapToInt(IterationResult.ScaleUpDecision::delta).sum();
    assertThat(requested).isEqualTo(3); // 6 real + 4 virtual cpu on 4-cpu nodes
    assertThat(f.nodes()).hasSize(3).allSatisfy(n -> {
      assertThat(Nodes.isReady(n)).isFalse();
      assertThat(n.getSpec().getProviderID()).isEqualTo(KwokProvider.PROVIDER_ID_PREFIX + n.getMetadata().getName());
      assertThat(n.getMetadata().getLabels()).containsEntry("headroom.dev/node-group", "general")
          .containsEntry("node.kubernetes.io/instance-type", "general-4x16").containsEntry("kubernetes.io/hostname", n.getMetadata().getName());
      assertThat(n.getStatus().getAllocatable()).containsKeys("cpu", "memory", "pods");
      assertThat(n.getMetadata().getAnnotations()).doesNotContainKey(KwokProvider.KWOK_ANNOTATION);
    });
    assertThat(f.events(Events.TRIGGERED_SCALE_UP)).isNotEmpty();
    assertThat(f.condition("spare", BufferConditions.CAPACITY_AVAILABLE)).get()
        .satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"));

    // While the nodes boot, later loops must not ask for the same capacity again.
    for (int i = 0; i < 4; i++) {
      IterationResult r = f.step();
      assertThat(r.scaleUp()).isEmpty();
      assertThat(f.nodes()).hasSize(3);
    }
    assertThat(f.unbound("web")).hasSize(6);

    // Provisioning delay elapses: the provider's refresh turns them Ready, the scheduler binds, the buffer has room.
    f.step(Duration.ofSeconds(30));
    assertThat(f.nodes()).allSatisfy(n -> {
      assertThat(Nodes.isReady(n)).isTrue();
      assertThat(n.getMetadata().getAnnotations()).containsEntry(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE);
      assertThat(n.getSpec().getTaints()).noneMatch(t -> KwokProvider.NOT_READY_TAINT.equals(t.getKey()));
    });
    assertThat(f.unbound("web")).isEmpty();
    IterationResult settled = f.step();
    assertThat(settled.scaleUp()).isEmpty();
    assertThat(f.condition("spare", BufferConditions.CAPACITY_AVAILABLE)).get().satisfies(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("FitsExistingCapacity");
    });
    assertThat(f.condition("spare", BufferConditions.PROVISIONING)).get().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
    // The buffer controller's condition is untouched.
    assertThat(f.condition("spare", BufferConditions.READY_FOR_PROVISIONING)).get().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
    assertThat(f.metric("headroom_scaled_up_nodes_total{node_group=\"general\"")).isEqualTo(3.0);
    assertThat(f.metric("headroom_buffer_virtual_pods{name=\"spare\",namespace=\"default\",placement=\"existing\"")).isEqualTo(4.0);
    assertThat(f.metric("headroom_nodes_count{state=\"ready\"")).isEqualTo(3.0);
    assertThat(f.metric("headroom_buffer_fragmented_chunks{name=\"spare\",namespace=\"default\""))
        .isEqualTo((double) settled.buffers().get(0).freeRoom().fragmented());
  }

  @Test
  void bufferRoomSurvivesScaleDownWhileEmptyNodesGoAndRaisingReplicasUsesItThenRefills() {
    ClusterFixture f = fixture(ClusterFixture.options().build(), groups(0, 10, 4, "30s"));
    f.deployment("web", 2, "3", "1Gi");
    f.buffer("spare", 1, "3", "1Gi");
    f.step(); // bootstrap: 4 Ready nodes; the scheduler binds the two pods
    assertThat(f.nodes()).hasSize(4);
    assertThat(f.unbound("web")).isEmpty();

    IterationResult r = f.step();
    assertThat(r.scaleUp()).isEmpty();
    assertThat(f.condition("spare", BufferConditions.CAPACITY_AVAILABLE)).get().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
    // Unneeded time (1m) passes: the empty node goes, the node holding the buffer's room stays.
    for (int i = 0; i < 8; i++) {
      f.step();
    }
    assertThat(f.nodes()).hasSize(3);
    // Disruption-cost order (§8.3): the node holding only buffer room is tried first; its virtual pod moves to the
    // empty node, so exactly one node goes and the room is kept.
    assertThat(f.events(Events.SCALE_DOWN_EMPTY).size() + f.events(Events.SCALE_DOWN).size()).isPositive();
    for (int i = 0; i < 12; i++) {
      assertThat(f.step().scaleDown()).isEmpty();
    }
    assertThat(f.nodes()).hasSize(3);
    assertThat(f.condition("spare", BufferConditions.CAPACITY_AVAILABLE)).get().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));

    // A third replica lands at once on the buffer's room; the autoscaler then refills the buffer.
    f.deployment("web", 3, "3", "1Gi");
    assertThat(f.scheduler.schedule()).isEqualTo(1);
    assertThat(f.unbound("web")).isEmpty();
    IterationResult refill = f.step();
    assertThat(refill.scaleUp()).singleElement().satisfies(d -> {
      assertThat(d.delta()).isEqualTo(1);
      assertThat(d.virtualPods()).isEqualTo(1);
      assertThat(d.realPods()).isZero();
    });
    assertThat(f.condition("spare", BufferConditions.CAPACITY_AVAILABLE)).get().satisfies(c -> assertThat(c.getReason()).isEqualTo("RequiresNewCapacity"));
    f.step(Duration.ofSeconds(30));
    f.step();
    assertThat(f.nodes()).hasSize(4).allMatch(Nodes::isReady);
    assertThat(f.condition("spare", BufferConditions.CAPACITY_AVAILABLE)).get().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
  }

  @Test
  void nodeGroupAtMaxSizeIsNotExceeded() {
    ClusterFixture f = fixture(ClusterFixture.options().build(), groups(0, 2, 0, "0s"));
    f.deployment("big", 5, "3", "1Gi");
    f.scheduler.schedule();
    IterationResult r = f.step();
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.newTargetSize()).isEqualTo(2));
    for (int i = 0; i < 5; i++) {
      assertThat(f.step().scaleUp()).isEmpty();
    }
    assertThat(f.nodes()).hasSize(2);
    assertThat(f.unbound("big")).hasSize(3);
    assertThat(f.events(Events.NOT_TRIGGER_SCALE_UP)).isNotEmpty()
        .anySatisfy(e -> assertThat(e.getMessage()).contains("max node group size reached"));
  }

  @Test
  void providerFailureBacksOffAndRecovers() {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger failuresLeft = new AtomicInteger(1);
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", groups(0, 10, 0, "0s"));
    ClusterFixture f = new ClusterFixture(client, ClusterFixture.options().build(), fx -> {
      KwokProvider kwok = new KwokProvider(client, () -> groups, () -> client.nodes().list().getItems(), fx.clock, new Random(1));
      return new FlakyProvider(kwok, calls, failuresLeft);
    });
    f.deployment("web", 2, "1", "1Gi");
    f.scheduler.schedule();
    IterationResult failed = f.step();
    assertThat(failed.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpError);
    assertThat(f.events(Events.FAILED_TO_SCALE_UP_GROUP)).hasSize(1);
    assertThat(f.metric("headroom_failed_scale_ups_total{reason=\"cloudProviderError\"")).isEqualTo(1.0);
    // Backed off for the initial 5 minutes: no further attempts.
    for (int i = 0; i < 20; i++) {
      f.step();
    }
    assertThat(calls).hasValue(1);
    assertThat(f.nodes()).isEmpty();
    f.step(Duration.ofMinutes(2));
    assertThat(calls).hasValue(2);
    assertThat(f.nodes()).hasSize(1);
    f.step();
    assertThat(f.unbound("web")).isEmpty();
  }

  @Test
  void nodesThatNeverTurnReadyTimeOutBackOffAndAreRemoved() {
    AutoscalerOptions options = ClusterFixture.options().set(AutoscalerOptions.MAX_NODE_PROVISION_TIME, Duration.ofMinutes(5)).build();
    ClusterFixture f = fixture(options, groups(0, 10, 0, "1h"));
    f.deployment("web", 2, "1", "1Gi");
    f.scheduler.schedule();
    assertThat(f.step().scaleUp()).hasSize(1);
    assertThat(f.nodes()).hasSize(1);
    for (int i = 0; i < 30; i++) {
      assertThat(f.step().scaleUp()).isEmpty();
    }
    f.step(Duration.ofMinutes(1));
    assertThat(f.events(Events.SCALE_UP_TIMED_OUT)).hasSize(1);
    assertThat(f.nodes()).as("the provisioning node is given back").isEmpty();
    assertThat(f.metric("headroom_failed_scale_ups_total{reason=\"timeout\"")).isEqualTo(1.0);
    // In backoff: no new request for the same group right away.
    assertThat(f.step().scaleUp()).isEmpty();
  }

  /** Fails the first {@code failuresLeft} scale-ups, counting every call. */
  record FlakyProvider(NodeGroupProvider delegate, AtomicInteger calls, AtomicInteger failuresLeft) implements NodeGroupProvider {
    @Override
    public void refresh() {
      delegate.refresh();
    }

    @Override
    public List<NodeGroup> nodeGroups() {
      return delegate.nodeGroups();
    }

    @Override
    public java.util.Optional<String> nodeGroupOf(Node node) {
      return delegate.nodeGroupOf(node);
    }

    @Override
    public void increaseSize(String groupId, int delta) {
      calls.incrementAndGet();
      if (failuresLeft.getAndDecrement() > 0) {
        throw new ProviderException("quota exceeded");
      }
      delegate.increaseSize(groupId, delta);
    }

    @Override
    public void deleteNodes(String groupId, List<Node> nodes) {
      delegate.deleteNodes(groupId, nodes);
    }

    @Override
    public void decreaseTargetSize(String groupId, int delta) {
      delegate.decreaseTargetSize(groupId, delta);
    }
  }
}
