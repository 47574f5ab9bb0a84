package dev.headroom.controller.provider.kwok;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.controller.autoscaling.MutableClock;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.core.autoscaler.NodeGroupProvider.ProviderException;
import dev.headroom.core.autoscaler.NodeGroupProvider.StandbyPool;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Standby capacity on the KWOK-style provider (docs/standby-capacity.md): standby nodes are prepared for the group's
 * provisioning delay, then suspended (cordoned, tainted, never Ready, never kwok's); a size increase resumes them first
 * and they turn Ready after the resume delay; the pool refills; surplus goes; none of them is in the group's size.
 */
@EnableKubernetesMockClient(crud = true)
class KwokProviderStandbyTest {
  KubernetesClient client;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T12:00:00Z"));

  static final String GROUPS = """
      apiVersion: headroom.dev/v1alpha1
      kind: NodeGroup
      metadata:
        name: general
      spec:
        minSize: 0
        maxSize: 10
        targetSize: %d
        provisioningDelay: 30s
        standby: {resumeDelay: %s}
        template:
          spec:
            taints: [{key: example.com/dedicated, value: web, effect: NoSchedule}]
          status:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: headroom.dev/v1alpha1
      kind: NodeGroup
      metadata:
        name: plain
      spec:
        maxSize: 3
        provisioningDelay: 30s
        template:
          status:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      """;

  private KwokProvider provider(int targetSize, String resumeDelay) {
    return provider(targetSize, resumeDelay, () -> client.nodes().list().getItems());
  }

  private int instances;

  private KwokProvider provider(int targetSize, String resumeDelay, Supplier<List<Node>> lister) {
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", GROUPS.formatted(targetSize, resumeDelay));
    KwokProvider p = new KwokProvider(client, () -> groups, lister, clock, new Random(7 + instances++));
    p.refresh();
    return p;
  }

  private List<Node> nodes() {
    List<Node> out = new ArrayList<>(client.nodes().list().getItems());
    out.sort(Comparator.comparing(n -> n.getMetadata().getName()));
    return out;
  }

  private List<Node> inState(String state) {
    return nodes().stream().filter(n -> state.equals(n.getMetadata().getAnnotations().get(Nodes.STANDBY))).toList();
  }

  private Node node(String name) {
    return client.nodes().withName(name).get();
  }

  private static NodeCondition ready(Node n) {
    return n.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst().orElseThrow();
  }

  private static List<Taint> standbyTaints(Node n) {
    return n.getSpec().getTaints().stream().filter(t -> Nodes.STANDBY_TAINT.equals(t.getKey())).toList();
  }

  private static int targetSize(KwokProvider p) {
    return p.nodeGroups().stream().filter(g -> g.id().equals("general")).findFirst().orElseThrow().targetSize();
  }

  /** Target n, one refresh, then the provisioning delay: n suspended nodes. */
  private List<Node> suspendedPool(KwokProvider p, int n) {
    p.setStandbyTarget("general", n);
    p.refresh();
    clock.advance(Duration.ofSeconds(30));
    p.refresh();
    List<Node> suspended = inState(Nodes.STANDBY_SUSPENDED);
    assertThat(suspended).hasSize(n);
    return suspended;
  }

  @Test
  void standbyNodesArePreparedForTheProvisioningDelayThenSuspended() {
    KwokProvider p = provider(0, "5s");
    assertThat(p.standbyUnsupported()).isEmpty();
    p.setStandbyTarget("general", 2);
    assertThat(nodes()).as("the next refresh acts on the target").isEmpty();
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 0, 0));

    p.refresh();
    assertThat(nodes()).hasSize(2).allSatisfy(n -> {
      assertThat(n.getMetadata().getAnnotations()).containsEntry(Nodes.STANDBY, Nodes.STANDBY_PREPARING)
          .containsEntry(Nodes.REQUESTED_AT, "2026-12-02T12:00:00Z").containsEntry(KwokProvider.MANAGED_ANNOTATION, "true")
          .doesNotContainKey(KwokProvider.KWOK_ANNOTATION);
      assertThat(n.getMetadata().getLabels()).containsEntry("headroom.dev/node-group", "general");
      assertThat(n.getSpec().getUnschedulable()).isTrue();
      assertThat(standbyTaints(n)).singleElement().satisfies(t -> {
        assertThat(t.getValue()).isEqualTo(Nodes.STANDBY_PREPARING);
        assertThat(t.getEffect()).isEqualTo("NoSchedule");
      });
      assertThat(n.getSpec().getTaints()).extracting(Taint::getKey).contains("example.com/dedicated", KwokProvider.NOT_READY_TAINT);
      assertThat(ready(n)).extracting(NodeCondition::getStatus, NodeCondition::getReason)
          .containsExactly("False", KwokProvider.STANDBY_PREPARING_REASON);
      assertThat(p.isStandby(n)).isTrue();
      assertThat(KwokProvider.provisioning(n)).as("not an upcoming node of the group").isFalse();
    });
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 0, 2));
    assertThat(targetSize(p)).isZero();

    clock.advance(Duration.ofSeconds(29));
    p.refresh();
    assertThat(inState(Nodes.STANDBY_PREPARING)).as("still initialising").hasSize(2);

    clock.advance(Duration.ofSeconds(1));
    p.refresh();
    assertThat(nodes()).hasSize(2).allSatisfy(n -> {
      assertThat(n.getMetadata().getAnnotations()).containsEntry(Nodes.STANDBY, Nodes.STANDBY_SUSPENDED)
          .doesNotContainKey(KwokProvider.KWOK_ANNOTATION);
      assertThat(n.getSpec().getUnschedulable()).isTrue();
      assertThat(standbyTaints(n)).singleElement().satisfies(t -> assertThat(t.getValue()).isEqualTo(Nodes.STANDBY_SUSPENDED));
      assertThat(ready(n)).extracting(NodeCondition::getStatus, NodeCondition::getReason).containsExactly("False", KwokProvider.SUSPENDED_REASON);
      assertThat(p.isStandby(n)).isTrue();
    });
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 2, 0));

    clock.advance(Duration.ofHours(1));
    p.refresh();
    assertThat(p.promoteDueNodes()).as("a suspended node is never promoted").isZero();
    assertThat(nodes()).hasSize(2).noneMatch(Nodes::isReady);
    assertThat(targetSize(p)).isZero();
  }

  @Test
  void increaseSizeResumesSuspendedNodesFirstAndTheyTurnReadyAfterTheResumeDelay() {
    KwokProvider p = provider(0, "5s");
    Node standby = suspendedPool(p, 1).get(0);
    String name = standby.getMetadata().getName();

    p.increaseSize("general", 2);
    assertThat(targetSize(p)).as("both count at once").isEqualTo(2);
    assertThat(nodes()).as("one resumed, one created").hasSize(2);
    Node resuming = node(name);
    assertThat(resuming.getMetadata().getAnnotations()).containsEntry(Nodes.STANDBY, Nodes.STANDBY_RESUMING)
        .containsEntry(KwokProvider.RESUME_REQUESTED_AT_ANNOTATION, "2026-12-02T12:00:30Z").doesNotContainKey(KwokProvider.KWOK_ANNOTATION);
    assertThat(ready(resuming)).extracting(NodeCondition::getStatus, NodeCondition::getReason).containsExactly("False", KwokProvider.RESUMING_REASON);
    assertThat(resuming.getSpec().getUnschedulable()).as("not schedulable before it is Ready").isTrue();
    assertThat(p.isStandby(resuming)).as("an upcoming node now, no longer a standby one").isFalse();
    assertThat(KwokProvider.provisioning(resuming)).isTrue();
    Node created = nodes().stream().filter(n -> !n.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    assertThat(created.getMetadata().getAnnotations()).doesNotContainKey(Nodes.STANDBY);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 0, 0));

    clock.advance(Duration.ofSeconds(4));
    assertThat(p.promoteDueNodes()).as("not before the resume delay").isZero();
    assertThat(Nodes.isReady(node(name))).isFalse();

    clock.advance(Duration.ofSeconds(1));
    assertThat(p.promoteDueNodes()).isEqualTo(1);
    Node resumed = node(name);
    assertThat(Nodes.isReady(resumed)).isTrue();
    assertThat(ready(resumed).getReason()).isEqualTo(KwokProvider.RESUMED_REASON);
    assertThat(resumed.getMetadata().getAnnotations()).containsEntry(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE)
        .doesNotContainKey(Nodes.STANDBY);
    assertThat(resumed.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
    assertThat(resumed.getSpec().getTaints()).extracting(Taint::getKey)
        .containsExactly("example.com/dedicated");
    assertThat(KwokProvider.provisioning(resumed)).isFalse();
    assertThat(Nodes.isReady(node(created.getMetadata().getName()))).as("the created node waits for its provisioning delay").isFalse();
    clock.advance(Duration.ofSeconds(25));
    assertThat(p.promoteDueNodes()).isEqualTo(1);
    assertThat(targetSize(p)).isEqualTo(2);
  }

  @Test
  void thePoolRefillsAfterAResume() {
    KwokProvider p = provider(0, "5s");
    String resumedName = suspendedPool(p, 1).get(0).getMetadata().getName();
    p.increaseSize("general", 1);
    assertThat(nodes()).as("the suspended node serves the whole increase").hasSize(1);

    clock.advance(Duration.ofSeconds(1));
    p.refresh();
    assertThat(inState(Nodes.STANDBY_PREPARING)).as("a new standby node").singleElement()
        .satisfies(n -> assertThat(n.getMetadata().getName()).isNotEqualTo(resumedName));
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 0, 1));
    assertThat(targetSize(p)).isEqualTo(1);

    clock.advance(Duration.ofSeconds(30));
    p.refresh();
    assertThat(Nodes.isReady(node(resumedName))).isTrue();
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 1, 0));
  }

  @Test
  void surplusStandbyNodesAreDeletedPreparingFirstThenTheNewest() {
    KwokProvider p = provider(0, "5s");
    p.setStandbyTarget("general", 1);
    p.refresh();
    String oldest = nodes().get(0).getMetadata().getName();
    clock.advance(Duration.ofSeconds(10));
    p.setStandbyTarget("general", 2);
    p.refresh();
    clock.advance(Duration.ofSeconds(30));
    p.refresh();
    assertThat(inState(Nodes.STANDBY_SUSPENDED)).hasSize(2);
    p.setStandbyTarget("general", 3);
    p.refresh();
    assertThat(inState(Nodes.STANDBY_PREPARING)).hasSize(1);

    p.setStandbyTarget("general", 1);
    p.refresh();
    assertThat(nodes()).as("the preparing node and the newer suspended one go").singleElement().satisfies(n -> {
      assertThat(n.getMetadata().getName()).isEqualTo(oldest);
      assertThat(n.getMetadata().getAnnotations()).containsEntry(Nodes.STANDBY, Nodes.STANDBY_SUSPENDED);
    });
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 1, 0));

    p.setStandbyTarget("general", 0);
    p.refresh();
    assertThat(nodes()).isEmpty();
  }

  @Test
  void standbyNodesAreNotInTheTargetSizeAndNotRemovableAsOrdinaryNodes() {
    KwokProvider p = provider(0, "5s");
    suspendedPool(p, 2);
    p.setStandbyTarget("general", 3);
    p.refresh(); // and one preparing
    assertThat(targetSize(p)).isZero();
    assertThatThrownBy(() -> p.decreaseTargetSize("general", -1)).isInstanceOf(ProviderException.class)
        .hasMessageContaining("has only 0 provisioning nodes");
    p.increaseSize("general", 1); // resumes one; the target is 1, so deleteNodes passes its min-size check
    Node other = inState(Nodes.STANDBY_SUSPENDED).get(0);
    assertThatThrownBy(() -> p.deleteNodes("general", List.of(other))).isInstanceOf(ProviderException.class)
        .hasMessageContaining("is a standby node of group general");
    assertThat(nodes()).hasSize(3);

    // a resumed node is an ordinary provisioning node: the target can come down by it
    p.decreaseTargetSize("general", -1);
    assertThat(targetSize(p)).isZero();
    assertThat(nodes()).hasSize(2).allMatch(Nodes::isStandby);
  }

  @Test
  void afterARestartTheTargetsComeFromTheNodesAndStandbyNodesDoNotCountInTheSize() {
    KwokProvider first = provider(0, "5s");
    suspendedPool(first, 2);
    first.setStandbyTarget("general", 3);
    first.refresh();
    first.increaseSize("general", 1); // one of the suspended resumed
    assertThat(nodes()).hasSize(3);

    // a new process: targetSize 2 in the file; 1 ordinary node (the resumed one) exists, 2 standby nodes
    KwokProvider second = provider(2, "5s");
    assertThat(targetSize(second)).isEqualTo(2);
    assertThat(nodes()).as("one Ready node bootstrapped beside the resumed one and the standby nodes").hasSize(4);
    assertThat(second.standbyPool("general")).isEqualTo(new StandbyPool(2, 1, 1));
    clock.advance(Duration.ofSeconds(5));
    second.refresh();
    assertThat(second.standbyPool("general").target()).as("kept until the autoscaler sets it").isEqualTo(2);
    assertThat(nodes()).filteredOn(Nodes::isReady).hasSize(2);
    second.setStandbyTarget("general", 0);
    second.refresh();
    assertThat(nodes()).hasSize(2).noneMatch(Nodes::isStandby);
    assertThat(targetSize(second)).isEqualTo(2);
  }

  @Test
  void aGroupWithoutSpecStandbyRefusesAStandbyTarget() {
    KwokProvider p = provider(0, "5s");
    assertThatThrownBy(() -> p.setStandbyTarget("plain", 1)).isInstanceOf(ProviderException.class)
        .hasMessage("node group plain has no spec.standby");
    assertThatThrownBy(() -> p.setStandbyTarget("general", -1)).isInstanceOf(ProviderException.class);
    assertThatThrownBy(() -> p.setStandbyTarget("nope", 1)).isInstanceOf(ProviderException.class).hasMessage("unknown node group nope");
    assertThat(p.standbyPool("plain")).isEqualTo(StandbyPool.NONE);
    p.increaseSize("plain", 1);
    assertThat(nodes()).singleElement().satisfies(n -> assertThat(n.getMetadata().getAnnotations()).doesNotContainKey(Nodes.STANDBY));
  }

  @Test
  void aGroupWhoseNodesKwokStartsRefusesAStandbyTarget() {
    List<NodeGroup> groups = NodeGroupConfig.parse("groups.yaml", """
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: kwoks
        spec:
          maxSize: 3
          provisioningDelay: 30s
          standby: {resumeDelay: 5s}
          template:
            metadata:
              annotations: {kwok.x-k8s.io/node: fake}
            status:
              capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        """);
    KwokProvider p = new KwokProvider(client, () -> groups, () -> client.nodes().list().getItems(), clock, new Random(7));
    p.refresh();
    assertThatThrownBy(() -> p.setStandbyTarget("kwoks", 1)).isInstanceOf(ProviderException.class)
        .hasMessageContaining("cannot be suspended");
  }

  @Test
  void aZeroResumeDelayMakesTheResumedNodeReadyAtOnce() {
    KwokProvider p = provider(0, "0s");
    String name = suspendedPool(p, 1).get(0).getMetadata().getName();
    p.increaseSize("general", 1);
    assertThat(nodes()).singleElement().satisfies(n -> {
      assertThat(n.getMetadata().getName()).isEqualTo(name);
      assertThat(Nodes.isReady(n)).isTrue();
      assertThat(n.getMetadata().getAnnotations()).doesNotContainKey(Nodes.STANDBY);
    });
  }

  @Test
  void aLaggingNodeListerNeitherDuplicatesThePoolNorResumesANodeTwice() {
    List<Node> frozen = new ArrayList<>();
    KwokProvider p = provider(0, "5s", () -> List.copyOf(frozen));
    p.setStandbyTarget("general", 1);
    p.refresh();
    p.refresh();
    assertThat(nodes()).as("the node created by the first refresh stands in for the lister's copy").hasSize(1);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 0, 1));

    // the lister catches up with the created node, then lags behind the suspension and the resume
    frozen.addAll(nodes());
    clock.advance(Duration.ofSeconds(30));
    p.refresh();
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 1, 0));
    p.increaseSize("general", 1);
    assertThat(targetSize(p)).isEqualTo(1);
    p.increaseSize("general", 1);
    assertThat(nodes()).as("the second increase creates a node: the first one's node is resuming").hasSize(2);
    assertThat(targetSize(p)).isEqualTo(2);

    // the resumed node deleted by a target decrease stays deleted although the lister still shows it
    p.decreaseTargetSize("general", -1);
    assertThat(targetSize(p)).isEqualTo(1);
    assertThatThrownBy(() -> p.decreaseTargetSize("general", -1)).isInstanceOf(ProviderException.class)
        .hasMessageContaining("has only 0 provisioning nodes");
    assertThat(targetSize(p)).isEqualTo(1);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 0, 0));
  }
}
