package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.provider.clusterapi.ClusterApiNames;
import dev.headroom.controller.provider.clusterapi.ClusterApiProvider;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.ScaleUpResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The full loop with the Cluster API provider: scale-up through {@code /scale}, removal of a chosen node through its Machine. */
@EnableKubernetesMockClient(crud = true)
class ClusterApiAutoscalingTest {
  static final String CAPI_NS = "capi";
  static final String GROUP = ClusterApiNames.DEFAULT_GROUP;

  KubernetesMockServer server;
  KubernetesClient client;

  private ResourceDefinitionContext ctx(String kind) {
    return new ResourceDefinitionContext.Builder().withGroup(GROUP).withVersion(ClusterApiNames.V1BETA1).withKind(kind)
        .withPlural(kind.toLowerCase() + "s").withNamespaced(true).build();
  }

  private ClusterFixture fixture() {
    return fixture(ClusterFixture.options().build());
  }

  private ClusterFixture fixture(dev.headroom.core.autoscaler.AutoscalerOptions options) {
    return new ClusterFixture(client, options,
        f -> new ClusterApiProvider(client, GROUP, ClusterApiNames.V1BETA1, ClusterApiProvider.Discovery.ALL, () -> client.nodes().list().getItems(), f.clock));
  }

  private void machineDeployment(int replicas) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("clusterName", "c1");
    spec.put("replicas", replicas);
    client.genericKubernetesResources(ctx("MachineDeployment")).inNamespace(CAPI_NS).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(GROUP + "/v1beta1").withKind("MachineDeployment")
        .withNewMetadata().withName("md-0").withNamespace(CAPI_NS)
          .addToAnnotations(GROUP + "/" + ClusterApiNames.MIN_SIZE, "0")
          .addToAnnotations(GROUP + "/" + ClusterApiNames.MAX_SIZE, "5")
          .addToAnnotations(ClusterApiNames.CAPACITY_CPU, "4")
          .addToAnnotations(ClusterApiNames.CAPACITY_MEMORY, "16Gi")
          .addToAnnotations(ClusterApiNames.CAPACITY_LABELS, "pool=md-0")
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build()).create();
    client.genericKubernetesResources(ctx("MachineSet")).inNamespace(CAPI_NS).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(GROUP + "/v1beta1").withKind("MachineSet")
        .withNewMetadata().withName("md-0-abc").withNamespace(CAPI_NS)
          .addNewOwnerReference().withApiVersion(GROUP + "/v1beta1").withKind("MachineDeployment").withName("md-0").withUid("md-uid").withController(true).endOwnerReference()
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("clusterName", "c1", "replicas", replicas)))
        .build()).create();
  }

  /** What CAPI and the infrastructure provider would do for one new machine: a Machine and its Node. */
  private void machineWithNode(String name) {
    String providerId = "test:///zone-a/" + name;
    client.genericKubernetesResources(ctx("Machine")).inNamespace(CAPI_NS).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(GROUP + "/v1beta1").withKind("Machine")
        .withNewMetadata().withName(name).withNamespace(CAPI_NS)
          .addNewOwnerReference().withApiVersion(GROUP + "/v1beta1").withKind("MachineSet").withName("md-0-abc").withUid("ms-uid").withController(true).endOwnerReference()
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("clusterName", "c1", "providerID", providerId)))
        .build()).create();
    client.nodes().resource(new NodeBuilder()
        .withNewMetadata().withName(name).addToLabels("pool", "md-0").addToLabels("kubernetes.io/hostname", name).endMetadata()
        .withNewSpec().withProviderID(providerId).endSpec()
        .withNewStatus()
          .addToCapacity("cpu", new Quantity("4")).addToCapacity("memory", new Quantity("16Gi")).addToCapacity("pods", new Quantity("110"))
          .addToAllocatable("cpu", new Quantity("4")).addToAllocatable("memory", new Quantity("16Gi")).addToAllocatable("pods", new Quantity("110"))
          .addNewCondition().withType("Ready").withStatus("True").endCondition()
        .endStatus().build()).create();
  }

  private GenericKubernetesResource get(String kind, String name) {
    return client.genericKubernetesResources(ctx(kind)).inNamespace(CAPI_NS).withName(name).get();
  }

  @SuppressWarnings("unchecked")
  private int replicas() {
    return ((Number) ((Map<String, Object>) get("MachineDeployment", "md-0").getAdditionalProperties().get("spec")).get("replicas")).intValue();
  }

  @Test
  void machineDeploymentScalesUpFromZeroThroughTheScaleSubresource() {
    machineDeployment(0);
    ClusterFixture f = fixture();
    f.deployment("web", 2, "1500m", "1Gi");
    f.scheduler.schedule();
    IterationResult r = f.step();
    assertThat(r.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpSuccessful);
    assertThat(r.scaleUp()).singleElement().satisfies(d -> {
      assertThat(d.nodeGroup()).isEqualTo("MachineDeployment/capi/md-0");
      assertThat(d.newTargetSize()).isEqualTo(1);
    });
    assertThat(replicas()).isEqualTo(1);
    // No second request while the machine is being created.
    assertThat(f.step().scaleUp()).isEmpty();
    assertThat(replicas()).isEqualTo(1);
    machineWithNode("md-0-m1");
    f.step();
    assertThat(f.unbound("web")).isEmpty();
  }

  @Test
  void aChosenEmptyNodeIsRemovedThroughItsMachine() {
    machineDeployment(2);
    machineWithNode("md-0-m1");
    machineWithNode("md-0-m2");
    ClusterFixture f = fixture();
    f.deployment("web", 1, "3", "1Gi");
    f.scheduler.schedule(); // one well-used node, one empty node
    java.util.Set<String> busy = new java.util.TreeSet<>();
    f.deploymentPods("web").forEach(p -> busy.add(p.getSpec().getNodeName()));
    assertThat(busy).hasSize(1);
    String kept = busy.iterator().next();
    String chosen = kept.equals("md-0-m1") ? "md-0-m2" : "md-0-m1";
    for (int i = 0; i < 10 && replicas() == 2; i++) {
      f.step();
    }
    assertThat(replicas()).isEqualTo(1);
    assertThat(get("Machine", chosen).getMetadata().getAnnotations()).containsKey(GROUP + "/" + ClusterApiNames.DELETE_MACHINE);
    assertThat(get("Machine", kept).getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(client.nodes().withName(chosen).get().getSpec().getTaints())
        .anySatisfy(t -> assertThat(t.getKey()).isEqualTo("ToBeDeletedByClusterAutoscaler"));
  }

  @Test
  void aStandbyBufferIsRefusedWithTheProvidersReasonAndStartsNoMachine() {
    machineDeployment(0);
    ClusterFixture f = fixture(ClusterFixture.options().set(dev.headroom.core.autoscaler.AutoscalerOptions.STANDBY_CAPACITY, true).build());
    assertThat(f.provider.standbyUnsupported()).contains(ClusterApiProvider.STANDBY_UNSUPPORTED);
    assertThat(ClusterApiProvider.STANDBY_UNSUPPORTED).contains("MachineDeployment", "suspended");
    f.buffer("standby", 2, "1", "1Gi", dev.headroom.core.buffer.BufferConditions.STRATEGY_STANDBY_CAPACITY);
    IterationResult r = f.step();
    assertThat(r.scaleUp()).isEmpty();
    assertThat(r.standbyBuffers()).singleElement().satisfies(b -> assertThat(b.kept()).isZero());
    assertThat(f.condition("standby", dev.headroom.core.buffer.BufferConditions.PROVISIONING)).get().satisfies(c -> {
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo(dev.headroom.core.buffer.BufferConditions.REASON_STANDBY_NOT_SUPPORTED);
      assertThat(c.getMessage()).isEqualTo(ClusterApiProvider.STANDBY_UNSUPPORTED);
    });
    assertThat(replicas()).isZero();
  }
}
