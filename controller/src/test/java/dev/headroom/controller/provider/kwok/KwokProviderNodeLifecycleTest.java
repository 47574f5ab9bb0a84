package dev.headroom.controller.provider.kwok;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.autoscaling.MutableClock;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The provider beside the node-lifecycle controller (kube-controller-manager), which also writes a provisioning
 * node's taints and Ready condition: the hand-over to kwok still happens, and leaves no not-ready taint.
 */
@EnableKubernetesMockClient(crud = true)
class KwokProviderNodeLifecycleTest {
  KubernetesClient client;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T12:00:00Z"));

  private KwokProvider provider() {
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", """
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: general
        spec:
          minSize: 0
          maxSize: 3
          targetSize: 0
          provisioningDelay: 90s
          template:
            status:
              capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        """);
    KwokProvider p = new KwokProvider(client, () -> groups, () -> client.nodes().list().getItems(), clock, new Random(7));
    p.refresh();
    return p;
  }

  @Test
  void nodeTheLifecycleControllerMarkedUnknownAndTaintedIsStillHandedToKwokWithoutNotReadyTaints() {
    KwokProvider provider = provider();
    provider.increaseSize("general", 1);
    Node created = client.nodes().list().getItems().get(0);
    String name = created.getMetadata().getName();
    assertThat(created.getMetadata().getAnnotations()).doesNotContainKey(KwokProvider.KWOK_ANNOTATION);

    // What the node-lifecycle controller does to a node no kubelet reports for, past the startup grace period
    // (60 s): Ready=Unknown, and the NoExecute not-ready taint beside the NoSchedule one.
    client.nodes().withName(name).edit(n -> {
      List<Taint> taints = new ArrayList<>(n.getSpec().getTaints());
      taints.add(new TaintBuilder().withKey(KwokProvider.NOT_READY_TAINT).withEffect("NoExecute").build());
      n.getSpec().setTaints(taints);
      return n;
    });
    client.nodes().withName(name).editStatus(n -> {
      n.getStatus().setConditions(List.of(new NodeConditionBuilder().withType("Ready").withStatus("Unknown")
          .withReason("NodeStatusUnknown").withMessage("Kubelet never posted node status.").build()));
      return n;
    });
    clock.advance(Duration.ofSeconds(60));
    assertThat(provider.promoteDueNodes()).as("not due yet").isZero();

    clock.advance(Duration.ofSeconds(30));
    assertThat(provider.promoteDueNodes()).isEqualTo(1);
    Node n = client.nodes().withName(name).get();
    assertThat(n.getMetadata().getAnnotations()).containsEntry(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE);
    assertThat(n.getSpec().getTaints()).extracting(Taint::getKey).doesNotContain(KwokProvider.NOT_READY_TAINT);
    assertThat(n.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
        .extracting(NodeCondition::getStatus, NodeCondition::getReason).containsExactly(org.assertj.core.groups.Tuple.tuple("True", KwokProvider.READY_REASON));
    assertThat(provider.promoteDueNodes()).as("handed over once").isZero();
  }

  @Test
  void nodeHandedToKwokWhoseReadyStatusWasNotWrittenYetIsPromotedAgain() {
    KwokProvider provider = provider();
    provider.increaseSize("general", 1);
    String name = client.nodes().list().getItems().get(0).getMetadata().getName();
    // the hand-over's first half landed (annotation), the status write did not
    client.nodes().withName(name).edit(n -> {
      n.getMetadata().getAnnotations().put(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE);
      return n;
    });
    assertThat(KwokProvider.provisioning(client.nodes().withName(name).get())).isTrue();
    clock.advance(Duration.ofSeconds(90));
    assertThat(provider.promoteDueNodes()).isEqualTo(1);
    assertThat(KwokProvider.provisioning(client.nodes().withName(name).get())).isFalse();
  }
}
