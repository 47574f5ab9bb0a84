package dev.headroom.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The wire form of the model (spec §1.7). */
class SerialisationTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static JsonNode json(Object o) {
    return SERIALIZATION.convertValue(o, JsonNode.class);
  }

  private static CapacityBuffer buffer() {
    CapacityBuffer b = new CapacityBuffer();
    b.setMetadata(new ObjectMetaBuilder().withName("b").withNamespace("ns").build());
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setPodTemplateRef(new LocalObjectRef("t"));
    spec.setReplicas(0);
    spec.setLimits(Map.of("cpu", new Quantity("500m")));
    b.setSpec(spec);
    return b;
  }

  @Test
  void nullIsOmittedAndZeroIsWritten() {
    CapacityBuffer b = buffer();
    CapacityBufferStatus status = new CapacityBufferStatus();
    status.setReplicas(0);
    status.setPodTemplateGeneration(0L);
    b.setStatus(status);
    JsonNode tree = json(b);
    assertThat(tree.path("apiVersion").asString()).isEqualTo("autoscaling.x-k8s.io/v1beta1");
    assertThat(tree.path("kind").asString()).isEqualTo("CapacityBuffer");
    assertThat(tree.path("spec").propertyNames()).containsExactly("podTemplateRef", "replicas", "limits");
    assertThat(tree.at("/spec/replicas").asInt(-1)).isZero();
    assertThat(tree.at("/spec/limits/cpu").asString()).isEqualTo("500m");
    assertThat(tree.path("status").propertyNames()).containsExactly("replicas", "podTemplateGeneration");
    assertThat(tree.at("/status/podTemplateGeneration").asLong(-1)).isZero();
  }

  @Test
  void conditionsOmitObservedGenerationZeroAndAlwaysWriteTheMessage() {
    CapacityBuffer b = buffer();
    CapacityBufferStatus status = new CapacityBufferStatus();
    Condition zero = new ConditionBuilder().withType("ReadyForProvisioning").withStatus("True")
        .withObservedGeneration(0L).withLastTransitionTime("2024-03-14T10:00:00Z")
        .withReason("AttributesSetSuccessfully").withMessage("").build();
    Condition nullMessage = new ConditionBuilder().withType("Provisioning").withStatus("False")
        .withObservedGeneration(3L).withLastTransitionTime("2024-03-14T10:00:00Z").withReason("BufferIsEmpty")
        .build();
    status.setConditions(List.of(zero, nullMessage));
    b.setStatus(status);
    JsonNode conditions = json(b).at("/status/conditions");
    assertThat(conditions.get(0).propertyNames())
        .containsExactly("type", "status", "lastTransitionTime", "reason", "message");
    assertThat(conditions.get(0).get("message").asString()).isEmpty();
    assertThat(conditions.get(1).get("observedGeneration").asLong()).isEqualTo(3);
    assertThat(conditions.get(1).get("message").asString()).isEmpty();
  }

  @Test
  void emptyConditionsAreOmitted() {
    CapacityBuffer b = buffer();
    b.setStatus(new CapacityBufferStatus());
    assertThat(json(b).path("status").isEmpty()).isTrue();
  }

  @Test
  void roundTripKeepsEveryField() {
    CapacityBuffer b = buffer();
    b.getSpec().setScalableRef(new ScalableRef("", "ReplicationController", "rc"));
    b.getSpec().setPercentage(10);
    b.getSpec().setProvisioningStrategy("buffer.x-k8s.io/active-capacity");
    CapacityBufferStatus status = new CapacityBufferStatus();
    status.setPodTemplateRef(new LocalObjectRef("capacitybuffer-b-pod-template"));
    status.setReplicas(4);
    status.setProvisioningStrategy("buffer.x-k8s.io/active-capacity");
    b.setStatus(status);
    CapacityBuffer back = SERIALIZATION.unmarshal(SERIALIZATION.asJson(b), CapacityBuffer.class);
    assertThat(back.getSpec()).isEqualTo(b.getSpec());
    assertThat(back.getStatus()).isEqualTo(b.getStatus());
    assertThat(back.getSpec().getScalableRef().getApiGroup()).isEmpty();
  }

  @Test
  void conversionBetweenVersionsCopiesEveryFieldAndChangesOnlyTheApiVersion() {
    CapacityBuffer b = buffer();
    b.getSpec().setScalableRef(new ScalableRef("apps", "Deployment", "web"));
    CapacityBufferStatus status = new CapacityBufferStatus();
    status.setReplicas(2);
    b.setStatus(status);
    dev.headroom.api.v1alpha1.CapacityBuffer alpha = CapacityBufferConversion.toV1alpha1(b);
    assertThat(alpha.getApiVersion()).isEqualTo("autoscaling.x-k8s.io/v1alpha1");
    assertThat(alpha.getSpec().getScalableRef().getKind()).isEqualTo("Deployment");
    assertThat(alpha.getSpec().getLimits()).containsEntry("cpu", new Quantity("500m"));
    CapacityBuffer back = CapacityBufferConversion.toV1beta1(alpha);
    assertThat(back.getApiVersion()).isEqualTo(CapacityBuffer.API_VERSION);
    assertThat(back.getMetadata()).isEqualTo(b.getMetadata());
    assertThat(back.getSpec()).isEqualTo(b.getSpec());
    assertThat(back.getStatus()).isEqualTo(b.getStatus());
    JsonNode alphaTree = json(alpha);
    JsonNode betaTree = json(b);
    assertThat(alphaTree.path("spec")).isEqualTo(betaTree.path("spec"));
  }

  @Test
  void versionsNameTheirApiVersion() {
    assertThat(CapacityBufferVersion.V1BETA1.apiVersion()).isEqualTo(CapacityBuffer.API_VERSION);
    assertThat(CapacityBufferVersion.V1ALPHA1.apiVersion())
        .isEqualTo(dev.headroom.api.v1alpha1.CapacityBuffer.API_VERSION);
    assertThat(CapacityBufferVersion.fromApiVersion("autoscaling.x-k8s.io/v1alpha1"))
        .contains(CapacityBufferVersion.V1ALPHA1);
    assertThat(CapacityBufferVersion.fromApiVersion("v1beta1")).isEmpty();
  }
}
