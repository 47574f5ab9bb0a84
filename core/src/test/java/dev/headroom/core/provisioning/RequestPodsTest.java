package dev.headroom.core.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.PodSet;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The pods of a request. Vectors: kubernetes/autoscaler a16f0ae8,
 * {@code cluster-autoscaler/provisioningrequest/pods/pods_test.go} ({@code TestPodsForProvisioningRequest}) and
 * {@code provreqwrapper/wrapper.go} ({@code errMissingPodTemplates}).
 */
class RequestPodsTest {
  private static final String CLS = "TestProvisioningClass";
  private static final Instant T = Instant.parse("2026-03-02T08:00:00Z");

  private static PodTemplate template(String name, String container, String image) {
    return new PodTemplateBuilder().withNewMetadata().withName(name).withNamespace("test-namespace").endMetadata()
        .withNewTemplate().withNewSpec().addNewContainer().withName(container).withImage(image).endContainer().endSpec()
        .endTemplate().build();
  }

  private static ProvisioningRequest request(PodSet... sets) {
    ProvisioningRequest pr = Requests.request("test-pr-name", CLS, "x", 1, T);
    pr.getMetadata().setNamespace("test-namespace");
    pr.getSpec().setPodSets(List.of(sets));
    return pr;
  }

  private static Optional<PodTemplate> lookup(List<PodTemplate> ts, String ns, String name) {
    return ts.stream().filter(t -> t.getMetadata().getName().equals(name) && "test-namespace".equals(ns)).findFirst();
  }

  @Test
  void multiplePodSetsGiveNamedAnnotatedOwnedPodsInOrder() {
    List<PodTemplate> ts = List.of(template("template-1", "test-container", "test-image"),
        template("template-2", "test-container-2", "test-image-2"));
    RequestPods.Built b = RequestPods.of(request(new PodSet("template-1", 2), new PodSet("template-2", 3)),
        (ns, n) -> lookup(ts, ns, n));
    assertThat(b.ok()).isTrue();
    assertThat(b.pods()).extracting(p -> p.getMetadata().getName())
        .containsExactly("test-pr-name-0-0", "test-pr-name-0-1", "test-pr-name-1-0", "test-pr-name-1-1", "test-pr-name-1-2");
    Pod first = b.pods().get(0);
    assertThat(first.getMetadata().getGenerateName()).isEqualTo("test-pr-name-");
    assertThat(first.getMetadata().getNamespace()).isEqualTo("test-namespace");
    assertThat(first.getMetadata().getUid()).isEqualTo("test-namespace/test-pr-name-0-0");
    assertThat(first.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "autoscaling.x-k8s.io/consume-provisioning-request", "test-pr-name",
        "autoscaling.x-k8s.io/provisioning-class-name", CLS));
    assertThat(first.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getName()).isEqualTo("test-pr-name");
      assertThat(o.getController()).isTrue();
      assertThat(o.getKind()).isEqualTo("ProvisioningRequest");
      assertThat(o.getApiVersion()).isEqualTo("autoscaling.x-k8s.io/v1");
    });
    assertThat(first.getMetadata().getCreationTimestamp()).isEqualTo("2026-03-02T08:00:00Z");
    assertThat(first.getSpec().getContainers()).singleElement().satisfies(c -> assertThat(c.getImage()).isEqualTo("test-image"));
    assertThat(b.pods().get(4).getSpec().getContainers().get(0).getName()).isEqualTo("test-container-2");
    // Headroom: pending and Unschedulable, so that the pending-demand rule takes them up
    assertThat(first.getStatus().getConditions()).singleElement()
        .satisfies(c -> assertThat(c.getReason()).isEqualTo("Unschedulable"));
    assertThat(RequestPods.count(request(new PodSet("template-1", 2), new PodSet("template-2", 3)))).isEqualTo(5);
  }

  @Test
  void requestsDefaultToLimits() {
    PodTemplate t = template("template-1", "c", "i");
    t.getTemplate().getSpec().getContainers().get(0).setResources(new io.fabric8.kubernetes.api.model.ResourceRequirements(
        null, Map.of("cpu", new Quantity("2"), "memory", new Quantity("1Gi")), null));
    RequestPods.Built b = RequestPods.of(request(new PodSet("template-1", 1)), (ns, n) -> Optional.of(t));
    assertThat(b.pods().get(0).getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", new Quantity("2")).containsEntry("memory", new Quantity("1Gi"));
  }

  @Test
  void missingTemplatesAreTheClusterAutoscalersError() {
    List<PodTemplate> ts = List.of(template("template-1", "c", "i"));
    RequestPods.Built b = RequestPods.of(request(new PodSet("template-1", 1), new PodSet("gone", 1), new PodSet("also-gone", 2)),
        (ns, n) -> lookup(ts, ns, n));
    assertThat(b.ok()).isFalse();
    assertThat(b.pods()).isEmpty();
    assertThat(b.error()).isEqualTo("missing pod templates, 3 pod templates were referenced, 2 templates were missing: gone,also-gone");
  }

  @Test
  void consumedRequestReadsBothAnnotationsInThePodsNamespace() {
    Pod p = new PodBuilder().withNewMetadata().withName("w").withNamespace("team")
        .withAnnotations(Map.of(ProvisioningRequest.CONSUME_ANNOTATION, "job")).endMetadata().build();
    Pod old = new PodBuilder().withNewMetadata().withName("w")
        .withAnnotations(Map.of(ProvisioningRequest.DEPRECATED_CONSUME_ANNOTATION, "job")).endMetadata().build();
    assertThat(RequestPods.consumedRequest(p)).contains("team/job");
    assertThat(RequestPods.consumedRequest(old)).contains("default/job");
    assertThat(RequestPods.consumedRequest(new PodBuilder().withNewMetadata().withName("x").endMetadata().build())).isEmpty();
  }
}
