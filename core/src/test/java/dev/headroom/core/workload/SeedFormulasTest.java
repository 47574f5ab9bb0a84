package dev.headroom.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Seed-mode formulas: vectors SD-1, SD-2, SD-4..SD-8 of the workload-autoscaling spec, and the seed's properties. */
class SeedFormulasTest {

  private static final MetricSpec CPU50 = MetricSpec.utilization("cpu", 50);
  private static final MetricSpec QUEUE10 = MetricSpec.averageValue("queue", 10);

  @Test
  void sd1_averageValueIgnoresCurrentReplicas() {
    assertThat(SeedFormulas.desired(2, QUEUE10, 200)).isEqualTo(20);
    assertThat(SeedFormulas.desired(50, QUEUE10, 200)).isEqualTo(20);
  }

  @Test
  void sd2_saturatedCpuCannotTellTenFoldFromHundredFold() {
    // The true demand is 10x or 100x the capacity, but utilisation reads 100 in both cases.
    double tenFold = Math.min(100.0, 100.0 * 10);
    double hundredFold = Math.min(100.0, 100.0 * 100);
    assertThat(SeedFormulas.desired(4, CPU50, tenFold)).isEqualTo(8);
    assertThat(SeedFormulas.desired(4, CPU50, hundredFold)).isEqualTo(8);
  }

  @Test
  void sd4_zeroReplicasAndGuards() {
    assertThat(SeedFormulas.desired(0, CPU50, 80)).isZero();
    assertThat(SeedFormulas.desired(0, QUEUE10, 200)).isEqualTo(20);
    assertThat(SeedFormulas.desired(0, MetricSpec.value("v", 15), 20)).isEqualTo(2);
    assertThat(SeedFormulas.desired(7, MetricSpec.value("v", 15), 20)).isEqualTo(2);
    assertThat(SeedFormulas.desired(5, MetricSpec.utilization("cpu", 0), 100)).isEqualTo(5);
  }

  @Test
  void sd5_addingAMetricNeverLowersTheResult() {
    assertThat(SeedFormulas.desiredAll(8, List.of(CPU50), Map.of("cpu", 25.0))).isEqualTo(new Recommendation(4, "cpu"));
    assertThat(SeedFormulas.desiredAll(8, List.of(CPU50, QUEUE10), Map.of("cpu", 25.0, "queue", 30.0)))
        .isEqualTo(new Recommendation(4, "cpu"));
    assertThat(SeedFormulas.desiredAll(8, List.of(CPU50, QUEUE10), Map.of("cpu", 25.0, "queue", 200.0)))
        .isEqualTo(new Recommendation(20, "queue"));
  }

  @Test
  void sd6_tiesGoToTheFirstDeclared() {
    Map<String, Double> readings = Map.of("cpu", 100.0, "queue", 80.0);
    assertThat(SeedFormulas.desiredAll(4, List.of(CPU50, QUEUE10), readings)).isEqualTo(new Recommendation(8, "cpu"));
    assertThat(SeedFormulas.desiredAll(4, List.of(QUEUE10, CPU50), readings)).isEqualTo(new Recommendation(8, "queue"));
  }

  @Test
  void sd7_noReadingKeepsTheCountAndAZeroAnswerIsTaken() {
    assertThat(SeedFormulas.desiredAll(5, List.of(MetricSpec.averageValue("a", 1)), Map.of()))
        .isEqualTo(new Recommendation(5, ""));
    assertThat(SeedFormulas.desiredAll(0, List.of(CPU50), Map.of("cpu", 80.0))).isEqualTo(new Recommendation(0, "cpu"));
  }

  @Test
  void sd8_ceilSeedIsNotMathCeil() {
    assertThat(SeedFormulas.ceilSeed(0.9, 0.3)).isEqualTo(4);
    assertThat((int) Math.ceil(0.9 / 0.3)).isEqualTo(3);
    assertThat(SeedFormulas.ceilSeed(2.1, 0.3)).isEqualTo(7);
    assertThat((int) Math.ceil(2.1 / 0.3)).isEqualTo(8);
    assertThat(SeedFormulas.ceilSeed(6400 * 62.5, 50)).isEqualTo(8000);
    assertThat(SeedFormulas.ceilSeed(1e300, 1)).isEqualTo(Integer.MAX_VALUE);
  }

  // ---- properties, with seeded generators ---------------------------------------------------------------------

  static Stream<Arguments> seeds() {
    return IntStream.range(0, 20).mapToObj(i -> Arguments.of(1000L + i));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void averageValueAndValueIgnoreCurrentReplicas(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 200; i++) {
      double target = 1 + rnd.nextInt(100) + (rnd.nextBoolean() ? 0.5 : 0);
      double reading = rnd.nextInt(10_000) / (rnd.nextBoolean() ? 1.0 : 10.0);
      MetricSpec av = MetricSpec.averageValue("q", target);
      MetricSpec v = MetricSpec.value("v", target);
      int a = rnd.nextInt(1000);
      int b = rnd.nextInt(1000);
      assertThat(SeedFormulas.desired(a, av, reading)).isEqualTo(SeedFormulas.desired(b, av, reading));
      assertThat(SeedFormulas.desired(a, v, reading)).isEqualTo(SeedFormulas.desired(a, av, reading));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void saturatedCpuAtMostMultipliesByHundredOverTarget(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 200; i++) {
      int replicas = 1 + rnd.nextInt(500);
      double overload = 1 + rnd.nextInt(1000);
      double reading = Math.min(100.0, 100.0 * overload); // a utilisation signal cannot exceed 100
      assertThat(SeedFormulas.desired(replicas, CPU50, reading)).isEqualTo(2 * replicas);
      double target = 10 + rnd.nextInt(90);
      int want = SeedFormulas.desired(replicas, MetricSpec.utilization("cpu", target), reading);
      assertThat((double) want).isLessThanOrEqualTo(Math.ceil(replicas * 100.0 / target));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void addingAMetricNeverLowersTheResult(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 200; i++) {
      int replicas = rnd.nextInt(50);
      List<MetricSpec> metrics = new ArrayList<>();
      Map<String, Double> readings = new HashMap<>();
      int n = 1 + rnd.nextInt(4);
      for (int m = 0; m < n; m++) {
        metrics.add(randomMetric(rnd, "m" + m));
        readings.put("m" + m, (double) rnd.nextInt(500));
      }
      Recommendation before = SeedFormulas.desiredAll(replicas, metrics, readings);
      List<MetricSpec> more = new ArrayList<>(metrics);
      more.add(randomMetric(rnd, "extra"));
      readings.put("extra", (double) rnd.nextInt(500));
      Recommendation after = SeedFormulas.desiredAll(replicas, more, readings);
      assertThat(after.replicas()).isGreaterThanOrEqualTo(before.replicas());
      if (after.replicas() == before.replicas()) {
        assertThat(after.by()).isEqualTo(before.by());
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void resultIsTheMaximumAndIndependentOfReadingsMapOrder(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 200; i++) {
      int replicas = rnd.nextInt(50);
      List<MetricSpec> metrics = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int m = 0; m < 1 + rnd.nextInt(5); m++) {
        metrics.add(randomMetric(rnd, "m" + m));
        names.add("m" + m);
      }
      Collections.shuffle(names, rnd);
      Map<String, Double> a = new LinkedHashMap<>();
      for (String name : names) {
        a.put(name, (double) rnd.nextInt(300));
      }
      Map<String, Double> b = new TreeMap<>(Collections.reverseOrder());
      b.putAll(a);
      Recommendation ra = SeedFormulas.desiredAll(replicas, metrics, a);
      assertThat(SeedFormulas.desiredAll(replicas, metrics, b)).isEqualTo(ra);
      int max = metrics.stream().mapToInt(m -> SeedFormulas.desired(replicas, m, a.get(m.name()))).max().orElseThrow();
      assertThat(ra.replicas()).isEqualTo(max);
      String firstWithMax = metrics.stream()
          .filter(m -> SeedFormulas.desired(replicas, m, a.get(m.name())) == max)
          .findFirst().orElseThrow().name();
      assertThat(ra.by()).isEqualTo(firstWithMax);
    }
  }

  @Test
  void saturatesIsInformationalOnly() {
    MetricSpec saturating = new MetricSpec("cpu", TargetKind.UTILIZATION, 50, true);
    MetricSpec plain = new MetricSpec("cpu", TargetKind.UTILIZATION, 50, false);
    for (int r = 0; r < 20; r++) {
      for (double u = 0; u <= 100; u += 12.5) {
        assertThat(SeedFormulas.desired(r, saturating, u)).isEqualTo(SeedFormulas.desired(r, plain, u));
      }
    }
  }

  @Test
  void displayNames() {
    assertThat(TargetKind.UTILIZATION).hasToString("Utilization");
    assertThat(TargetKind.AVERAGE_VALUE.displayName()).isEqualTo("AverageValue");
    assertThat(TargetKind.VALUE.displayName()).isEqualTo("Value");
  }

  private static MetricSpec randomMetric(Random rnd, String name) {
    TargetKind kind = TargetKind.values()[rnd.nextInt(3)];
    return MetricSpec.of(name, kind, 1 + rnd.nextInt(80));
  }
}
