package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.container;
import static dev.headroom.core.buffer.Fixtures.q;
import static dev.headroom.core.buffer.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.core.buffer.ReplicaCalculator.Result;
import dev.headroom.core.resources.EffectiveRequests;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.1, §9.2, §9.3, the §2.8 edge cases, §9.19 and the overflow rows of §9.20. */
class ReplicaCalculatorTest {

  private static final String ND = BufferConditions.ERR_NOT_DEFINED;
  private static final String NL = BufferConditions.ERR_LIMITS_NOT_FOUND;

  private static CapacityBufferSpec bufferSpec(Integer replicas, Integer percentage, String limits) {
    CapacityBufferSpec s = new CapacityBufferSpec();
    s.setReplicas(replicas);
    s.setPercentage(percentage);
    s.setLimits(q(limits));
    return s;
  }

  /** Expected: an Integer count or a String error. */
  private static void check(CapacityBufferSpec s, Integer base, PodSpec template, Object expected) {
    Result r = ReplicaCalculator.compute(s, base, template);
    if (expected instanceof Integer n) {
      assertThat(r).isEqualTo(new Result.Count(n));
    } else {
      assertThat(r).isEqualTo(new Result.Failure((String) expected));
    }
  }

  static Stream<Arguments> v9_1() {
    return Stream.of(
        Arguments.of("9.1#1 Only Replicas", 5, null, null, null, 5),
        Arguments.of("9.1#2 Only Percentage", null, 200, 10, null, 20),
        Arguments.of("9.1#3 Only Percentage Rounding Up", null, 33, 10, null, 4),
        Arguments.of("9.1#4 Replicas and Percentage (Replicas larger)", 25, 200, 10, null, 25),
        Arguments.of("9.1#5 Replicas and Percentage (Percentage larger)", 15, 200, 10, null, 20),
        Arguments.of("9.1#6 Replicas and Limits (Limits smaller)", 25, null, null, "cpu=20", 20),
        Arguments.of("9.1#7 Replicas and Limits (Replicas smaller)", 15, null, null, "cpu=20", 15),
        Arguments.of("9.1#8 Percentage and Limits (Limits smaller)", null, 250, 10, "cpu=20", 20),
        Arguments.of("9.1#9 Only Limits", null, null, null, "cpu=20", 20),
        Arguments.of("9.1#10 Nothing specified", null, null, null, null, ND),
        Arguments.of("9.1#11 Percentage present but base unknown", null, 200, null, null, ND));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v9_1")
  void replicaComputation(String name, Integer replicas, Integer percentage, Integer base, String limits, Object expected) {
    check(bufferSpec(replicas, percentage, limits), base, spec(container("c", "cpu=1", null)), expected);
  }

  static Stream<Arguments> v9_2() {
    return Stream.of(
        Arguments.of("9.2 200% of 10", 200, 10, 20),
        Arguments.of("9.2 50% of 10", 50, 10, 5),
        Arguments.of("9.2 0% of 10", 0, 10, 0),
        Arguments.of("9.2 50% of 0", 50, 0, 0),
        Arguments.of("9.2 Rounding up (3.3 -> 4)", 33, 10, 4),
        Arguments.of("2.3 1% of 1 is 1", 1, 1, 1),
        Arguments.of("2.3 negative percentage is 0", -5, 10, 0),
        Arguments.of("2.3 negative base is 0", 50, -10, 0),
        Arguments.of("9.20 [H-FIX] 1000% of 3000000 does not wrap", 1000, 3_000_000, 30_000_000),
        Arguments.of("2.3 [H-FIX] saturates at MaxInt32", Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE),
        Arguments.of("2.3 100% of MaxInt32", 100, Integer.MAX_VALUE, Integer.MAX_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v9_2")
  void percentageHelper(String name, int percentage, int base, int expected) {
    assertThat(ReplicaCalculator.percentage(percentage, base)).isEqualTo(expected);
  }

  static Stream<Arguments> v9_3() {
    return Stream.of(
        Arguments.of("9.3 cpu allows 20, memory 10", "cpu=100m,memory=200Mi", "cpu=2,memory=2000Mi", 10),
        Arguments.of("2.8 limit below one chunk", "cpu=200m", "cpu=100m", 0),
        Arguments.of("2.8 limits cpu 0", "cpu=1", "cpu=0", 0),
        Arguments.of("2.8 limits cpu -1 skipped", "cpu=1", "cpu=-1", null),
        Arguments.of("2.8 limits cpu -500m truncates to 0", "cpu=1", "cpu=-500m", 0),
        Arguments.of("2.8 limit on an unrequested resource", "cpu=1", "memory=1Gi", null),
        Arguments.of("2.8 request 0 for a limited resource is ignored", "cpu=0,memory=1Gi", "cpu=10,memory=3Gi", 3),
        Arguments.of("9.20 [H-FIX] quotient above MaxInt32 saturates", "cpu=1m", "cpu=3000000", Integer.MAX_VALUE),
        Arguments.of("2.7 0.1m rounds up to 1 milli", "cpu=1m", "cpu=0.1m", 1),
        Arguments.of("2.6 [H-FIX] huge limit saturates", "memory=1", "memory=100E", Integer.MAX_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v9_3")
  void limitsHelper(String name, String requests, String limits, Integer expected) {
    var chunks = ReplicaCalculator.limitChunks(EffectiveRequests.of(spec(container("c", requests, null))), q(limits));
    if (expected == null) {
      assertThat(chunks).isEmpty();
    } else {
      assertThat(chunks).hasValue(expected);
    }
  }

  static Stream<Arguments> edgeCases() {
    return Stream.of(
        Arguments.of("2.8 replicas 0 only", 0, null, null, null, 0),
        Arguments.of("2.8/9.19 podTemplateRef replicas 2 percentage 50 (base unknown)", 2, 50, null, null, 2),
        Arguments.of("2.8 percentage 0 with base", null, 0, 10, null, 0),
        Arguments.of("2.8 percentage with base 0", null, 50, 0, null, 0),
        Arguments.of("2.8 replicas MaxInt32", Integer.MAX_VALUE, null, null, null, Integer.MAX_VALUE),
        Arguments.of("2.1 negative replicas count as 0", -3, null, null, null, 0),
        Arguments.of("9.19 limits cpu -1 only is NRL", null, null, null, "cpu=-1", NL),
        Arguments.of("9.19 limits memory with cpu-only request, replicas 3 is NRL", 3, null, null, "memory=1Gi", NL),
        Arguments.of("9.19 limits cpu -500m is 0", null, null, null, "cpu=-500m", 0),
        Arguments.of("2.2 limits fail even when percentage is set", null, 50, 10, "nvidia.com/gpu=1", NL),
        Arguments.of("2.2 percentage with unknown base and limits gives L", null, 50, null, "cpu=7", 7),
        Arguments.of("9.20 [H-FIX] percentage 1000 base 3000000", null, 1000, 3_000_000, null, 30_000_000),
        Arguments.of("9.20 [H-FIX] limits cpu 3000000 request 1m", null, null, null, "cpu=3000000", "1m"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("edgeCases")
  void edgeCases(String name, Integer replicas, Integer percentage, Integer base, String limits, Object expected) {
    if ("1m".equals(expected)) {
      check(bufferSpec(replicas, percentage, limits), base, spec(container("c", "cpu=1m", null)), Integer.MAX_VALUE);
      return;
    }
    check(bufferSpec(replicas, percentage, limits), base, spec(container("c", "cpu=1", null)), expected);
  }
}
