package dev.headroom.api.validation;

import static dev.headroom.api.CapacityBufferVersion.V1ALPHA1;
import static dev.headroom.api.CapacityBufferVersion.V1BETA1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.crd.CrdPostProcessor;
import dev.headroom.api.validation.CapacityBufferValidator.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Admission of raw CapacityBuffer trees: every consequence of spec §1.4, each schema constraint of §1.2/§1.3 (pass
 * and fail) and the per-version CEL messages, with the messages kube-apiserver prints.
 */
class CapacityBufferValidatorTest {
  static final String RULE1 = "spec: Invalid value: If X is set, replicas or limits must also be set";
  static final String RULE2_BETA =
      "spec: Invalid value: You must define either PodTemplateRef or ScalableRef, but not both";
  static final String RULE2_ALPHA = "spec: Invalid value: You must define both PodTemplateRef and ScalableRef";
  static final String INT32 =
      "<nil>: Invalid value: \"\": Checked value must be of type integer with format int32 in spec.replicas";
  static final String BLOCKED = "<nil>: Invalid value: null: some validation rules were not checked because the "
      + "object was invalid; correct the existing errors to complete validation";
  static final String QUANTITY = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?"
      + "(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

  /** The scale subresource's check of spec.replicas (validator.go ValidateScaleSpec), after the schema's errors. */
  static String scaleAccessor(String value, String goType) {
    return ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: " + value + " is of the type " + goType
        + ", expected int64";
  }

  static final String SCALE_NEGATIVE = ".spec.replicas: Invalid value: -1: should be a non-negative integer";

  /** Rows valid for both versions: the same YAML gives the same messages. */
  static Stream<Arguments> bothVersions() {
    List<Arguments> rows = new ArrayList<>();
    // §1.4 admission consequences
    rows.add(row("neither ref is admitted (no at-least-one rule)", "{replicas: 1}"));
    rows.add(row("empty spec is admitted", "{}"));
    rows.add(row("scalableRef without replicas, percentage or limits is admitted",
        "{scalableRef: {apiGroup: apps, kind: Deployment, name: web}}"));
    rows.add(row("podTemplateRef with percentage only is rejected by rule 1",
        "{podTemplateRef: {name: t}, percentage: 50}", RULE1));
    rows.add(row("podTemplateRef alone is rejected by rule 1", "{podTemplateRef: {name: t}}", RULE1));
    rows.add(row("podTemplateRef with percentage and replicas is admitted",
        "{podTemplateRef: {name: t}, percentage: 50, replicas: 2}"));
    rows.add(row("podTemplateRef with limits is admitted", "{podTemplateRef: {name: t}, limits: {cpu: '4'}}"));
    rows.add(row("podTemplateRef with replicas 0 is admitted (has() tests presence)",
        "{podTemplateRef: {name: t}, replicas: 0}"));
    rows.add(row("podTemplateRef with empty limits is admitted", "{podTemplateRef: {name: t}, limits: {}}"));
    rows.add(row("podTemplateRef with replicas null is rejected (nulls are dropped first)",
        "{podTemplateRef: {name: t}, replicas: null}", RULE1));
    // spec presence and type
    rows.add(rowRoot("missing spec", "{metadata: {name: b}}", "spec: Required value", BLOCKED));
    rows.add(rowRoot("null spec", "{spec: null}", "spec: Required value", BLOCKED));
    rows.add(rowRoot("spec of the wrong type", "{spec: x}",
        "spec: Invalid value: \"string\": spec in body must be of type object: \"string\"",
        ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected "
            + "map[string]interface{}", BLOCKED));
    rows.add(rowRoot("metadata of the wrong type", "{metadata: 5, spec: {}}",
        "metadata: Invalid value: \"integer\": metadata in body must be of type object: \"integer\"", BLOCKED));
    rows.add(rowRoot("unknown fields are pruned, not rejected",
        "{foo: 1, spec: {bar: 2, podTemplateRef: {name: t, baz: 3}, replicas: 1}}"));
    // replicas and percentage
    rows.add(row("replicas 0 passes", "{replicas: 0}"));
    rows.add(row("replicas -1 fails minimum and the scale check", "{replicas: -1}",
        "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0", SCALE_NEGATIVE));
    rows.add(row("percentage -1 fails minimum", "{percentage: -1}",
        "spec.percentage: Invalid value: -1: spec.percentage in body should be greater than or equal to 0"));
    rows.add(row("percentage has no maximum", "{scalableRef: {kind: Deployment, name: w}, percentage: 1000}"));
    rows.add(row("replicas beyond int32 fails the range check (not blocking)", "{replicas: 3000000000}",
        "<nil>: Invalid value: \"\": Checked value must be of type integer with format int32 in spec.replicas",
        ".spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647"));
    rows.add(row("replicas as a string is a type error", "{replicas: '3'}",
        "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"",
        scaleAccessor("3", "string"), BLOCKED));
    rows.add(row("replicas 2.0 is an integer to the schema, a float64 to the scale check", "{replicas: 2.0}",
        scaleAccessor("2", "float64")));
    rows.add(row("replicas 1.5 is a format error", "{replicas: 1.5}",
        "spec.replicas: Invalid value: \"float64\": spec.replicas in body must be of type int32: \"float64\"", INT32,
        scaleAccessor("1.5", "float64"), BLOCKED));
    rows.add(row("replicas -1.5 fails type, range and minimum", "{replicas: -1.5}",
        "spec.replicas: Invalid value: \"float64\": spec.replicas in body must be of type int32: \"float64\"", INT32,
        "spec.replicas: Invalid value: -1.5: spec.replicas in body should be greater than or equal to 0",
        scaleAccessor("-1.5", "float64"), BLOCKED));
    rows.add(row("replicas as a boolean", "{replicas: true}",
        "spec.replicas: Invalid value: \"\": spec.replicas in body must be of type int32: \"\"",
        scaleAccessor("true", "bool"), BLOCKED));
    rows.add(row("replicas as a list", "{replicas: [1]}",
        "spec.replicas: Invalid value: \"array\": spec.replicas in body must be of type integer: \"array\"",
        scaleAccessor("[1]", "[]interface {}"), BLOCKED));
    // refs
    rows.add(row("podTemplateRef without name", "{podTemplateRef: {}, replicas: 1}",
        "spec.podTemplateRef.name: Required value", BLOCKED));
    rows.add(row("podTemplateRef with an empty name (minLength does not block CEL)",
        "{podTemplateRef: {name: ''}}",
        "spec.podTemplateRef.name: Invalid value: \"\": spec.podTemplateRef.name in body should be at least 1 chars long",
        RULE1));
    rows.add(row("podTemplateRef name of the wrong type", "{podTemplateRef: {name: 5}, replicas: 1}",
        "spec.podTemplateRef.name: Invalid value: \"integer\": spec.podTemplateRef.name in body must be of type "
            + "string: \"integer\"", BLOCKED));
    rows.add(row("scalableRef without kind and name", "{scalableRef: {apiGroup: apps}}",
        "spec.scalableRef.kind: Required value", "spec.scalableRef.name: Required value", BLOCKED));
    rows.add(row("scalableRef with empty kind and name", "{scalableRef: {kind: '', name: ''}}",
        "spec.scalableRef.kind: Invalid value: \"\": spec.scalableRef.kind in body should be at least 1 chars long",
        "spec.scalableRef.name: Invalid value: \"\": spec.scalableRef.name in body should be at least 1 chars long"));
    rows.add(row("scalableRef with the empty (core) apiGroup", "{scalableRef: {apiGroup: '', kind: ReplicationController, name: r}}"));
    // provisioningStrategy
    rows.add(row("any provisioningStrategy string is admitted", "{provisioningStrategy: foo}"));
    rows.add(row("empty provisioningStrategy is admitted", "{provisioningStrategy: ''}"));
    rows.add(row("provisioningStrategy of the wrong type", "{provisioningStrategy: 5}",
        "spec.provisioningStrategy: Invalid value: \"integer\": spec.provisioningStrategy in body must be of type "
            + "string: \"integer\"", BLOCKED));
    // limits: int-or-string quantities
    rows.add(row("limits quantities in every notation",
        "{limits: {cpu: 500m, memory: 1Gi, a: '1e3', b: '.5', c: '+1', d: '1.5E-3', e: 4, f: -2, g: '-1'}}"));
    rows.add(row("limits value that is not a quantity", "{limits: {memory: lots}}",
        "spec.limits.memory: Invalid value: \"lots\": spec.limits.memory in body should match '" + QUANTITY + "'"));
    rows.add(row("limits value with a trailing newline", "{limits: {cpu: \"1\\n\"}}",
        "spec.limits.cpu: Invalid value: \"1\\n\": spec.limits.cpu in body should match '" + QUANTITY + "'"));
    rows.add(row("limits key with dots and a slash", "{limits: {nvidia.com/gpu: x}}",
        "spec.limits.nvidia.com/gpu: Invalid value: \"x\": spec.limits.nvidia.com/gpu in body should match '"
            + QUANTITY + "'"));
    rows.add(row("limits value that is a fraction", "{limits: {cpu: 1.5}}",
        "spec.limits.cpu: Invalid value: \"number\": spec.limits.cpu in body must be of type integer,string: \"number\"",
        "<nil>: Invalid value: \"\": \"spec.limits.cpu\" must validate at least one schema (anyOf)",
        "spec.limits.cpu: Invalid value: \"number\": spec.limits.cpu in body must be of type integer: \"number\"",
        "<nil>: Invalid value: \"\": Checked value must be of type integer (default format) in spec.limits.cpu",
        BLOCKED));
    rows.add(row("limits value that is a boolean", "{limits: {cpu: true}}",
        "spec.limits.cpu: Invalid value: \"boolean\": spec.limits.cpu in body must be of type integer,string: "
            + "\"boolean\"",
        "<nil>: Invalid value: \"\": \"spec.limits.cpu\" must validate at least one schema (anyOf)",
        "spec.limits.cpu: Invalid value: \"boolean\": spec.limits.cpu in body must be of type integer: \"boolean\"",
        BLOCKED));
    rows.add(row("limits of the wrong type", "{limits: [1]}",
        "spec.limits: Invalid value: \"array\": spec.limits in body must be of type object: \"array\"", BLOCKED));
    rows.add(row("errors of several fields, CEL still evaluated",
        "{podTemplateRef: {name: ''}, replicas: -1, limits: {cpu: x}}",
        "spec.limits.cpu: Invalid value: \"x\": spec.limits.cpu in body should match '" + QUANTITY + "'",
        "spec.podTemplateRef.name: Invalid value: \"\": spec.podTemplateRef.name in body should be at least 1 chars long",
        "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0", SCALE_NEGATIVE));
    List<Arguments> out = new ArrayList<>();
    for (Arguments a : rows) {
      for (CapacityBufferVersion v : CapacityBufferVersion.values()) {
        Object[] args = a.get();
        out.add(arguments(Named.of(((Named<?>) args[0]).getName() + " [" + v.version() + "]", v), args[1], args[2]));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bothVersions")
  void admissionIsTheSameInBothVersions(CapacityBufferVersion version, String yaml, List<String> expected) {
    assertThat(messages(version, yaml, Mode.CREATE)).containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> perVersion() {
    String both = "{spec: {podTemplateRef: {name: t}, scalableRef: {kind: Deployment, name: w}, replicas: 1}}";
    String bothNoCount = "{spec: {podTemplateRef: {name: t}, scalableRef: {kind: Deployment, name: w}}}";
    return Stream.of(
        arguments(V1BETA1, both, List.of(RULE2_BETA)),
        arguments(V1ALPHA1, both, List.of(RULE2_ALPHA)),
        arguments(V1BETA1, bothNoCount, List.of(RULE1, RULE2_BETA)),
        arguments(V1ALPHA1, bothNoCount, List.of(RULE1, RULE2_ALPHA)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("perVersion")
  void ruleTwoHasAMessagePerVersion(CapacityBufferVersion version, String yaml, List<String> expected) {
    assertThat(messages(version, yaml, Mode.CREATE)).containsExactlyElementsOf(expected);
  }

  static final String CONDITION = "{type: ReadyForProvisioning, status: 'True', lastTransitionTime: "
      + "'2024-03-14T10:00:00Z', reason: AttributesSetSuccessfully, message: ready";

  static Stream<Arguments> status() {
    String longMessage = "m".repeat(32769);
    String longType = "T".repeat(317);
    return Stream.of(
        arguments("valid status", "{podTemplateRef: {name: p}, replicas: 0, podTemplateGeneration: 0, "
            + "provisioningStrategy: buffer.x-k8s.io/active-capacity, conditions: [" + CONDITION + "}]}", List.of()),
        arguments("negative status.replicas has no schema minimum, but the scale check rejects it", "{replicas: -1}",
            List.of(".status.replicas: Invalid value: -1: should be a non-negative integer")),
        arguments("status.replicas 2.0 is a float64 to the scale check", "{replicas: 2.0}",
            List.of(".status.replicas: Invalid value: 0: .status.replicas accessor error: 2 is of the type float64, "
                + "expected int64")),
        arguments("status.podTemplateRef with an empty name", "{podTemplateRef: {name: ''}}",
            List.of("status.podTemplateRef.name: Invalid value: \"\": podTemplateRef.name in body should be "
                + "at least 1 chars long")),
        arguments("podTemplateGeneration of the wrong type", "{podTemplateGeneration: x}",
            List.of("status.podTemplateGeneration: Invalid value: \"string\": podTemplateGeneration in body "
                + "must be of type integer: \"string\"", BLOCKED)),
        arguments("condition missing every required field", "{conditions: [{}]}",
            List.of("status.conditions[0].lastTransitionTime: Required value",
                "status.conditions[0].message: Required value", "status.conditions[0].reason: Required value",
                "status.conditions[0].status: Required value", "status.conditions[0].type: Required value",
                BLOCKED)),
        arguments("condition with an empty message is valid", "{conditions: [" + CONDITION.replace("message: ready",
            "message: ''") + "}]}", List.of()),
        arguments("condition status outside the enum", "{conditions: [" + CONDITION.replace("'True'", "'Yes'") + "}]}",
            List.of("status.conditions[0].status: Unsupported value: \"Yes\": supported values: \"True\", \"False\", "
                + "\"Unknown\"", BLOCKED)),
        arguments("condition reason with a space", "{conditions: [" + CONDITION.replace("AttributesSetSuccessfully",
            "'bad reason'") + "}]}",
            List.of("status.conditions[0].reason: Invalid value: \"bad reason\": conditions[0].reason in body "
                + "should match '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'")),
        arguments("condition reason empty", "{conditions: [" + CONDITION.replace("AttributesSetSuccessfully", "''")
            + "}]}", List.of("status.conditions[0].reason: Invalid value: \"\": conditions[0].reason in body "
                + "should be at least 1 chars long")),
        arguments("condition message too long", "{conditions: [" + CONDITION.replace("message: ready",
            "message: " + longMessage) + "}]}",
            List.of("status.conditions[0].message: Too long: may not be more than 32768 bytes", BLOCKED)),
        arguments("condition type too long", "{conditions: [" + CONDITION.replace("ReadyForProvisioning", longType)
            + "}]}", List.of("status.conditions[0].type: Too long: may not be more than 316 bytes", BLOCKED)),
        arguments("condition type with a domain prefix", "{conditions: [" + CONDITION.replace("ReadyForProvisioning",
            "headroom.dev/CapacityAvailable") + "}]}", List.of()),
        arguments("condition lastTransitionTime not a date-time", "{conditions: [" + CONDITION.replace(
            "'2024-03-14T10:00:00Z'", "yesterday") + "}]}",
            List.of("status.conditions[0].lastTransitionTime: Invalid value: \"yesterday\": "
                + "conditions[0].lastTransitionTime in body must be of type date-time: \"yesterday\"", BLOCKED)),
        arguments("condition observedGeneration negative", "{conditions: [" + CONDITION + ", observedGeneration: -1}]}",
            List.of("status.conditions[0].observedGeneration: Invalid value: -1: "
                + "conditions[0].observedGeneration in body should be greater than or equal to 0")),
        arguments("two conditions of the same type", "{conditions: [" + CONDITION + "}, " + CONDITION + "}]}",
            List.of("status.conditions[1]: Duplicate value: {\"type\":\"ReadyForProvisioning\"}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("status")
  void statusIsValidatedForWholeObjects(String name, String statusYaml, List<String> expected) {
    for (CapacityBufferVersion v : CapacityBufferVersion.values()) {
      String yaml = "{spec: {replicas: 1}, status: " + statusYaml + "}";
      assertThat(messages(v, yaml, Mode.WHOLE_OBJECT)).as(v.version()).containsExactlyElementsOf(expected);
      assertThat(messages(v, yaml, Mode.CREATE)).as("a create discards the status").isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bothVersions")
  void everyErrorLocatesItsNode(CapacityBufferVersion version, String yaml, List<String> expected) {
    for (FieldError e : CapacityBufferValidator.validate(CrdPostProcessor.parse(yaml), version)) {
      if (!e.field().equals("<nil>")) {
        // the scale subresource's checks name the CRD's path as written, with its leading dot (.spec.replicas)
        assertThat(String.join(".", e.location())).isEqualTo(e.field().replaceFirst("^\\.", ""));
      }
    }
  }

  static Arguments row(String name, String specYaml, String... expected) {
    return arguments(Named.of(name, name), "{spec: " + specYaml + "}", List.of(expected));
  }

  static Arguments rowRoot(String name, String yaml, String... expected) {
    return arguments(Named.of(name, name), yaml, List.of(expected));
  }

  static List<String> messages(CapacityBufferVersion version, String yaml, Mode mode) {
    return CapacityBufferValidator.validate(CrdPostProcessor.parse(yaml), version, mode).stream()
        .map(FieldError::message).toList();
  }
}
