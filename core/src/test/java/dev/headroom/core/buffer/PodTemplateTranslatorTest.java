package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.ACTIVE;
import static dev.headroom.core.buffer.Fixtures.container;
import static dev.headroom.core.buffer.Fixtures.notReady;
import static dev.headroom.core.buffer.Fixtures.ready;
import static dev.headroom.core.buffer.Fixtures.spec;
import static dev.headroom.core.buffer.Fixtures.template;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.4: the pod-template translator with the defaulting resolver and fake-client generations. */
class PodTemplateTranslatorTest {

  static final String MT = "capacitybuffer--pod-template";
  static final String NRD = "Buffer not ready for provisioning: couldn't get number of replicas for buffer: replicas, percentage and limits are not defined";
  static final String NRL = "Buffer not ready for provisioning: couldn't get number of replicas for buffer: resources in configured limits not found in the pod template";
  static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

  static List<PodTemplate> templates() {
    return List.of(
        template("some-pod-template", 1, new PodSpec()),
        template("another-pod-template", 5, new PodSpec()),
        template("podTemp4mem100cpu", 0, spec(container("c", "memory=4Gi,cpu=100m", null))),
        template("podTemp8mem200cpu", 0, spec(container("c", "memory=8Gi,cpu=200m", null))),
        template("podTemp4gpu", 0, spec(container("c", "nvidia.com/gpu=4,memory=16Gi,cpu=1000m", null))));
  }

  static CapacityBuffer b(String ref, Integer replicas, String limits) {
    CapacityBuffer b = Fixtures.templateBuffer("", ref, replicas, limits);
    b.getSpec().setProvisioningStrategy(ACTIVE);
    return b;
  }

  static ExpectedStatus readyWith(int replicas) {
    return ExpectedStatus.of(MT, replicas, 0L, ACTIVE, ready());
  }

  static Stream<Arguments> vectors() {
    return Stream.of(
        Arguments.of("9.4 Test 1 buffer with pod template ref", List.of(b("some-pod-template", 3, null)), List.of(readyWith(3)), 0),
        Arguments.of("9.4 Test 2 buffers with pod template ref",
            List.of(b("some-pod-template", 3, null), b("another-pod-template", 5, null)), List.of(readyWith(3), readyWith(5)), 0),
        Arguments.of("9.4 Test 2 buffers one with not existing podTemplateRef",
            List.of(b("some-pod-template", 3, null), b("randomRef", 5, null)),
            List.of(readyWith(3), ExpectedStatus.of(null, null, null, ACTIVE,
                notReady("Buffer not ready for provisioning: capacity buffer client can't get pod template: podtemplates \"randomRef\" not found"))),
            1),
        Arguments.of("9.4 Test 2 buffers, one with no replicas",
            List.of(b("some-pod-template", 3, null), b("another-pod-template", null, null)),
            List.of(readyWith(3), ExpectedStatus.of(MT, null, 0L, ACTIVE, notReady(NRD))), 0),
        Arguments.of("9.4 Test 2 buffers, one with nil podTemplateRef",
            List.of(b("some-pod-template", 3, null), b(null, 5, null)), List.of(readyWith(3), ExpectedStatus.EMPTY), 0),
        Arguments.of("9.4 Limits exist and no replicas, buffer filtered",
            List.of(b("podTemp4mem100cpu", null, "memory=5Gi,cpu=200m")), List.of(readyWith(1)), 0),
        Arguments.of("9.4 Limits exist and with higher replicas",
            List.of(b("podTemp4mem100cpu", 3, "memory=9Gi,cpu=200m")), List.of(readyWith(2)), 0),
        Arguments.of("9.4 Limits exist and with lower replicas",
            List.of(b("podTemp4mem100cpu", 1, "memory=9Gi,cpu=200m")), List.of(readyWith(1)), 0),
        Arguments.of("9.4 Limits with gpu resource",
            List.of(b("podTemp4gpu", 5, "memory=100Gi,cpu=5000m,nvidia.com/gpu=10")), List.of(readyWith(2)), 0),
        Arguments.of("9.4 Limits less than pod template requested resources",
            List.of(b("podTemp4gpu", 5, "memory=100Gi,cpu=5000m,nvidia.com/gpu=2"), b("podTemp8mem200cpu", 3, "cpu=100m")),
            List.of(readyWith(0), readyWith(0)), 0),
        Arguments.of("9.4 Defined limits doesn't have any of the resources in pod template",
            List.of(b("podTemp4mem100cpu", 3, "nvidia.com/gpu=100m")), List.of(ExpectedStatus.of(MT, null, 0L, ACTIVE, notReady(NRL))), 0),
        Arguments.of("9.4 Replicas set to MaxInt32",
            List.of(b("some-pod-template", Integer.MAX_VALUE, null)), List.of(readyWith(Integer.MAX_VALUE)), 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void podTemplateTranslator(String name, List<CapacityBuffer> buffers, List<ExpectedStatus> expected, int errors) {
    InMemoryClusterView view = new InMemoryClusterView();
    templates().forEach(view::add);
    BufferTranslator translator = new BufferTranslator(view, new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT), new DefaultingPodResolver(), NOW);
    List<String> errs = new ArrayList<>();
    for (CapacityBuffer b : buffers) {
      translator.translatePodTemplate(b).ifPresent(errs::add);
    }
    assertThat(errs).hasSize(errors);
    for (int i = 0; i < buffers.size(); i++) {
      expected.get(i).assertMatches(buffers.get(i));
    }
  }
}
