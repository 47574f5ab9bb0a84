package dev.headroom.core.buffer;

import dev.headroom.api.Models;
import static dev.headroom.core.buffer.Fixtures.container;
import static dev.headroom.core.buffer.Fixtures.q;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.13: the defaulting resolver (empty and null compare equal). */
class DefaultingPodResolverTest {

  static PodSpec spec(List<Container> containers, List<Container> init, String podRequests, String podLimits) {
    PodSpec s = new PodSpec();
    s.setContainers(containers);
    s.setInitContainers(init);
    if (podRequests != null || podLimits != null) {
      s.setResources(new ResourceRequirements(null, q(podLimits), q(podRequests)));
    }
    return s;
  }

  static Map<String, Quantity> m(String s) {
    Map<String, Quantity> out = q(s);
    return out == null ? Map.of() : out;
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of("9.13 no resources", spec(List.of(container("c1", null, null)), null, null, null), "", null, null, null),
        Arguments.of("9.13 container limits imply requests", spec(List.of(container("c1", null, "cpu=1")), null, null, null), "cpu=1", null, null, null),
        Arguments.of("9.13 init container limits imply requests",
            spec(List.of(container("c1", null, null)), List.of(container("ic1", null, "memory=1Gi")), null, null), "", "memory=1Gi", null, null),
        Arguments.of("9.13 requests already set", spec(List.of(container("c1", "cpu=500m", "cpu=1")), null, null, null), "cpu=500m", null, null, null),
        Arguments.of("9.13 mixed resources", spec(List.of(container("c1", "cpu=500m", "cpu=1,memory=1Gi")), null, null, null), "cpu=500m,memory=1Gi", null, null, null),
        Arguments.of("9.13 pod level limits imply requests", spec(List.of(container("c1", null, null)), null, null, "cpu=1"), "", null, "cpu=1", "cpu=1"),
        Arguments.of("9.13 pod level limits is empty", spec(List.of(container("c1", null, null)), null, "cpu=100m", null), "", null, "cpu=100m", null),
        Arguments.of("9.13 default pod requests for overcommittable resources",
            spec(List.of(container("c1", "hugepages-2Mi=1Gi", null)), null, null, "cpu=1"), "hugepages-2Mi=1Gi", null, "cpu=1,hugepages-2Mi=1Gi", "cpu=1"),
        Arguments.of("3.5 pod limits on unsupported resources are not copied",
            spec(List.of(container("c1", null, null)), null, null, "cpu=1,nvidia.com/gpu=1"), "", null, "cpu=1", "cpu=1,nvidia.com/gpu=1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void defaultingResolver(String name, PodSpec input, String c1Requests, String ic1Requests, String podRequests, String podLimits) {
    PodTemplateSpec t = new PodTemplateSpec();
    t.setSpec(input);
    var before = Models.tree(input);
    Pod pod = new DefaultingPodResolver().resolve("", t);
    assertThat(Models.tree(t.getSpec())).as("template untouched").isEqualTo(before);
    assertThat(pod.getMetadata().getNamespace()).isEqualTo("");
    assertThat(m(c1Requests)).isEqualTo(orEmpty(pod.getSpec().getContainers().get(0).getResources().getRequests()));
    if (ic1Requests != null) {
      assertThat(orEmpty(pod.getSpec().getInitContainers().get(0).getResources().getRequests())).isEqualTo(m(ic1Requests));
    }
    ResourceRequirements podLevel = pod.getSpec().getResources();
    assertThat(podLevel == null ? Map.of() : orEmpty(podLevel.getRequests())).isEqualTo(m(podRequests));
    assertThat(podLevel == null ? Map.of() : orEmpty(podLevel.getLimits())).isEqualTo(m(podLimits));
  }

  private static Map<String, Quantity> orEmpty(Map<String, Quantity> in) {
    return in == null ? Map.of() : in;
  }

  @Test
  void buildCopiesLabelsAnnotationsFinalizersAndSetsTheNamespace() {
    PodTemplateSpec t = new PodTemplateSpec();
    t.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("ignored").withLabels(Map.of("a", "b"))
        .withAnnotations(Map.of("c", "d")).withFinalizers("f").build());
    Pod pod = DefaultingPodResolver.build("ns", t);
    assertThat(pod.getMetadata().getName()).isNull();
    assertThat(pod.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(pod.getMetadata().getLabels()).isEqualTo(Map.of("a", "b"));
    assertThat(pod.getMetadata().getAnnotations()).isEqualTo(Map.of("c", "d"));
    assertThat(pod.getMetadata().getFinalizers()).containsExactly("f");
    assertThat(pod.getSpec()).isNotNull();
    assertThat(DefaultingPodResolver.build("ns", null).getSpec()).isNotNull();
  }
}
