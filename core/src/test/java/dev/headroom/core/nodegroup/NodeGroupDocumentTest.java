package dev.headroom.core.nodegroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeGroupDocumentTest {

  static Map<String, Object> gpuDoc() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("apiVersion", "headroom.dev/v1alpha1");
    doc.put("kind", "NodeGroup");
    doc.put("metadata", Map.of("name", "gpu"));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("maxSize", 4);
    spec.put("price", 4.10);
    spec.put("provisioningDelay", "5m");
    spec.put("template", Map.of(
        "metadata", Map.of("labels", Map.of("headroom.dev/accelerator", "nvidia")),
        "spec", Map.of("taints", List.of(Map.of("key", "nvidia.com/gpu", "value", "present", "effect", "NoSchedule"))),
        "status", Map.of("capacity", Map.of("cpu", "16", "memory", "128Gi", "nvidia.com/gpu", 4),
            "allocatable", Map.of("cpu", "15800m", "memory", "124Gi", "nvidia.com/gpu", "4"))));
    spec.put("autoscalingOptions", Map.of("scaleDownUnneededTime", "5m"));
    doc.put("spec", spec);
    return doc;
  }

  @Test
  void parsesTheSpecExample() {
    NodeGroup g = NodeGroupDocument.parse(gpuDoc());
    assertThat(g.id()).isEqualTo("gpu");
    assertThat(g.minSize()).isZero();
    assertThat(g.targetSize()).isZero();
    assertThat(g.pricePerHour()).isEqualTo(4.10);
    assertThat(g.provisioningDelay()).isEqualTo(Duration.ofMinutes(5));
    assertThat(g.options().scaleDownUnneededTime()).isEqualTo(Duration.ofMinutes(5));
    assertThat(g.template().getMetadata().getLabels())
        .containsEntry("headroom.dev/node-group", "gpu").containsEntry("kubernetes.io/os", "linux").containsEntry("kubernetes.io/arch", "amd64");
    assertThat(g.template().getSpec().getTaints()).singleElement().satisfies(t -> assertThat(t.getEffect()).isEqualTo("NoSchedule"));
    assertThat(g.template().getStatus().getCapacity().get("pods").toString()).isEqualTo("110");
    assertThat(g.template().getStatus().getAllocatable().get("cpu").toString()).isEqualTo("15800m");
  }

  @SuppressWarnings("unchecked")
  @Test
  void rejectsUnknownFieldsWithTheirPath() {
    Map<String, Object> doc = gpuDoc();
    ((Map<String, Object>) doc.get("spec")).put("maxSixe", 3);
    assertThatThrownBy(() -> NodeGroupDocument.parse(doc))
        .isInstanceOfSatisfying(NodeGroupFormatException.class, e -> assertThat(e.path()).isEqualTo("spec.maxSixe"))
        .hasMessage("unknown field \"spec.maxSixe\"");
  }

  @SuppressWarnings("unchecked")
  @Test
  void validatesSizesAndAllocatable() {
    Map<String, Object> doc = gpuDoc();
    ((Map<String, Object>) doc.get("spec")).put("targetSize", 5);
    assertThatThrownBy(() -> NodeGroupDocument.parse(doc)).hasMessageContaining("spec.targetSize (5) must be between 0 and spec.maxSize (4)");
    Map<String, Object> doc2 = gpuDoc();
    ((Map<String, Object>) doc2.get("spec")).put("minSize", 5);
    assertThatThrownBy(() -> NodeGroupDocument.parse(doc2)).hasMessageContaining("must be >= spec.minSize");
  }

  @SuppressWarnings("unchecked")
  @Test
  void parsesStandbyAndChecksItsResumeDelayAgainstTheProvisioningDelay() {
    assertThat(NodeGroupDocument.parse(gpuDoc()).standby()).isNull();
    Map<String, Object> doc = gpuDoc();
    ((Map<String, Object>) doc.get("spec")).put("standby", new java.util.LinkedHashMap<>(Map.of("resumeDelay", "30s", "price", 0.5)));
    NodeGroup g = NodeGroupDocument.parse(doc);
    assertThat(g.standby()).isEqualTo(new NodeGroup.Standby(Duration.ofSeconds(30), 0.5));
    assertThat(g.withTargetSize(2).standby()).isEqualTo(g.standby());

    Map<String, Object> noPrice = gpuDoc();
    ((Map<String, Object>) noPrice.get("spec")).put("standby", new java.util.LinkedHashMap<>(Map.of("resumeDelay", "30s")));
    assertThat(NodeGroupDocument.parse(noPrice).standby().pricePerHour()).isCloseTo(0.41, org.assertj.core.data.Offset.offset(1e-9));

    Map<String, Object> slow = gpuDoc();
    ((Map<String, Object>) slow.get("spec")).put("standby", new java.util.LinkedHashMap<>(Map.of("resumeDelay", "6m")));
    assertThatThrownBy(() -> NodeGroupDocument.parse(slow))
        .isInstanceOfSatisfying(NodeGroupFormatException.class, e -> assertThat(e.path()).isEqualTo("spec.standby.resumeDelay"))
        .hasMessage("spec.standby.resumeDelay (6m0s) must not be longer than spec.provisioningDelay (5m0s): a suspended node "
            + "resumes faster than a new one starts");

    Map<String, Object> missing = gpuDoc();
    ((Map<String, Object>) missing.get("spec")).put("standby", new java.util.LinkedHashMap<>(Map.of("price", 1)));
    assertThatThrownBy(() -> NodeGroupDocument.parse(missing)).hasMessage("spec.standby.resumeDelay is required");

    Map<String, Object> unknown = gpuDoc();
    ((Map<String, Object>) unknown.get("spec")).put("standby", new java.util.LinkedHashMap<>(Map.of("resumeDelay", "1m", "size", 3)));
    assertThatThrownBy(() -> NodeGroupDocument.parse(unknown)).hasMessage("unknown field \"spec.standby.size\"");
  }

  @ParameterizedTest
  @CsvSource({"90s,90000", "2m30s,150000", "1.5h,5400000", "0,0", "300ms,300", "1h0m0s,3600000"})
  void goDurations(String text, long millis) {
    assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @Test
  void badDurations() {
    for (String bad : List.of("-1s", "5", "1w", "", "m")) {
      assertThatThrownBy(() -> GoDuration.parse(bad)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(GoDuration.format(Duration.ofMinutes(10))).isEqualTo("10m0s");
    assertThat(GoDuration.format(Duration.ofHours(3))).isEqualTo("3h0m0s");
  }

  @Test
  void backoffDoublesUpToTheMaximumAndResets() {
    Backoff b = new Backoff(Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(3));
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(b.fail("g", "timeout", t)).isEqualTo(t.plus(Duration.ofMinutes(5)));
    assertThat(b.isBackedOff("g", t.plusSeconds(299))).isTrue();
    // failure while backed off: same duration, moved
    assertThat(b.fail("g", "timeout", t.plusSeconds(60))).isEqualTo(t.plusSeconds(60).plus(Duration.ofMinutes(5)));
    Instant t2 = t.plus(Duration.ofMinutes(10));
    assertThat(b.fail("g", "timeout", t2)).isEqualTo(t2.plus(Duration.ofMinutes(10)));
    Instant t3 = t2.plus(Duration.ofMinutes(20));
    assertThat(b.fail("g", "timeout", t3)).isEqualTo(t3.plus(Duration.ofMinutes(20)));
    Instant t4 = t3.plus(Duration.ofMinutes(25));
    assertThat(b.fail("g", "timeout", t4)).isEqualTo(t4.plus(Duration.ofMinutes(30)));
    Instant t5 = t4.plus(Duration.ofMinutes(40));
    assertThat(b.fail("g", "timeout", t5)).isEqualTo(t5.plus(Duration.ofMinutes(30)));
    b.removeStale(t5.plus(Duration.ofHours(4)));
    assertThat(b.entry("g")).isEmpty();
  }
}
