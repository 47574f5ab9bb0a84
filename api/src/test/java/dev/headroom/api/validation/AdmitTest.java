package dev.headroom.api.validation;

import static dev.headroom.api.CapacityBufferVersion.V1ALPHA1;
import static dev.headroom.api.CapacityBufferVersion.V1BETA1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.api.crd.CrdPostProcessor;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.api.validation.CapacityBufferValidator.Mode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** {@link CapacityBufferValidator#admit}: what the server would store, as the typed v1beta1 model. */
class AdmitTest {
  @Test
  void v1alpha1IsConvertedDefaultedPrunedAndItsStatusDropped() throws Exception {
    ObjectNode tree = CrdPostProcessor.parse("""
        apiVersion: autoscaling.x-k8s.io/v1alpha1
        kind: CapacityBuffer
        metadata: {name: web, namespace: prod}
        unknown: 1
        spec:
          scalableRef: {apiGroup: apps, kind: Deployment, name: web, extra: x}
          percentage: 20.0
          replicas: 2
          limits: {cpu: 4, memory: 16Gi}
        status: {replicas: 7}
        """);
    CapacityBuffer b = CapacityBufferValidator.admit(tree, V1ALPHA1, Mode.CREATE);
    assertThat(b.getApiVersion()).isEqualTo(CapacityBuffer.API_VERSION);
    assertThat(b.getKind()).isEqualTo("CapacityBuffer");
    assertThat(b.getMetadata().getName()).isEqualTo("web");
    assertThat(b.getMetadata().getNamespace()).isEqualTo("prod");
    CapacityBufferSpec spec = b.getSpec();
    assertThat(spec.getProvisioningStrategy()).isEqualTo(CapacityBufferSpec.DEFAULT_PROVISIONING_STRATEGY);
    assertThat(spec.getScalableRef()).isEqualTo(new ScalableRef("apps", "Deployment", "web"));
    assertThat(spec.getPercentage()).isEqualTo(20);
    assertThat(spec.getReplicas()).isEqualTo(2);
    assertThat(spec.getLimits()).containsEntry("cpu", new Quantity("4")).containsEntry("memory", new Quantity("16Gi"));
    assertThat(b.getStatus()).isNull();
    assertThat(tree.has("unknown")).as("the argument is not changed").isTrue();
  }

  @Test
  void wholeObjectKeepsTheStatusAndExplicitStrategy() throws Exception {
    ObjectNode tree = CrdPostProcessor.parse("""
        spec: {podTemplateRef: {name: t}, replicas: 0, provisioningStrategy: ''}
        status:
          replicas: 0
          podTemplateGeneration: 0
          conditions:
          - {type: Ready, status: 'True', lastTransitionTime: '2024-03-14T10:00:00Z', reason: Ok, message: ''}
        """);
    CapacityBuffer b = CapacityBufferValidator.admit(tree, V1BETA1, Mode.WHOLE_OBJECT);
    assertThat(b.getSpec().getProvisioningStrategy()).isEmpty();
    assertThat(b.getSpec().getReplicas()).isZero();
    assertThat(b.getStatus().getReplicas()).isZero();
    assertThat(b.getStatus().getPodTemplateGeneration()).isZero();
    assertThat(b.getStatus().getConditions()).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).isEmpty());
  }

  @Test
  void rejectedObjectsThrowWithTheErrors() {
    ObjectNode tree = CrdPostProcessor.parse("{spec: {podTemplateRef: {name: t}}}");
    assertThatThrownBy(() -> CapacityBufferValidator.admit(tree, V1BETA1, Mode.CREATE))
        .isInstanceOfSatisfying(InvalidCapacityBufferException.class, e -> assertThat(e.errors())
            .extracting(FieldError::message).containsExactly(CapacityBufferValidatorTest.RULE1));
  }

  @Test
  void valuesBeyondInt32AreRejectedByTheRangeCheck() {
    ObjectNode tree = CrdPostProcessor.parse("{spec: {replicas: 3000000000}}");
    String scale = ".spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647";
    assertThat(CapacityBufferValidator.validate(tree, V1BETA1)).extracting(FieldError::message)
        .containsExactly(CapacityBufferValidatorTest.INT32, scale);
    assertThatThrownBy(() -> CapacityBufferValidator.admit(tree, V1BETA1, Mode.CREATE))
        .isInstanceOfSatisfying(InvalidCapacityBufferException.class, e -> assertThat(e.errors())
            .extracting(FieldError::message).containsExactly(CapacityBufferValidatorTest.INT32, scale));
  }

  @Test
  void plainJavaTreesAreAccepted() throws Exception {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("podTemplateRef", Map.of("name", "t"));
    spec.put("replicas", 3);
    spec.put("limits", Map.of("cpu", 2));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("conditions", List.of(Map.of("type", "Ready", "status", "True", "reason", "Ok", "message", "",
        "lastTransitionTime", Date.from(Instant.parse("2024-03-14T10:00:00Z")))));
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("spec", spec);
    tree.put("status", status);
    assertThat(CapacityBufferValidator.validate(tree, V1BETA1, Mode.WHOLE_OBJECT)).isEmpty();
    CapacityBuffer b = CapacityBufferValidator.admit(tree, V1BETA1, Mode.WHOLE_OBJECT);
    assertThat(b.getSpec().getReplicas()).isEqualTo(3);
    assertThat(b.getSpec().getLimits()).containsEntry("cpu", new Quantity("2"));
    assertThat(b.getStatus().getConditions().get(0).getLastTransitionTime()).isEqualTo("2024-03-14T10:00:00Z");
    assertThat(spec).containsEntry("replicas", 3).doesNotContainKey("provisioningStrategy");
  }

  @Test
  void versionIsReadFromApiVersion() {
    assertThat(CapacityBufferValidator.versionOf(Map.of("apiVersion", "autoscaling.x-k8s.io/v1alpha1")))
        .contains(V1ALPHA1);
    assertThat(CapacityBufferValidator.versionOf(CrdPostProcessor.parse("{apiVersion: autoscaling.x-k8s.io/v1beta1}")))
        .contains(V1BETA1);
    assertThat(CapacityBufferValidator.versionOf(Map.of("apiVersion", "autoscaling.x-k8s.io/v2"))).isEmpty();
    assertThat(CapacityBufferValidator.versionOf(Map.of())).isEmpty();
  }

  @Test
  void statusMessageJoinsDistinctErrorsLikeTheApiServer() {
    List<FieldError> one = CapacityBufferValidator.validate(CrdPostProcessor.parse("{spec: {podTemplateRef: {name: t}}}"),
        V1BETA1);
    assertThat(CapacityBufferValidator.statusMessage("b", one)).isEqualTo(
        "CapacityBuffer.autoscaling.x-k8s.io \"b\" is invalid: " + CapacityBufferValidatorTest.RULE1);
    List<FieldError> two = CapacityBufferValidator.validate(CrdPostProcessor.parse("{}"), V1BETA1);
    assertThat(CapacityBufferValidator.statusMessage("b", two)).isEqualTo(
        "CapacityBuffer.autoscaling.x-k8s.io \"b\" is invalid: [spec: Required value, "
            + CapacityBufferValidatorTest.BLOCKED + "]");
    List<FieldError> duplicated = List.of(two.get(0), two.get(0));
    assertThat(CapacityBufferValidator.statusMessage("b", duplicated)).endsWith("is invalid: spec: Required value");
  }
}
