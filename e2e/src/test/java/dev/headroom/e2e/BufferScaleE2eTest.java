package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue #26 item 1: the scale subresource of CapacityBuffer (kubernetes/autoscaler PR #10320's shape). {@code kubectl
 * scale} re-sizes a buffer and Headroom's buffer controller and KWOK autoscaler follow it (status.replicas, nodes);
 * an {@code autoscaling/v2} HPA that targets a buffer can read and would write its scale, but without a
 * {@code labelSelectorPath} the HPA controller refuses to compute (ScalingActive False, InvalidSelector); with the
 * smallest addition (a string {@code status.selector} and {@code labelSelectorPath: .status.selector}, applied by
 * this test only, never in deploy/) it scales the buffer from the external metric.
 */
class BufferScaleE2eTest {
  static final String GROUP_LABEL = "headroom.dev/node-group";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private String group;
  private HeadroomProcess headroom;
  private ExternalMetricsServer metrics;
  private String unmanaged;

  @BeforeEach
  void setUp() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    ns = bed.namespace("scale");
    group = "e2e-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    Path groups = bed.nodeGroupFile(group, 10);
    headroom = HeadroomProcess.start(bed, "headroom-scale-" + group, List.of("--leader-elect=false", "--namespace=" + ns,
        "--cloud-provider=kwok", "--node-groups=" + groups, "--scan-interval=1s", "--scale-down-unneeded-time=5s",
        "--scale-down-delay-after-add=5s", "--node-delete-delay-after-taint=1s", "--max-node-provision-time=2m"));
  }

  @AfterEach
  void tearDown() {
    if (metrics != null) {
      metrics.close();
    }
    if (headroom != null) {
      headroom.close();
    }
    bed.deleteNamespace(ns);
    if (unmanaged != null) {
      bed.deleteNamespace(unmanaged);
    }
    bed.applyCrd(); // takes back the test's schema addition, if any
    admin.nodes().withLabel(GROUP_LABEL, group).delete();
  }

  @Test
  void kubectlScaleResizesTheBufferAndCapacityFollows() {
    podTemplate(ns, "chunk");
    buffer(ns, "scaled", 1);
    await("status.replicas 1").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> statusReplicas(ns, "scaled").equals(Optional.of(1)) && capacityAvailable("scaled"));

    long start = System.nanoTime();
    assertThat(bed.kubectl("-n", ns, "scale", "capacitybuffer/scaled", "--replicas=6"))
        .contains("capacitybuffer.autoscaling.x-k8s.io/scaled scaled");
    await("status.replicas follows kubectl scale to 6").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
        .until(() -> statusReplicas(ns, "scaled").equals(Optional.of(6)));
    Measurements.record("kubectl scale capacitybuffer to status.replicas (ms)", (System.nanoTime() - start) / 1_000_000);
    // 6 chunks of 1 CPU on 4-CPU nodes: two Ready nodes, and the buffer says its capacity is there.
    await("capacity for 6 chunks").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
        .until(() -> capacityAvailable("scaled") && nodes().size() == 2 && nodes().stream().allMatch(BufferScaleE2eTest::ready));
    Measurements.record("kubectl scale capacitybuffer 1 -> 6 to CapacityAvailable on 2 Ready nodes (ms)",
        (System.nanoTime() - start) / 1_000_000);

    JsonNode scale = JSON.readTree(bed.kubectl("-n", ns, "get", "capacitybuffer/scaled", "--subresource=scale", "-o", "json"));
    assertThat(scale.path("kind").asString()).isEqualTo("Scale");
    assertThat(scale.path("apiVersion").asString()).isEqualTo("autoscaling/v1");
    assertThat(scale.path("spec").path("replicas").asInt()).isEqualTo(6);
    assertThat(scale.path("status").path("replicas").asInt()).isEqualTo(6);
    assertThat(scale.path("status").has("selector")).as("PR #10320 has no labelSelectorPath").isFalse();

    bed.kubectl("-n", ns, "scale", "capacitybuffer/scaled", "--replicas=2");
    await("status.replicas follows kubectl scale to 2").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> statusReplicas(ns, "scaled").equals(Optional.of(2)) && capacityAvailable("scaled"));
    JsonNode down = JSON.readTree(bed.kubectl("-n", ns, "get", "capacitybuffer/scaled", "--subresource=scale", "-o", "json"));
    assertThat(down.path("spec").path("replicas").asInt()).isEqualTo(2);
    assertThat(down.path("status").path("replicas").asInt()).isEqualTo(2);
  }

  @Test
  void anHpaNeedsASelectorOnTheBuffersScaleAndThenScalesItFromAnExternalMetric() throws Exception {
    metrics = ExternalMetricsServer.start(bed, bed.out().resolve("buffer-scale"));
    metrics.set("queue_depth", 30_000);
    podTemplate(ns, "chunk");
    buffer(ns, "hpa-sized", 1);
    await("status.replicas 1").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> statusReplicas(ns, "hpa-sized").equals(Optional.of(1)));

    // 1. PR #10320's shape: the scale subresource has no selector; horizontal.go's validateAndParseSelector refuses.
    hpa(ns, "hpa-sized");
    await("HPA reports InvalidSelector").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> condition(ns, "hpa-sized", "ScalingActive").map(c -> c.getStatus().equals("False")
            && c.getReason().equals("InvalidSelector")).orElse(false));
    assertThat(condition(ns, "hpa-sized", "AbleToScale").orElseThrow().getReason()).isEqualTo("SucceededGetScale");
    assertThat(admin.v1().events().inNamespace(ns).list().getItems()).as("the controller's event")
        .anyMatch(e -> "SelectorRequired".equals(e.getReason()) && "selector is required".equals(e.getMessage()));
    assertThat(specReplicas(ns, "hpa-sized")).isEqualTo(1);
    assertThat(metrics.requests("queue_depth")).as("no metric read without a selector").isEmpty();

    // 2. The smallest addition: status.selector (a string) and labelSelectorPath. Applied here only; Headroom does not
    // write status.selector, so the buffer lives in a namespace Headroom does not watch and its status is written by
    // the test, as a controller that knew the field would write it.
    applyCrdWithSelector();
    unmanaged = bed.namespace("scale-sel");
    podTemplate(unmanaged, "chunk");
    buffer(unmanaged, "hpa-sized", 1);
    writeStatus(unmanaged, "hpa-sized", 1, "headroom.dev/buffer=hpa-sized");
    hpa(unmanaged, "hpa-sized");
    // 30 / (10 per replica) -> 3 replicas (Pods 4 / Percent 100 per 15 s allow 1 -> 3 at once).
    await("the HPA scales the buffer to 3").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> specReplicas(unmanaged, "hpa-sized") == 3);
    assertThat(condition(unmanaged, "hpa-sized", "ScalingActive").orElseThrow().getReason()).isEqualTo("ValidMetricFound");
    assertThat(metrics.requests("queue_depth")).isNotEmpty().allMatch(r -> r.namespace().equals(unmanaged));
  }

  private void applyCrdWithSelector() throws Exception {
    CustomResourceDefinition crd;
    try (InputStream in = Files.newInputStream(bed.root().resolve(TestBed.CRD))) {
      crd = admin.apiextensions().v1().customResourceDefinitions().load(in).item();
    }
    for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
      v.getSubresources().getScale().setLabelSelectorPath(".status.selector");
      JSONSchemaProps status = v.getSchema().getOpenAPIV3Schema().getProperties().get("status");
      status.getProperties().put("selector", new JSONSchemaPropsBuilder().withType("string")
          .withDescription("The label selector of the buffer's pods, for the scale subresource (test addition).").build());
    }
    admin.resource(crd).fieldManager("headroom-e2e").forceConflicts().serverSideApply();
    await("CRD serves status.selector").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
      CustomResourceDefinition c = admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).get();
      return ".status.selector".equals(c.getSpec().getVersions().get(1).getSubresources().getScale().getLabelSelectorPath())
          && c.getStatus().getConditions().stream().anyMatch(x -> x.getType().equals("Established") && x.getStatus().equals("True"));
    });
  }

  private void writeStatus(String namespace, String name, int replicas, String selector) {
    await("status with a selector written").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
      GenericKubernetesResource b = buffers(namespace).withName(name).get();
      b.setAdditionalProperty("status", Map.of("replicas", replicas, "selector", selector));
      buffers(namespace).resource(b).updateStatus();
      return selector.equals(((Map<?, ?>) buffers(namespace).withName(name).get().getAdditionalProperties().get("status")).get("selector"));
    });
  }

  private void hpa(String namespace, String buffer) {
    admin.resource("""
        apiVersion: autoscaling/v2
        kind: HorizontalPodAutoscaler
        metadata: {name: %s, namespace: %s}
        spec:
          scaleTargetRef: {apiVersion: %s/v1beta1, kind: %s, name: %s}
          minReplicas: 1
          maxReplicas: 8
          metrics:
          - type: External
            external:
              metric: {name: queue_depth}
              target: {type: AverageValue, averageValue: "10"}
        """.formatted(buffer, namespace, CapacityBufferVersion.GROUP, CapacityBufferVersion.KIND, buffer)).inNamespace(namespace).create();
  }

  private Optional<HorizontalPodAutoscalerCondition> condition(String namespace, String name, String type) {
    HorizontalPodAutoscaler h = admin.autoscaling().v2().horizontalPodAutoscalers().inNamespace(namespace).withName(name).get();
    if (h == null || h.getStatus() == null || h.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return h.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
  }

  private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
      io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
      io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> buffers(String namespace) {
    return admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND).inNamespace(namespace);
  }

  private void podTemplate(String namespace, String name) {
    PodTemplate t = new PodTemplateBuilder().withNewMetadata().withName(name).endMetadata().withNewTemplate().withNewSpec()
        .addNewContainer().withName("main").withImage("example.com/chunk:1").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .endSpec().endTemplate().build();
    bed.create(namespace, t);
  }

  private void buffer(String namespace, String name, int replicas) {
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    b.setKind(CapacityBufferVersion.KIND);
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    b.setAdditionalProperty("spec", Map.of("podTemplateRef", Map.of("name", "chunk"), "replicas", replicas));
    admin.resource(b).create();
  }

  private int specReplicas(String namespace, String name) {
    Object spec = buffers(namespace).withName(name).get().getAdditionalProperties().get("spec");
    return spec instanceof Map<?, ?> m && m.get("replicas") instanceof Number n ? n.intValue() : -1;
  }

  private Optional<Integer> statusReplicas(String namespace, String name) {
    GenericKubernetesResource b = buffers(namespace).withName(name).get();
    Object status = b == null ? null : b.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m && m.get("replicas") instanceof Number n ? Optional.of(n.intValue()) : Optional.empty();
  }

  @SuppressWarnings("unchecked")
  private boolean capacityAvailable(String name) {
    Object status = buffers(ns).withName(name).get().getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> list)) {
      return false;
    }
    return ((List<Map<String, Object>>) list).stream()
        .anyMatch(c -> "CapacityAvailable".equals(c.get("type")) && "True".equals(c.get("status")));
  }

  private List<Node> nodes() {
    return admin.nodes().withLabel(GROUP_LABEL, group).list().getItems().stream()
        .filter(n -> n.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private static boolean ready(Node n) {
    return n.getStatus() != null && n.getStatus().getConditions() != null
        && n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
  }
}
