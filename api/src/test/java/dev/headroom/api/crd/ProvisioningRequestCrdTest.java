package dev.headroom.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.PodSet;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestSpec;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ProvisioningRequest CRD the build generates: committed copy up to date, and equivalent (spec §1.6) to the
 * Cluster Autoscaler's, stored verbatim under {@code upstream/} with its source commit.
 */
class ProvisioningRequestCrdTest {
  private static final String UPSTREAM = "/upstream/provisioningrequests.autoscaling.x-k8s.io.yaml";

  private static String resource(String name) throws IOException {
    try (InputStream in = ProvisioningRequestCrdTest.class.getResourceAsStream(name)) {
      assertThat(in).as("classpath resource %s", name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String generated() throws IOException {
    return resource(ProvisioningRequestCrdProcessor.CLASSPATH_LOCATION);
  }

  @Test
  void committedCrdEqualsTheGeneratedOne() throws IOException {
    Path committed = Path.of(System.getProperty("basedir", "."), "..", "deploy", "crds",
        ProvisioningRequestCrdProcessor.FILE_NAME).normalize();
    assertThat(committed).exists();
    assertThat(Files.readString(committed, StandardCharsets.UTF_8))
        .as("%s is out of date with the model classes; refresh it with: %s", committed,
            CrdPostProcessor.REFRESH_COMMAND)
        .isEqualTo(generated());
  }

  @Test
  void generatedCrdIsEquivalentToUpstream() throws IOException {
    JsonNode upstream = CrdPostProcessor.parse(resource(UPSTREAM));
    ObjectNode ours = CrdPostProcessor.parse(generated());
    assertThat(CrdEquivalence.firstDifference(upstream, ours)).isEmpty();
  }

  @Test
  void theUpstreamFixtureIsTheRealFileNotANormalisedCopy() throws IOException {
    String upstream = resource(UPSTREAM);
    assertThat(upstream).contains("a16f0ae8b5578f09604371c75e0cad29ed794e59")
        .contains("controller-gen.kubebuilder.io/version").contains("description:");
  }

  @Test
  void aChangedLimitIsADifference() throws IOException {
    ObjectNode ours = CrdPostProcessor.parse(generated());
    ((ObjectNode) ours.at("/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/podSets"))
        .put("maxItems", 33);
    assertThat(CrdEquivalence.firstDifference(CrdPostProcessor.parse(resource(UPSTREAM)), ours)).contains(
        "spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.podSets.maxItems: expected 32 but was 33");
  }

  @Test
  void theModelRoundTripsThroughFabric8sSerialization() {
    ProvisioningRequest pr = new ProvisioningRequest();
    pr.setMetadata(new ObjectMetaBuilder().withName("job").withNamespace("team").build());
    ProvisioningRequestSpec spec = new ProvisioningRequestSpec();
    spec.setProvisioningClassName(ProvisioningRequest.CLASS_CHECK_CAPACITY);
    spec.setPodSets(List.of(new PodSet("worker", 3)));
    spec.setParameters(Map.of("noRetry", "true"));
    pr.setSpec(spec);
    pr.setStatus(new dev.headroom.api.provisioningrequest.v1.ProvisioningRequestStatus());
    pr.getStatus().getConditions().add(new ConditionBuilder().withType("Accepted").withStatus("True")
        .withReason("Accepted").withMessage("ProvisioningRequest is accepted by ClusterAutoscaler")
        .withLastTransitionTime("2026-01-01T00:00:00Z").build());
    String yaml = Serialization.asYaml(pr);
    assertThat(yaml).contains("apiVersion: \"autoscaling.x-k8s.io/v1\"").contains("kind: \"ProvisioningRequest\"")
        .contains("podTemplateRef:").contains("count: 3").doesNotContain("observedGeneration");
    ProvisioningRequest back = Serialization.unmarshal(yaml, ProvisioningRequest.class);
    assertThat(back.getSpec()).isEqualTo(spec);
    assertThat(back.getStatus()).isEqualTo(pr.getStatus());
  }
}
