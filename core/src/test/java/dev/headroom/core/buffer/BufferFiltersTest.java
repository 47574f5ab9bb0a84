package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.9: strategy, status, template-generation and combined-any filters. */
class BufferFiltersTest {

  static final String ACTIVE = Fixtures.ACTIVE;

  static CapacityBuffer withStrategy(String name, String strategy) {
    CapacityBuffer b = Fixtures.buffer(name);
    b.getSpec().setProvisioningStrategy(strategy);
    return b;
  }

  static Set<String> names(List<CapacityBuffer> buffers) {
    Set<String> out = new java.util.HashSet<>();
    buffers.forEach(b -> out.add(b.getMetadata().getName()));
    return out;
  }

  static Stream<Arguments> strategyRows() {
    return Stream.of(
        Arguments.of("9.9 Single buffer with accepted strategy", Arrays.asList(ACTIVE), Set.of(ACTIVE), Set.of("0"), Set.of()),
        Arguments.of("9.9 Nil strategy defaulting to empty", Arrays.asList((String) null), Set.of(""), Set.of("0"), Set.of()),
        Arguments.of("9.9 Single buffer with rejected strategy", Arrays.asList("someStrategy"), Set.of(ACTIVE), Set.of(), Set.of("0")),
        Arguments.of("9.9 Multiple buffers different strategies", Arrays.asList("someStrategy", ACTIVE, null), Set.of(ACTIVE, ""), Set.of("1", "2"), Set.of("0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategyRows")
  void strategyFilter(String name, List<String> strategies, Set<String> allowed, Set<String> kept, Set<String> dropped) {
    List<CapacityBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < strategies.size(); i++) {
      buffers.add(withStrategy(Integer.toString(i), strategies.get(i)));
    }
    BufferFilters.Split s = BufferFilters.byStrategy(buffers, allowed);
    assertThat(names(s.kept())).isEqualTo(kept);
    assertThat(names(s.dropped())).isEqualTo(dropped);
  }

  static CapacityBuffer withCondition(String name, boolean ready) {
    CapacityBuffer b = Fixtures.buffer(name);
    b.setStatus(new CapacityBufferStatus());
    b.getStatus().getConditions().add(ready ? Fixtures.ready() : Fixtures.notReady(""));
    return b;
  }

  static Stream<Arguments> statusRows() {
    return Stream.of(
        Arguments.of("9.9 Empty conditions map, filter all", Map.of(), List.of(withCondition("Ready", true)), Set.of("Ready"), Set.of()),
        Arguments.of("9.9 One buffer, filter out ready for provisioning", Map.of("ReadyForProvisioning", "True"), List.of(withCondition("Ready", true)), Set.of(), Set.of("Ready")),
        Arguments.of("9.9 Two buffers, one Filtered", Map.of("ReadyForProvisioning", "True"),
            List.of(withCondition("Ready", true), withCondition("NR", false)), Set.of("NR"), Set.of("Ready")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("statusRows")
  void statusFilter(String name, Map<String, String> map, List<CapacityBuffer> buffers, Set<String> kept, Set<String> dropped) {
    BufferFilters.Split s = BufferFilters.byConditions(buffers, map);
    assertThat(names(s.kept())).isEqualTo(kept);
    assertThat(names(s.dropped())).isEqualTo(dropped);
  }

  static CapacityBuffer withTemplate(String name, String ref, long generation) {
    CapacityBuffer b = Fixtures.buffer(name);
    b.setStatus(new CapacityBufferStatus());
    b.getStatus().setPodTemplateRef(new LocalObjectRef(ref));
    b.getStatus().setPodTemplateGeneration(generation);
    return b;
  }

  static Stream<Arguments> generationRows() {
    return Stream.of(
        Arguments.of("9.9 Template generation did not change", List.of(withTemplate("a", "podTempGen3", 3)), Set.of(), Set.of("a")),
        Arguments.of("9.9 Template generation changed", List.of(withTemplate("a", "podTempGen3", 2)), Set.of("a"), Set.of()),
        Arguments.of("9.9 Template doesn't exist", List.of(withTemplate("a", "randomTemplate", 2)), Set.of(), Set.of("a")),
        Arguments.of("9.9 Multiple templates",
            List.of(withTemplate("a", "podTempGen4", 3), withTemplate("b", "podTempGen3", 3), withTemplate("c", "randomTemplate", 2)), Set.of("a"), Set.of("b", "c")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generationRows")
  void templateGenerationFilter(String name, List<CapacityBuffer> buffers, Set<String> changed, Set<String> other) {
    InMemoryClusterView view = new InMemoryClusterView();
    view.add(Fixtures.template("podTempGen3", 3, new PodSpec()));
    view.add(Fixtures.template("podTempGen4", 4, new PodSpec()));
    BufferFilters.Split s = BufferFilters.byTemplateGenerationChanged(buffers, (ns, n) -> {
      Optional<PodTemplate> t = view.podTemplate(ns, n);
      return t;
    });
    assertThat(names(s.kept())).isEqualTo(changed);
    assertThat(names(s.dropped())).isEqualTo(other);
  }

  static CapacityBuffer gen(String name, long generation) {
    CapacityBuffer b = Fixtures.buffer(name);
    b.getMetadata().setGeneration(generation);
    return b;
  }

  static Function<List<CapacityBuffer>, BufferFilters.Split> g(long k) {
    return list -> {
      List<CapacityBuffer> kept = new ArrayList<>();
      List<CapacityBuffer> dropped = new ArrayList<>();
      list.forEach(b -> (b.getMetadata().getGeneration() == k ? kept : dropped).add(b));
      return new BufferFilters.Split(kept, dropped);
    };
  }

  static Stream<Arguments> combinedRows() {
    return Stream.of(
        Arguments.of("9.9 buffer to be filtered", List.of(g(1)), List.of(gen("someBuffer", 1)), List.of("someBuffer"), List.of()),
        Arguments.of("9.9 buffer to be filtered out", List.of(g(1)), List.of(gen("someBuffer", 2)), List.of(), List.of("someBuffer")),
        Arguments.of("9.9 1 filtered 1 out", List.of(g(1)), List.of(gen("Buffer1", 1), gen("Buffer2", 2)), List.of("Buffer1"), List.of("Buffer2")),
        Arguments.of("9.9 multiple filters multiple buffers", List.of(g(1), g(2), g(3)),
            List.of(gen("B1", 1), gen("B2", 2), gen("B3_A", 3), gen("B3_B", 3), gen("B4_A", 4), gen("B4_B", 4), gen("B5", 5)),
            List.of("B1", "B2", "B3_A", "B3_B"), List.of("B4_A", "B4_B", "B5")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combinedRows")
  void combinedAnyFilter(String name, List<Function<List<CapacityBuffer>, BufferFilters.Split>> filters, List<CapacityBuffer> buffers, List<String> kept, List<String> dropped) {
    BufferFilters.Split s = BufferFilters.anyOf(buffers, filters);
    assertThat(s.kept()).extracting(b -> b.getMetadata().getName()).containsExactlyElementsOf(kept);
    assertThat(s.dropped()).extracting(b -> b.getMetadata().getName()).containsExactlyElementsOf(dropped);
  }
}
