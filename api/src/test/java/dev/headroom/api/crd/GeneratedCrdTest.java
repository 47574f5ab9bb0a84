package dev.headroom.api.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The CRD the build generates: committed copy up to date, and equivalent to upstream's (spec §1.6). */
class GeneratedCrdTest {
  private static final String UPSTREAM = "/upstream/capacitybuffers.autoscaling.x-k8s.io.normalised.yaml";

  static String generated() throws IOException {
    return resource(CrdPostProcessor.CLASSPATH_LOCATION);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = GeneratedCrdTest.class.getResourceAsStream(name)) {
      assertThat(in).as("classpath resource %s", name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Path committed() {
    return Path.of(System.getProperty("basedir", "."), "..", "deploy", "crds", CrdPostProcessor.FILE_NAME).normalize();
  }

  @Test
  void committedCrdEqualsTheGeneratedOne() throws IOException {
    Path committed = committed();
    assertThat(committed).as("%s is missing; create it with: %s", committed, CrdPostProcessor.REFRESH_COMMAND)
        .exists();
    assertThat(Files.readString(committed, StandardCharsets.UTF_8))
        .as("%s is out of date with the model classes; refresh it with: %s", committed,
            CrdPostProcessor.REFRESH_COMMAND)
        .isEqualTo(generated());
  }

  /**
   * Equivalent to upstream's CRD except for one addition: the scale subresource of kubernetes/autoscaler PR #10320
   * ({@code specReplicasPath: .spec.replicas}, {@code statusReplicasPath: .status.replicas}, no
   * {@code labelSelectorPath}) on every version. Nothing else may differ.
   */
  @Test
  void generatedCrdIsEquivalentToUpstreamPlusTheScaleSubresource() throws IOException {
    JsonNode upstream = CrdPostProcessor.parse(resource(UPSTREAM));
    ObjectNode ours = CrdPostProcessor.parse(generated());
    assertThat(CrdEquivalence.firstDifference(upstream, withoutScaleSubresource(ours))).isEmpty();
  }

  @Test
  void theAllowedAdditionIsExactlyPr10320sShape() throws IOException {
    ObjectNode withSelector = CrdPostProcessor.parse(generated());
    ((ObjectNode) withSelector.at("/spec/versions/1/subresources/scale")).put("labelSelectorPath", ".status.selector");
    assertThatThrownBy(() -> withoutScaleSubresource(withSelector)).isInstanceOf(AssertionError.class)
        .hasMessageContaining("labelSelectorPath");
    ObjectNode otherPath = CrdPostProcessor.parse(generated());
    ((ObjectNode) otherPath.at("/spec/versions/0/subresources/scale")).put("specReplicasPath", ".spec.limits");
    assertThatThrownBy(() -> withoutScaleSubresource(otherPath)).isInstanceOf(AssertionError.class);
  }

  /** The one allowed addition, checked exactly, then removed so the rest can be compared with upstream. */
  static ObjectNode withoutScaleSubresource(ObjectNode crd) {
    ObjectNode copy = crd.deepCopy();
    for (JsonNode v : copy.path("spec").path("versions")) {
      JsonNode scale = v.path("subresources").path("scale");
      assertThat(scale.propertyNames()).as("version %s: subresources.scale", v.path("name").asString())
          .containsExactlyInAnyOrder("specReplicasPath", "statusReplicasPath");
      assertThat(scale.path("specReplicasPath").asString()).isEqualTo(".spec.replicas");
      assertThat(scale.path("statusReplicasPath").asString()).isEqualTo(".status.replicas");
      ((ObjectNode) v.path("subresources")).remove("scale");
    }
    return copy;
  }

  @Test
  void generatedCrdHasHeadroomsOwnDescriptions() throws IOException {
    String crd = generated();
    assertThat(crd).contains("description:").doesNotContain("maximum of the two").doesNotContain("minimum of 1");
  }

  @Test
  void noDeprecationWarningAndOnlyTheStatusAndScaleSubresources() throws IOException {
    JsonNode crd = CrdPostProcessor.parse(generated());
    for (JsonNode v : crd.path("spec").path("versions")) {
      assertThat(v.has("deprecationWarning")).isFalse();
      assertThat(v.path("subresources").propertyNames()).containsExactlyInAnyOrder("scale", "status");
    }
  }

  @Test
  void equivalenceReportsTheFirstDifferingPath() throws IOException {
    ObjectNode upstream = CrdPostProcessor.parse(resource(UPSTREAM));
    ObjectNode changed = upstream.deepCopy();
    ObjectNode spec = (ObjectNode) changed.at("/spec/versions/1/schema/openAPIV3Schema/properties/spec");
    ((ObjectNode) spec.at("/x-kubernetes-validations/1")).put("message", "other");
    ((ObjectNode) spec.at("/properties/replicas")).put("minimum", 1);
    assertThat(CrdEquivalence.firstDifference(upstream, changed)).contains(
        "spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.replicas.minimum: expected 0 but was 1");
  }

  @Test
  void equivalenceIgnoresDescriptionsRequiredOrderAndTheControllerGenAnnotation() throws IOException {
    ObjectNode upstream = CrdPostProcessor.parse(resource(UPSTREAM));
    ObjectNode changed = upstream.deepCopy();
    ((ObjectNode) changed.get("metadata")).putObject("annotations")
        .put(CrdEquivalence.CONTROLLER_GEN_ANNOTATION, "v0.16.1");
    ObjectNode root = (ObjectNode) changed.at("/spec/versions/0/schema/openAPIV3Schema");
    root.put("description", "anything");
    ArrayNode required = (ArrayNode) root.at("/properties/status/properties/conditions/items/required");
    JsonNode first = required.remove(0);
    required.add(first);
    assertThat(CrdEquivalence.firstDifference(upstream, changed)).isEmpty();
  }

  @Test
  void equivalenceDetectsListOrderMissingAndExtraKeys() throws IOException {
    ObjectNode upstream = CrdPostProcessor.parse(resource(UPSTREAM));
    ObjectNode swapped = upstream.deepCopy();
    ArrayNode columns = (ArrayNode) swapped.at("/spec/versions/0/additionalPrinterColumns");
    JsonNode strategy = columns.remove(0);
    columns.add(strategy);
    assertThat(CrdEquivalence.firstDifference(upstream, swapped).orElseThrow())
        .startsWith("spec.versions[0].additionalPrinterColumns[0].");
    ObjectNode extra = upstream.deepCopy();
    ((ObjectNode) extra.at("/spec/versions/0")).put("deprecationWarning", "old");
    assertThat(CrdEquivalence.firstDifference(upstream, extra))
        .contains("spec.versions[0].deprecationWarning: unexpected \"old\"");
    ObjectNode missing = upstream.deepCopy();
    ((ObjectNode) missing.at("/spec/versions/0")).remove("deprecated");
    assertThat(CrdEquivalence.firstDifference(upstream, missing))
        .contains("spec.versions[0].deprecated: missing, expected true");
  }
}
