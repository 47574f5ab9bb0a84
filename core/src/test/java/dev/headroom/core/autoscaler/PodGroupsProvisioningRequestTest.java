package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ProvisioningRequest source of {@link PodGroups}: membership by the consume annotation, in the pod's namespace. */
class PodGroupsProvisioningRequestTest {

  private static Pod consumer(String ns, String key, String request) {
    Pod p = Fixtures.pod("w", "1", "1Gi", null);
    p.getMetadata().setNamespace(ns);
    p.getMetadata().setAnnotations(Map.of(key, request));
    return p;
  }

  @Test
  void aDeclaredRequestGroupsItsConsumersByEitherAnnotation() {
    PodGroups.Group g = PodGroups.provisioningRequest("team", "job", 6);
    PodGroups groups = PodGroups.NONE.with(List.of(g));
    assertThat(groups.groupOf(consumer("team", ProvisioningRequest.CONSUME_ANNOTATION, "job"))).contains(g);
    assertThat(groups.groupOf(consumer("team", ProvisioningRequest.DEPRECATED_CONSUME_ANNOTATION, "job"))).contains(g);
    assertThat(groups.groupOf(consumer("other", ProvisioningRequest.CONSUME_ANNOTATION, "job"))).isEmpty();
    assertThat(groups.groupOf(consumer("team", ProvisioningRequest.CONSUME_ANNOTATION, "undeclared"))).isEmpty();
    assertThat(g.minMember()).isEqualTo(6);
    assertThat(g.key().source().text()).isEqualTo("provisioning request");
  }

  @Test
  void withKeepsTheDeclaredGroupsAndAddsTheRequests() {
    PodGroups.Group pg = new PodGroups.Group(new PodGroups.Key(PodGroups.Source.COSCHEDULING, "team", "pg"), 2);
    PodGroups base = new PodGroups(List.of(pg));
    PodGroups both = base.with(List.of(PodGroups.provisioningRequest("team", "job", 3)));
    assertThat(both.groups()).hasSize(2).contains(pg);
    assertThat(base.with(List.of())).isSameAs(base);
  }
}
