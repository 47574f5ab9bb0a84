package dev.headroom.controller.provider.kwok;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.autoscaling.MutableClock;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A group whose template carries kwok's annotation: its nodes are kwok's from creation, provisioning until kwok's
 * node-initialize stage writes Ready, and this provider never writes their Ready condition itself (the start-up
 * delay is kwok's, as for the nodes Karpenter's KWOK provider creates).
 */
@EnableKubernetesMockClient(crud = true)
class KwokProviderKwokStartsTest {
  KubernetesClient client;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T12:00:00Z"));

  private KwokProvider provider(String annotations, int targetSize) {
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", """
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: general
        spec:
          minSize: 0
          maxSize: 3
          targetSize: %d
          provisioningDelay: 0s
          template:
            metadata:
              annotations: %s
            status:
              capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        """.formatted(targetSize, annotations));
    KwokProvider p = new KwokProvider(client, () -> groups, () -> client.nodes().list().getItems(), clock, new Random(7));
    p.refresh();
    return p;
  }

  @Test
  void nodesOfAKwokStartedGroupWaitForKwokAndAreNeverMarkedReadyByTheProvider() {
    KwokProvider provider = provider("{kwok.x-k8s.io/node: fake}", 0);
    provider.increaseSize("general", 1);
    Node created = client.nodes().list().getItems().get(0);
    String name = created.getMetadata().getName();
    assertThat(created.getMetadata().getAnnotations()).containsEntry(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE);
    assertThat(created.getSpec().getTaints()).extracting(Taint::getKey).contains(KwokProvider.NOT_READY_TAINT);
    assertThat(readyOf(created)).extracting(NodeCondition::getStatus, NodeCondition::getReason)
        .containsExactly("False", KwokProvider.PROVISIONING_REASON);
    assertThat(KwokProvider.provisioning(created)).isTrue();

    clock.advance(Duration.ofMinutes(5));
    assertThat(provider.promoteDueNodes()).as("kwok, not the provider, turns it Ready").isZero();
    assertThat(readyOf(client.nodes().withName(name).get()).getStatus()).isEqualTo("False");

    // kwok's node-initialize stage writes its own conditions
    client.nodes().withName(name).editStatus(n -> {
      n.getStatus().setConditions(List.of(new NodeConditionBuilder().withType("Ready").withStatus("True")
          .withReason("KubeletReady").withMessage("kubelet is posting ready status").build()));
      return n;
    });
    assertThat(KwokProvider.provisioning(client.nodes().withName(name).get())).isFalse();
    assertThat(provider.promoteDueNodes()).isZero();
    assertThat(provider.nodeGroups().get(0).targetSize()).isEqualTo(1);
  }

  @Test
  void bootstrapNodesOfAKwokStartedGroupAreKwoksToo() {
    provider("{kwok.x-k8s.io/node: fake}", 2);
    assertThat(client.nodes().list().getItems()).hasSize(2).allSatisfy(n -> {
      assertThat(KwokProvider.provisioning(n)).isTrue();
      assertThat(n.getMetadata().getAnnotations()).containsEntry(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE);
    });
  }

  @Test
  void withoutTheAnnotationAZeroDelayNodeIsReadyAtOnce() {
    KwokProvider provider = provider("{}", 0);
    provider.increaseSize("general", 1);
    Node created = client.nodes().list().getItems().get(0);
    assertThat(readyOf(created).getStatus()).isEqualTo("True");
    assertThat(KwokProvider.provisioning(created)).isFalse();
  }

  @Test
  void aScaleUpOfSeveralNodesCreatesEachOnceAndCountsThemAll() {
    KwokProvider provider = provider("{kwok.x-k8s.io/node: fake}", 0);
    provider.increaseSize("general", 3);
    assertThat(client.nodes().list().getItems()).extracting(n -> n.getMetadata().getName()).hasSize(3).doesNotHaveDuplicates();
    assertThat(provider.nodeGroups().get(0).targetSize()).isEqualTo(3);
  }

  private static NodeCondition readyOf(Node n) {
    return n.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready")).findFirst().orElseThrow();
  }
}
