package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.buffer.BufferConsumption;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #26 items 2 and 3 on the real control plane (docs/buffer-consumption.md): {@code headroom run
 * --cloud-provider=kwok} with the real kube-scheduler. A dedicated node group carries a taint that only the web
 * workload tolerates; a buffer dedicated to that workload keeps only the chunks its pods do not hold, an unrelated pod
 * is kept off the dedicated nodes by the scheduler, and a one-shot buffer is filled by its pods, latches
 * {@code Fulfilled} and is not refilled when they go. A malformed annotation makes only its buffer NotReady.
 */
class BufferConsumptionE2eTest {
  static final String GROUP_LABEL = "headroom.dev/node-group";
  static final String TAINT_KEY = "headroom.dev/dedicated";

  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private String dedicated;
  private String general;
  private HeadroomProcess headroom;

  @BeforeEach
  void setUp() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    ns = bed.namespace("consumption");
    String id = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    dedicated = "web-" + id;
    general = "general-" + id;
    Path groups = bed.out().resolve("consumption-" + id + "-node-groups.yaml");
    Files.writeString(groups, group(dedicated, true) + "---\n" + group(general, false));
    headroom = HeadroomProcess.start(bed, "headroom-consumption-" + id, List.of("--leader-elect=false", "--namespace=" + ns,
        "--cloud-provider=kwok", "--node-groups=" + groups, "--scan-interval=1s", "--max-node-provision-time=2m",
        "--scale-down-unneeded-time=10m"));
  }

  /** A group of 4-CPU nodes, tainted {@code headroom.dev/dedicated=web:NoSchedule} when {@code tainted}. */
  private static String group(String name, boolean tainted) {
    String taints = tainted ? "    spec:\n      taints: [{key: " + TAINT_KEY + ", value: web, effect: NoSchedule}]\n" : "";
    return "apiVersion: headroom.dev/v1alpha1\nkind: NodeGroup\nmetadata:\n  name: " + name + "\nspec:\n"
        + "  minSize: 0\n  maxSize: 10\n  targetSize: 0\n  price: 0.2\n  provisioningDelay: 1s\n  template:\n"
        + "    metadata:\n      labels:\n        node.kubernetes.io/instance-type: e2e-4x8\n" + taints
        + "    status:\n      capacity:    {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n"
        + "      allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n";
  }

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    bed.deleteNamespace(ns);
    admin.nodes().withLabel(GROUP_LABEL, dedicated).delete();
    admin.nodes().withLabel(GROUP_LABEL, general).delete();
  }

  /** A 1.5-CPU pod (two per node) that tolerates the dedicated taint and asks for the dedicated group. */
  private PodSpec dedicatedPod() {
    return new PodSpecBuilder().addToNodeSelector(GROUP_LABEL, dedicated)
        .addNewToleration().withKey(TAINT_KEY).withOperator("Equal").withValue("web").withEffect("NoSchedule").endToleration()
        .addNewContainer().withName("app").withImage("registry.k8s.io/pause:3.10")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("1500m"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .withTerminationGracePeriodSeconds(0L).build();
  }

  @Test
  void consumedBuffersKeepOnlyTheRemainderAndTheDedicatedCapacityIsTheWorkloads() {
    Deployment web = new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec().withReplicas(0)
        .withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata().withSpec(dedicatedPod()).endTemplate().endSpec().build();
    bed.create(ns, web);
    buffer("web-buffer", Map.of("scalableRef", Map.of("apiGroup", "apps", "kind", "Deployment", "name", "web"), "replicas", 4),
        Map.of(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=web"));
    buffer("broken", Map.of("scalableRef", Map.of("apiGroup", "apps", "kind", "Deployment", "name", "web"), "replicas", 1),
        Map.of(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=web", BufferConsumption.ANNOTATION_REFILL_STRATEGY, "once"));

    // 1. No pod of web yet: 4 chunks, two per node, on the dedicated group only.
    await("4 chunks kept on 2 dedicated nodes").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> Integer.valueOf(4).equals(replicas("web-buffer")) && condition("web-buffer", "CapacityAvailable").map(c -> c.get("status")).orElse("").equals("True")
            && readyNodes(dedicated).size() == 2);
    assertThat(condition("web-buffer", BufferConsumption.CONSUMED).orElseThrow())
        .containsEntry("status", "False").containsEntry("message", "0 of 4 chunks consumed by pods matching app=web");
    assertThat(nodes(general)).isEmpty();
    Map<String, Object> broken = condition("broken", "ReadyForProvisioning").orElseThrow();
    assertThat(broken).containsEntry("status", "False").containsEntry("message", "Buffer not ready for provisioning: "
        + BufferConsumption.ERR_INVALID + "headroom.dev/refill-strategy \"once\": must be recreate or none");
    Set<String> dedicatedNodes = names(readyNodes(dedicated));

    // 2. Three pods of web: they bind on the kept room, and the buffer keeps only the fourth chunk.
    admin.apps().deployments().inNamespace(ns).withName("web").scale(3);
    await("web's 3 pods bound").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> pods("web").size() == 3 && pods("web").stream().allMatch(p -> p.getSpec().getNodeName() != null));
    assertThat(pods("web")).allMatch(p -> dedicatedNodes.contains(p.getSpec().getNodeName()));
    await("the buffer keeps the remainder").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> Integer.valueOf(1).equals(replicas("web-buffer")));
    assertThat(condition("web-buffer", BufferConsumption.CONSUMED).orElseThrow())
        .containsEntry("status", "True").containsEntry("message", "3 of 4 chunks consumed by pods matching app=web");

    // 3. An unrelated pod that would fit the free half node: the scheduler keeps it off the dedicated node (taint),
    //    and Headroom gives it a general node.
    admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("other").addToLabels("app", "other").endMetadata()
        .withNewSpec().addNewContainer().withName("app").withImage("registry.k8s.io/pause:3.10")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("1500m"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .withTerminationGracePeriodSeconds(0L).endSpec().build()).create();
    await("the unrelated pod bound").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> nodeOf("other") != null);
    Node host = admin.nodes().withName(nodeOf("other")).get();
    assertThat(host.getMetadata().getLabels()).containsEntry(GROUP_LABEL, general);
    assertThat(names(nodes(dedicated))).as("no dedicated node was added or removed").isEqualTo(dedicatedNodes);

    // 4. web scaled back to 1: the buffer is refilled (recreate) and its room is still there.
    admin.apps().deployments().inNamespace(ns).withName("web").scale(1);
    await("the buffer refilled to 3").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> Integer.valueOf(3).equals(replicas("web-buffer")));

    // 5. A one-shot buffer of 2 chunks for a batch of pods: more dedicated room, filled by the pods, then latched.
    bed.create(ns, new PodTemplateBuilder().withNewMetadata().withName("batch").endMetadata().withNewTemplate()
        .withNewMetadata().addToLabels("app", "batch").endMetadata().withSpec(dedicatedPod()).endTemplate().build());
    buffer("batch-buffer", Map.of("podTemplateRef", Map.of("name", "batch"), "replicas", 2),
        Map.of(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, "app=batch", BufferConsumption.ANNOTATION_REFILL_STRATEGY, "none",
            BufferConsumption.ANNOTATION_FILL_DEADLINE_SECONDS, "600"));
    await("the one-shot buffer's room").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> Integer.valueOf(2).equals(replicas("batch-buffer")) && readyNodes(dedicated).size() == 3);
    assertThat(condition("batch-buffer", BufferConsumption.FULFILLED).orElseThrow())
        .containsEntry("status", "False").containsEntry("reason", BufferConsumption.REASON_FILLING);
    Set<String> withBatchRoom = names(readyNodes(dedicated));
    for (int i = 0; i < 2; i++) {
      admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("batch-" + i).addToLabels("app", "batch").endMetadata()
          .withSpec(dedicatedPod()).build()).create();
    }
    await("the batch pods bound").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> nodeOf("batch-0") != null && nodeOf("batch-1") != null);
    assertThat(List.of(nodeOf("batch-0"), nodeOf("batch-1"))).allMatch(withBatchRoom::contains);
    await("Fulfilled").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> condition("batch-buffer", BufferConsumption.FULFILLED).map(c -> c.get("status")).orElse("").equals("True"));
    assertThat(replicas("batch-buffer")).isZero();
    admin.pods().inNamespace(ns).withName("batch-0").delete();
    admin.pods().inNamespace(ns).withName("batch-1").delete();
    await("batch pods gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> admin.pods().inNamespace(ns).withLabel("app", "batch").list().getItems().isEmpty());
    await("not refilled").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
        .until(() -> Integer.valueOf(0).equals(replicas("batch-buffer")));
    assertThat(condition("batch-buffer", BufferConsumption.FULFILLED).orElseThrow()).containsEntry("reason", BufferConsumption.REASON_FILLED);
    assertThat(replicas("web-buffer")).isEqualTo(3);
  }

  private void buffer(String name, Map<String, Object> spec, Map<String, String> annotations) {
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    b.setKind(CapacityBufferVersion.KIND);
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).withAnnotations(new HashMap<>(annotations)).build());
    b.setAdditionalProperty("spec", spec);
    admin.resource(b).create();
  }

  private Map<String, Object> status(String name) {
    GenericKubernetesResource b = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND)
        .inNamespace(ns).withName(name).get();
    @SuppressWarnings("unchecked")
    Map<String, Object> s = b == null ? null : (Map<String, Object>) b.getAdditionalProperties().get("status");
    return s == null ? Map.of() : s;
  }

  private Integer replicas(String name) {
    Object r = status(name).get("replicas");
    return r instanceof Number n ? n.intValue() : null;
  }

  @SuppressWarnings("unchecked")
  private Optional<Map<String, Object>> condition(String name, String type) {
    if (!(status(name).get("conditions") instanceof List<?> list)) {
      return Optional.empty();
    }
    return ((List<Map<String, Object>>) list).stream().filter(c -> type.equals(c.get("type"))).findFirst();
  }

  private List<Pod> pods(String app) {
    return admin.pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private String nodeOf(String pod) {
    Pod p = admin.pods().inNamespace(ns).withName(pod).get();
    return p == null ? null : p.getSpec().getNodeName();
  }

  private List<Node> nodes(String group) {
    return admin.nodes().withLabel(GROUP_LABEL, group).list().getItems().stream()
        .filter(n -> n.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private List<Node> readyNodes(String group) {
    return nodes(group).stream().filter(Nodes::isReady).toList();
  }

  private static Set<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).collect(Collectors.toSet());
  }
}
