package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #26 item 4 on the real control plane (docs/standby-capacity.md): {@code headroom run --cloud-provider=kwok
 * --standby-capacity} with the real kube-scheduler and kwok. A group whose new nodes take 30 s keeps a standby buffer's
 * chunk on a suspended node: kube-scheduler places nothing there while it is suspended; a pod that needs a node gets
 * that node resumed (3 s) rather than a new one, well inside the 30 s a new node would take, and the pool refills.
 */
class StandbyCapacityE2eTest {
  static final String GROUP_LABEL = "headroom.dev/node-group";
  static final Duration PROVISIONING_DELAY = Duration.ofSeconds(30);
  static final Duration RESUME_DELAY = Duration.ofSeconds(3);

  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private String group;
  private HeadroomProcess headroom;

  @BeforeEach
  void setUp() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    ns = bed.namespace("standby");
    group = "standby-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    Path groups = bed.nodeGroupFile(group, 10, PROVISIONING_DELAY.toSeconds() + "s",
        "standby: {resumeDelay: " + RESUME_DELAY.toSeconds() + "s, price: 0.02}");
    headroom = HeadroomProcess.start(bed, "headroom-" + group, List.of("--leader-elect=false", "--namespace=" + ns,
        "--cloud-provider=kwok", "--node-groups=" + groups, "--scan-interval=1s", "--max-node-provision-time=2m",
        "--scale-down-unneeded-time=10m", "--standby-capacity"));
  }

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    bed.deleteNamespace(ns);
    admin.nodes().withLabel(GROUP_LABEL, group).delete();
  }

  /** A 1-CPU pod for the group, with no toleration of anything. */
  private PodSpec pod(Map<String, String> nodeSelector) {
    return new PodSpecBuilder().withNodeSelector(nodeSelector)
        .addNewContainer().withName("app").withImage("registry.k8s.io/pause:3.10")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .withTerminationGracePeriodSeconds(0L).build();
  }

  @Test
  void aStandbyChunkWaitsOnASuspendedNodeThatAPendingPodResumesFasterThanANewNode() {
    // 1. A standby buffer of one chunk: a standby node is prepared for the provisioning delay, then suspended.
    bed.create(ns, new PodTemplateBuilder().withNewMetadata().withName("chunk").endMetadata().withNewTemplate()
        .withNewMetadata().addToLabels("app", "chunk").endMetadata().withSpec(pod(Map.of(GROUP_LABEL, group))).endTemplate().build());
    Instant bufferCreated = Instant.now();
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    b.setKind(CapacityBufferVersion.KIND);
    b.setMetadata(new ObjectMetaBuilder().withName("standby").withNamespace(ns).build());
    b.setAdditionalProperty("spec", Map.of("provisioningStrategy", BufferConditions.STRATEGY_STANDBY_CAPACITY,
        "podTemplateRef", Map.of("name", "chunk"), "replicas", 1));
    admin.resource(b).create();

    await("a preparing standby node").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
        .until(() -> inState(Nodes.STANDBY_PREPARING).size() == 1);
    Instant preparingSeen = Instant.now();
    Node preparing = inState(Nodes.STANDBY_PREPARING).get(0);
    String standby = preparing.getMetadata().getName();
    assertThat(preparing.getSpec().getUnschedulable()).isTrue();
    assertThat(standbyTaint(preparing)).map(Taint::getValue).contains(Nodes.STANDBY_PREPARING);
    assertThat(preparing.getMetadata().getAnnotations()).doesNotContainKey(KwokProvider.KWOK_ANNOTATION);
    assertThat(Nodes.isReady(preparing)).isFalse();
    await("Provisioning=True/StandbyNodesKept").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
        .until(() -> provisioningReason().equals(BufferConditions.REASON_STANDBY_NODES_KEPT));

    await("the standby node suspended").atMost(PROVISIONING_DELAY.plusSeconds(15)).pollInterval(Duration.ofMillis(100))
        .until(() -> Nodes.STANDBY_SUSPENDED.equals(state(admin.nodes().withName(standby).get())));
    Instant suspendedAt = Instant.now();
    Node suspended = admin.nodes().withName(standby).get();
    assertThat(suspended.getSpec().getUnschedulable()).isTrue();
    assertThat(Nodes.isReady(suspended)).isFalse();
    assertThat(standbyTaint(suspended)).get().satisfies(t -> {
      assertThat(t.getValue()).isEqualTo(Nodes.STANDBY_SUSPENDED);
      assertThat(t.getEffect()).isEqualTo("NoSchedule");
    });
    assertThat(nodes()).as("the standby node alone: no running node for a standby buffer").hasSize(1);
    Duration toSuspended = Duration.between(bufferCreated, suspendedAt);
    Duration preparedFor = Duration.between(preparingSeen, suspendedAt);
    Measurements.record("standby: buffer created to its node suspended (s; provisioning delay " + PROVISIONING_DELAY.toSeconds() + " s)",
        String.format("%.1f", toSuspended.toMillis() / 1000.0));
    assertThat(preparedFor).as("prepared for the provisioning delay").isGreaterThan(PROVISIONING_DELAY.minusSeconds(3));

    // 2. A pod that fits the node, pinned to it: kube-scheduler does not place it on the suspended node, and the
    //    autoscaler does not resume it for a pod no new node of the group could take either.
    admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("probe").endMetadata()
        .withSpec(pod(Map.of("kubernetes.io/hostname", standby))).build()).create();
    await("probe reported unschedulable").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
        .until(() -> scheduled("probe").map(c -> "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())).orElse(false));
    assertThat(scheduled("probe").orElseThrow().getMessage()).contains("unschedulable");
    await("the probe stays pending and the node suspended").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> nodeOf("probe") == null && Nodes.STANDBY_SUSPENDED.equals(state(admin.nodes().withName(standby).get())));
    admin.pods().inNamespace(ns).withName("probe").withGracePeriod(0).delete();
    await("probe gone").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
        .until(() -> admin.pods().inNamespace(ns).withName("probe").get() == null);
    assertThat(nodes()).hasSize(1);

    // 3. A Deployment's pod needs a node: the suspended node is resumed (no new one) and the pod runs on it.
    Instant podCreated = Instant.now();
    bed.create(ns, new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec().withReplicas(1)
        .withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata().withSpec(pod(Map.of(GROUP_LABEL, group))).endTemplate()
        .endSpec().build());
    await("web's pod running").atMost(PROVISIONING_DELAY).pollInterval(Duration.ofMillis(100))
        .until(() -> webPod().map(p -> "Running".equals(p.getStatus().getPhase())).orElse(false));
    Duration toRunning = Duration.between(podCreated, Instant.now());
    Pod web = webPod().orElseThrow();
    assertThat(web.getSpec().getNodeName()).as("the resumed standby node").isEqualTo(standby);
    Node resumed = admin.nodes().withName(standby).get();
    assertThat(Nodes.isReady(resumed)).isTrue();
    assertThat(resumed.getMetadata().getAnnotations()).doesNotContainKey(Nodes.STANDBY)
        .containsKey(KwokProvider.RESUME_REQUESTED_AT_ANNOTATION).containsEntry(KwokProvider.KWOK_ANNOTATION, KwokProvider.KWOK_ANNOTATION_VALUE);
    assertThat(resumed.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
    assertThat(standbyTaint(resumed)).isEmpty();
    Measurements.record("standby: pod created to Running on the resumed node (s; resume delay " + RESUME_DELAY.toSeconds()
        + " s, a new node " + PROVISIONING_DELAY.toSeconds() + " s)", String.format("%.1f", toRunning.toMillis() / 1000.0));
    assertThat(toRunning).as("well under the provisioning delay").isLessThan(PROVISIONING_DELAY.dividedBy(2));
    assertThat(toRunning).as("not before the resume delay").isGreaterThanOrEqualTo(RESUME_DELAY.minusMillis(500));

    // 4. The pool refills: a new standby node is being prepared, and no ordinary node was created.
    await("the pool refills").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> inState(Nodes.STANDBY_PREPARING).size() == 1);
    assertThat(inState(Nodes.STANDBY_PREPARING).get(0).getMetadata().getName()).isNotEqualTo(standby);
    assertThat(nodes()).as("the resumed node and the refill").hasSize(2);
    assertThat(provisioningReason()).isEqualTo(BufferConditions.REASON_STANDBY_NODES_KEPT);
  }

  private List<Node> nodes() {
    return admin.nodes().withLabel(GROUP_LABEL, group).list().getItems().stream()
        .filter(n -> n.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private List<Node> inState(String state) {
    return nodes().stream().filter(n -> state.equals(state(n))).toList();
  }

  private static String state(Node n) {
    return n == null || n.getMetadata().getAnnotations() == null ? null : n.getMetadata().getAnnotations().get(Nodes.STANDBY);
  }

  private static Optional<Taint> standbyTaint(Node n) {
    return n.getSpec().getTaints() == null ? Optional.empty()
        : n.getSpec().getTaints().stream().filter(t -> Nodes.STANDBY_TAINT.equals(t.getKey())).findFirst();
  }

  private Optional<PodCondition> scheduled(String pod) {
    Pod p = admin.pods().inNamespace(ns).withName(pod).get();
    if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return p.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst();
  }

  private String nodeOf(String pod) {
    Pod p = admin.pods().inNamespace(ns).withName(pod).get();
    return p == null ? null : p.getSpec().getNodeName();
  }

  private Optional<Pod> webPod() {
    return admin.pods().inNamespace(ns).withLabel("app", "web").list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).findFirst();
  }

  /** The reason of the buffer's {@code Provisioning} condition ("" while it has none). */
  @SuppressWarnings("unchecked")
  private String provisioningReason() {
    GenericKubernetesResource b = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND)
        .inNamespace(ns).withName("standby").get();
    Object status = b == null ? null : b.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> conditions)) {
      return "";
    }
    return ((List<Map<String, Object>>) conditions).stream().filter(c -> BufferConditions.PROVISIONING.equals(c.get("type")))
        .map(c -> String.valueOf(c.get("reason"))).findFirst().orElse("");
  }
}
