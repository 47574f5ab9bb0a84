package dev.headroom.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnqueueRulesTest {

  private static CapacityBuffer buffer(String rv, long generation, String schedule) {
    CapacityBuffer b = new CapacityBuffer();
    b.setMetadata(new ObjectMetaBuilder().withName("b").withNamespace("ns").withResourceVersion(rv).withGeneration(generation)
        .withAnnotations(schedule == null ? null : Map.of("headroom.dev/active-schedule", schedule)).build());
    return b;
  }

  @Test
  void bufferUpdatesCountForResyncSpecChangeAndScheduleAnnotationButNotStatusWrites() {
    assertThat(EnqueueRules.bufferUpdate(buffer("5", 1, null), buffer("5", 1, null))).as("resync").isTrue();
    assertThat(EnqueueRules.bufferUpdate(buffer("5", 1, null), buffer("6", 2, null))).as("spec change").isTrue();
    assertThat(EnqueueRules.bufferUpdate(buffer("5", 1, null), buffer("6", 1, null))).as("status write").isFalse();
    assertThat(EnqueueRules.bufferUpdate(buffer("5", 1, null), buffer("6", 1, "Mon-Fri 09:00-18:00 UTC"))).as("H5").isTrue();
  }

  @Test
  void consumptionAnnotationChangesCount() {
    CapacityBuffer before = buffer("5", 1, null);
    CapacityBuffer after = buffer("6", 1, null);
    after.getMetadata().setAnnotations(Map.of("headroom.dev/consumer-selector", "app=web"));
    assertThat(EnqueueRules.bufferUpdate(before, after)).isTrue();
    CapacityBuffer strategy = buffer("7", 1, null);
    strategy.getMetadata().setAnnotations(Map.of("headroom.dev/consumer-selector", "app=web", "headroom.dev/refill-strategy", "none"));
    assertThat(EnqueueRules.bufferUpdate(after, strategy)).isTrue();
  }

  private static Pod pod(String app, String phase, String deleted) {
    return new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").addToLabels("app", app).withDeletionTimestamp(deleted)
        .endMetadata().withNewStatus().withPhase(phase).endStatus().build();
  }

  @Test
  void podUpdatesCountWhenLabelsChangeOrThePodStartsOrStopsConsuming() {
    assertThat(EnqueueRules.podConsumptionUpdate(pod("web", "Pending", null), pod("web", "Running", null))).as("bound, started").isFalse();
    assertThat(EnqueueRules.podConsumptionUpdate(pod("web", "Running", null), pod("web", "Succeeded", null))).as("terminated").isTrue();
    assertThat(EnqueueRules.podConsumptionUpdate(pod("web", "Running", null), pod("web", "Running", "2026-03-02T08:00:00Z"))).as("deleting").isTrue();
    assertThat(EnqueueRules.podConsumptionUpdate(pod("web", "Running", null), pod("db", "Running", null))).as("relabelled").isTrue();
  }

  private static ResourceQuota quota(String hard, String used) {
    return new ResourceQuotaBuilder().withNewMetadata().withName("q").endMetadata()
        .withNewStatus().withHard(Map.of("cpu", new Quantity(hard))).withUsed(Map.of("cpu", new Quantity(used))).endStatus().build();
  }

  @Test
  void quotaUpdatesCountOnlyWhenHardOrUsedChangeByValue() {
    assertThat(EnqueueRules.quotaUpdate(quota("1", "0"), quota("1000m", "0"))).isFalse();
    assertThat(EnqueueRules.quotaUpdate(quota("1", "0"), quota("2", "0"))).isTrue();
    assertThat(EnqueueRules.quotaUpdate(quota("1", "0"), quota("1", "500m"))).isTrue();
  }

  @Test
  void managedTemplatesAreRecognisedByTheirControllerOwner() {
    PodTemplate t = new PodTemplate();
    t.setMetadata(new ObjectMetaBuilder().withName("capacitybuffer-b-pod-template").withOwnerReferences(new OwnerReferenceBuilder()
        .withApiVersion("autoscaling.x-k8s.io/v1beta1").withKind("CapacityBuffer").withName("b").withUid("u").withController(true).build()).build());
    assertThat(EnqueueRules.ownedByBuffer(t)).isTrue();
    t.getMetadata().getOwnerReferences().get(0).setController(false);
    assertThat(EnqueueRules.ownedByBuffer(t)).isFalse();
  }

  @Test
  void customKindScaleChangesAreReadFromTheCrdPaths() {
    ScaleSource s = new ScaleSource(".spec.replicas", ".status.replicas", ".status.selector");
    GenericKubernetesResource a = new GenericKubernetesResource();
    a.setAdditionalProperty("status", Map.of("replicas", 3, "selector", "app=x"));
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setAdditionalProperty("status", Map.of("replicas", 4, "selector", "app=x"));
    assertThat(s.statusReplicas(a)).isEqualTo(3);
    assertThat(s.selector(a)).isEqualTo("app=x");
    assertThat(s.scaleChanged(a, b)).isTrue();
    assertThat(s.scaleChanged(a, a)).isFalse();
    assertThat(s.statusReplicas(new GenericKubernetesResource())).isZero();
    assertThat(s.selector(new GenericKubernetesResource())).isEmpty();
  }
}
