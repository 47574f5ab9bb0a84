package dev.headroom.api.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The build step that completes fabric8's generated CRD. */
class CrdPostProcessorTest {
  /** A minimal CRD shaped like the generator's output: columns sorted by path, no list-map, no pattern. */
  static final String RAW = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      spec:
        names: {kind: CapacityBuffer}
        versions:
        - name: v1beta1
          additionalPrinterColumns:
          - {jsonPath: .metadata.creationTimestamp, name: Age, priority: 0, type: date}
          - {jsonPath: .spec.provisioningStrategy, name: Strategy, priority: 0, type: string}
          - {jsonPath: '.status.conditions[*].reason', name: ConditionsReason, priority: 0, type: string}
          - {jsonPath: '.status.conditions[*].status', name: ConditionsStatus, priority: 0, type: string}
          - {jsonPath: '.status.conditions[*].type', name: ConditionsType, priority: 0, type: string}
          - {jsonPath: .status.podTemplateRef.name, name: PodTemplate, priority: 0, type: string}
          - {jsonPath: .status.replicas, name: Replicas, priority: 1, type: integer}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    replicas: {type: integer, minimum: 0.0}
                    limits: {type: object, additionalProperties: {anyOf: [{type: integer}, {type: string}]}}
                status:
                  type: object
                  properties:
                    conditions: {type: array, items: {type: object, properties: {type: {type: string}}}}
        - name: v1alpha1
          additionalPrinterColumns: []
      """;

  private static ObjectNode raw() {
    return CrdPostProcessor.parse(RAW);
  }

  private static ObjectNode withAllColumns() {
    ObjectNode crd = raw();
    ArrayNode versions = (ArrayNode) crd.at("/spec/versions");
    ObjectNode alpha = (ObjectNode) versions.get(1);
    alpha.set("additionalPrinterColumns", versions.get(0).get("additionalPrinterColumns").deepCopy());
    alpha.set("schema", versions.get(0).get("schema").deepCopy());
    return crd;
  }

  @Test
  void versionsAreSortedAndListKindAdded() {
    ObjectNode out = CrdPostProcessor.process(withAllColumns());
    assertThat(out.at("/spec/versions/0/name").asString()).isEqualTo("v1alpha1");
    assertThat(out.at("/spec/versions/1/name").asString()).isEqualTo("v1beta1");
    assertThat(out.at("/spec/names/listKind").asString()).isEqualTo("CapacityBufferList");
  }

  @Test
  void printerColumnsFollowTheDocumentedOrderWithoutDefaultPriority() {
    ObjectNode out = CrdPostProcessor.process(withAllColumns());
    List<String> names = new ArrayList<>();
    for (JsonNode c : out.at("/spec/versions/1/additionalPrinterColumns")) {
      names.add(c.path("name").asString());
    }
    assertThat(names).containsExactlyElementsOf(CrdPostProcessor.PRINTER_COLUMN_ORDER);
    assertThat(out.at("/spec/versions/1/additionalPrinterColumns/0").has("priority")).isFalse();
    assertThat(out.at("/spec/versions/1/additionalPrinterColumns/2/priority").asInt()).isEqualTo(1);
  }

  @Test
  void anUnexpectedColumnSetFailsTheBuild() {
    ObjectNode crd = withAllColumns();
    ((ArrayNode) crd.at("/spec/versions/0/additionalPrinterColumns")).remove(0);
    assertThatThrownBy(() -> CrdPostProcessor.process(crd)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("printer columns");
  }

  @Test
  void schemaGainsWhatTheAnnotationsCannotExpress() {
    ObjectNode out = CrdPostProcessor.process(withAllColumns());
    JsonNode root = out.at("/spec/versions/1/schema/openAPIV3Schema");
    assertThat(root.at("/properties/apiVersion/type").asString()).isEqualTo("string");
    assertThat(root.at("/properties/kind/type").asString()).isEqualTo("string");
    assertThat(root.at("/properties/metadata/type").asString()).isEqualTo("object");
    assertThat(root.at("/properties/spec/properties/limits/additionalProperties/pattern").asString())
        .isEqualTo(CrdPostProcessor.QUANTITY_PATTERN);
    assertThat(root.at("/properties/spec/properties/replicas/minimum").isIntegralNumber()).isTrue();
    JsonNode conditions = root.at("/properties/status/properties/conditions");
    assertThat(conditions.path("x-kubernetes-list-type").asString()).isEqualTo("map");
    assertThat(conditions.path("x-kubernetes-list-map-keys").toString()).isEqualTo("[\"type\"]");
    assertThat(conditions.at("/items/properties/reason/pattern").asString())
        .isEqualTo(CrdPostProcessor.CONDITION_REASON_PATTERN);
    assertThat(conditions.at("/items/properties/status/enum").toString()).isEqualTo("[\"True\",\"False\",\"Unknown\"]");
    assertThat(conditions.at("/items/required")).hasSize(5);
  }

  @Test
  void renderingIsStableSortedAndCarriesTheRefreshCommand() {
    String once = CrdPostProcessor.render(CrdPostProcessor.process(withAllColumns()));
    String twice = CrdPostProcessor.render(CrdPostProcessor.parse(once));
    assertThat(twice).isEqualTo(once);
    assertThat(once).startsWith("# Generated by the build").contains(CrdPostProcessor.REFRESH_COMMAND);
    assertThat(once.indexOf("apiVersion:")).isLessThan(once.indexOf("kind:"));
  }

  @Test
  void mainWritesTheOutputAndTheCommittedCopyOnlyWhenAsked(@TempDir Path dir) throws IOException {
    Path in = dir.resolve("raw.yml");
    Files.writeString(in, CrdPostProcessor.render(withAllColumns()));
    Path out = dir.resolve("out/crd.yaml");
    Path committed = dir.resolve("deploy/crd.yaml");
    CrdPostProcessor.main(new String[] {in.toString(), out.toString(), "false", committed.toString()});
    assertThat(out).exists();
    assertThat(committed).doesNotExist();
    CrdPostProcessor.main(new String[] {in.toString(), out.toString(), "true", committed.toString()});
    assertThat(committed).hasSameTextualContentAs(out);
  }
}
