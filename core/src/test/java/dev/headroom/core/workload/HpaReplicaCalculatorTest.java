package dev.headroom.core.workload;

import static dev.headroom.core.workload.HpaFixtures.NOW;
import static dev.headroom.core.workload.HpaFixtures.hot;
import static dev.headroom.core.workload.HpaFixtures.pods;
import static dev.headroom.core.workload.HpaFixtures.samples;
import static dev.headroom.core.workload.HpaFixtures.sparse;
import static dev.headroom.core.workload.HpaFixtures.uniform;
import static dev.headroom.core.workload.HpaFixtures.unready;
import static dev.headroom.core.workload.HpaFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HPA-mode conformance vectors of spec sections 7.1 to 7.6 (U, AV, V, M, R, T), restated from the upstream
 * replica-calculator tests. CPU figures are per pod in millicores; custom metrics are milli-units.
 */
class HpaReplicaCalculatorTest {

  private static final HpaReplicaCalculator CALC = HpaReplicaCalculator.defaults();
  private static final Tolerance TOL = Tolerance.DEFAULT;

  private static Arguments v(String id, int expected, Supplier<MetricProposal> run) {
    return Arguments.of(id, expected, run);
  }

  private static MetricProposal cpu(int current, int target, List<PodInfo> pods, MetricReading r, Tolerance tol) {
    return CALC.propose(NOW, HpaMetric.resourceUtilization("cpu", target), current, current, pods, r, tol);
  }

  private static MetricProposal cpu(int current, int target, List<PodInfo> pods, MetricReading r) {
    return cpu(current, target, pods, r, TOL);
  }

  private static MetricProposal qps(int current, long target, List<PodInfo> pods, MetricReading r, Tolerance tol) {
    return CALC.propose(NOW, HpaMetric.pods("qps", target), current, current, pods, r, tol);
  }

  private static MetricProposal object(TargetKind kind, int spec, int status, long target, long value, List<PodInfo> pods,
      Tolerance tol) {
    return CALC.propose(NOW, HpaMetric.object("obj", kind, target), spec, status, pods,
        new MetricReading.ObjectValue(value), tol);
  }

  private static MetricProposal external(TargetKind kind, int spec, int status, long target, long value,
      List<PodInfo> pods, Tolerance tol) {
    return CALC.propose(NOW, HpaMetric.external("ext", kind, target), spec, status, pods, MetricReading.external(value),
        tol);
  }

  static Stream<Arguments> vectors() {
    List<PodInfo> p3 = uniform(3, 2000);
    List<PodInfo> p5 = uniform(5, 2000);
    List<PodInfo> failed = new ArrayList<>(uniform(4, 2000));
    failed.set(2, failed.get(2).withPhase(PodPhase.FAILED));
    failed.set(3, failed.get(3).withPhase(PodPhase.FAILED));
    List<PodInfo> deleting = new ArrayList<>(uniform(4, 2000));
    deleting.set(2, deleting.get(2).terminatingCopy());
    deleting.set(3, deleting.get(3).terminatingCopy());
    List<PodInfo> pending = new ArrayList<>(p5);
    for (int i = 1; i < 5; i++) {
      pending.set(i, pending.get(i).withPhase(PodPhase.PENDING));
    }
    List<PodInfo> twoContainers = new ArrayList<>();
    for (PodInfo p : p3) {
      twoContainers.add(p.withContainers(List.of(
          new ContainerRequests("container1", Map.of("cpu", 1000L)),
          new ContainerRequests("container2", Map.of("cpu", 1000L)))));
    }
    Map<String, PodSample> u7 = new LinkedHashMap<>(sparse(8000L, 19000L, 6000L, 14000L).samples());
    u7.put("unknown-1", PodSample.of(6400, NOW));
    u7.put("unknown-2", PodSample.of(4000, NOW));
    List<PodInfo> ten = uniform(10, 2000);
    return Stream.of(
        // 7.1 Resource utilisation
        v("U-1 [A1]", 5, () -> cpu(3, 30, p3, samples(600, 1000, 1400))),
        v("U-2 [A5]", 4, () -> cpu(2, 30, failed, sparse(1000L, 1400L, null, null))),
        v("U-3 [A6]", 4, () -> cpu(2, 30, deleting, sparse(1000L, 1400L, null, null))),
        v("U-4 [A7]", 3, () -> cpu(5, 50, p5, samples(200, 600, 1000, 500, 500))),
        v("U-5 [A9]", 1, () -> cpu(5, 50, pending, sparse(200L, null, null, null, null))),
        v("U-6 [A11]", 5, () -> CALC.propose(NOW, HpaMetric.containerUtilization("cpu", "container2", 30), 3, 3,
            twoContainers, samples(300, 500, 700), TOL)),
        v("U-7 [A13]", 24, () -> cpu(4, 100, uniform(4, 2000), new MetricReading.PodSamples(u7))),
        v("U-8 [F3] (calculator part; min 2 clamps to 2 in HpaAutoscalerTest)", 1,
            () -> cpu(3, 90, pods(1800, 2000, 2200), samples(20, 190, 20))),
        v("U-9 [F4]", 0, () -> cpu(3, 50, p3, samples(0, 0, 0))),
        // 7.2 Average value
        v("AV-1 [B1]", 4, () -> qps(3, 15000, p3, samples(20000, 10000, 30000), TOL)),
        v("AV-2 [B4]", 3, () -> qps(5, 20000, p5, samples(12000, 12000, 12000, 12000, 12000), TOL)),
        v("AV-3 [B7]", 4, () -> object(TargetKind.AVERAGE_VALUE, 3, 3, 5000, 20000, p3, TOL)),
        v("AV-4 [B8]", 3, () -> object(TargetKind.AVERAGE_VALUE, 5, 5, 2000, 6000, p5, TOL)),
        v("AV-5 [B11]", 4, () -> external(TargetKind.AVERAGE_VALUE, 3, 3, 2150, 8600, p3, TOL)),
        v("AV-6 [B13]", 3, () -> external(TargetKind.AVERAGE_VALUE, 5, 5, 2867, 8600, p5, TOL)),
        // 7.3 Value
        v("V-1 [B5]", 4, () -> object(TargetKind.VALUE, 3, 3, 15000, 20000, p3, TOL)),
        v("V-2 [B9]", 3, () -> object(TargetKind.VALUE, 5, 5, 20000, 12000, p5, TOL)),
        v("V-3 [B6]", 5, () -> object(TargetKind.VALUE, 3, 3, 10000, 50000,
            with(with(p3, 0, HpaFixtures::unready), 2, HpaFixtures::unready), TOL)),
        v("V-4 [B10]", 2, () -> external(TargetKind.VALUE, 3, 3, 4400, 8600,
            with(with(p3, 0, HpaFixtures::unready), 2, HpaFixtures::unready), TOL)),
        v("V-5 [B12]", 3, () -> external(TargetKind.VALUE, 5, 5, 14334, 8600, p5, TOL)),
        v("V-6 [F5]", 0, () -> object(TargetKind.VALUE, 5, 5, 20000, 0, p5, TOL)),
        v("V-7 [F6]", 0, () -> external(TargetKind.VALUE, 5, 5, 14400, 0, p5, TOL)),
        // 7.4 Missing metrics
        v("M-1 [A14]", 3, () -> cpu(4, 100, uniform(4, 2000), sparse(800L, 190L, null, null))),
        v("M-2 [A15]", 2, () -> cpu(2, 100, uniform(2, 2000), sparse(2000L, null))),
        v("M-3 [A16]", 2, () -> cpu(2, 100, uniform(2, 2000), sparse(3800L, null))),
        v("M-4 [A17]", 2, () -> cpu(2, 100, uniform(2, 2000), sparse(1200L, null))),
        v("M-5 [A18]", 3, () -> cpu(3, 50, with(p3, 0, HpaFixtures::unready), sparse(100L, 900L, null))),
        v("M-6 [A19]", 4, () -> cpu(3, 50, with(p3, 0, HpaFixtures::unready), sparse(100L, 4000L, null))),
        v("M-7 [A20]", 3, () -> cpu(4, 50, with(uniform(4, 2000), 0, HpaFixtures::unready),
            sparse(100L, 200L, 200L, null))),
        v("M-8 [A21]", 2, () -> cpu(4, 300, with(pods(2000, 2000, 4000, 4000), 0, HpaFixtures::unready),
            sparse(100L, 200L, 200L, null))),
        v("M-9 [A22]", 2, () -> cpu(2, 50, p3, sparse(200L, 200L, null))),
        v("M-10 [B19]", 2, () -> qps(2, 17000, p3, sparse(10000L, 10000L, null), TOL)),
        // 7.5 Unready pods
        v("R-1 [A2]", 4, () -> cpu(3, 30, with(p3, 0, HpaFixtures::unready), samples(600, 1000, 1400))),
        v("R-2 [A3]", 4, () -> cpu(3, 30, with(p3, 0, HpaFixtures::hot), samples(600, 1000, 1400))),
        v("R-3 [A4]", 3, () -> cpu(3, 30, with(with(p3, 1, HpaFixtures::unready), 2, HpaFixtures::unready),
            samples(800, 1000, 1400))),
        v("R-4 [A8]", 2, () -> cpu(5, 50, with(with(p5, 3, HpaFixtures::unready), 4, HpaFixtures::unready),
            samples(200, 600, 1000, 500, 500))),
        v("R-5 [A10]", 2, () -> cpu(5, 50, with(with(p5, 3, HpaFixtures::hot), 4, HpaFixtures::hot),
            samples(200, 600, 1000, 500, 500))),
        v("R-6 [B2]", 6, () -> qps(3, 15000, with(p3, 2, p -> hot(unready(p))), samples(50000, 10000, 30000), TOL)),
        v("R-7 [B3]", 7, () -> qps(3, 15000, with(with(p3, 0, HpaFixtures::unready), 2, HpaFixtures::unready),
            samples(50000, 15000, 30000), TOL)),
        // 7.6 Tolerance (down, up)
        v("T-1 [A12]", 3, () -> cpu(3, 100, pods(1800, 2000, 2200), samples(2020, 2060, 2040))),
        v("T-2 [B14]", 3, () -> qps(3, 20000, p3, samples(20000, 21000, 21000), TOL)),
        v("T-3 [B16]", 4, () -> object(TargetKind.AVERAGE_VALUE, 4, 4, 5000, 20166, uniform(4, 2000), TOL)),
        v("T-4 [B17]", 3, () -> external(TargetKind.VALUE, 3, 3, 8888, 8600, p3, TOL)),
        v("T-5 [C1]", 4, () -> cpu(3, 100, pods(1800, 2000, 2200), samples(1818, 2020, 2222), new Tolerance(0, 0))),
        v("T-6 [C2]", 3, () -> cpu(3, 100, p3, samples(3800, 3800, 3800), new Tolerance(0.1, 2.0))),
        v("T-7 [C3]", 4, () -> cpu(3, 100, p3, samples(2180, 2180, 2180), new Tolerance(2.0, 0.08))),
        v("T-8 [C4]", 3, () -> cpu(3, 100, p3, samples(1300, 1300, 1300), new Tolerance(0.36, 0.1))),
        v("T-8 [C5]", 2, () -> cpu(3, 100, p3, samples(1300, 1300, 1300), new Tolerance(0.34, 0.1))),
        v("T-9 [C6]", 4, () -> qps(3, 20000, p3, samples(20000, 21000, 21000), new Tolerance(0.1, 0.01))),
        v("T-10 [C8]", 5, () -> object(TargetKind.AVERAGE_VALUE, 4, 4, 5000, 20208, uniform(4, 2000),
            new Tolerance(0.1, 0.01))),
        v("T-11 [C9]", 4, () -> external(TargetKind.VALUE, 3, 3, 8800, 8900, p3, new Tolerance(0.1, 0.01))),
        v("T-12 [F10] target 56", 9, () -> cpu(10, 56, ten, samples(1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000,
            1000, 1000))),
        v("T-12 [F10] target 55", 10, () -> cpu(10, 55, ten, samples(1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000,
            1000, 1000))));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("vectors")
  void conformanceVector(String id, int expected, Supplier<MetricProposal> run) {
    MetricProposal p = run.get();
    assertThat(p).as(id).isInstanceOf(MetricProposal.Valid.class);
    assertThat(((MetricProposal.Valid) p).replicas()).as(id).isEqualTo(expected);
  }

  static Stream<Arguments> reportedUtilization() {
    List<PodInfo> p3 = uniform(3, 2000);
    return Stream.of(
        Arguments.of("U-1 [A1]", 50L, cpu(3, 30, p3, samples(600, 1000, 1400))),
        Arguments.of("U-2 [A5]", 60L, cpu(2, 30, uniform(2, 2000), samples(1000, 1400))),
        Arguments.of("U-4 [A7]", 28L, cpu(5, 50, uniform(5, 2000), samples(200, 600, 1000, 500, 500))),
        Arguments.of("U-5 [A9]", 10L, cpu(1, 50, uniform(1, 2000), samples(200))),
        Arguments.of("U-7 [A13]", 587L, cpu(4, 100, uniform(4, 2000), samples(8000, 19000, 6000, 14000))),
        Arguments.of("M-1 [A14]", 24L, cpu(4, 100, uniform(4, 2000), sparse(800L, 190L, null, null))),
        Arguments.of("R-1 [A2]", 60L, cpu(3, 30, with(p3, 0, HpaFixtures::unready), samples(600, 1000, 1400))),
        Arguments.of("R-3 [A4]", 40L, cpu(3, 30, with(with(p3, 1, HpaFixtures::unready), 2, HpaFixtures::unready),
            samples(800, 1000, 1400))),
        Arguments.of("T-1 [A12]", 102L, cpu(3, 100, pods(1800, 2000, 2200), samples(2020, 2060, 2040))));
  }

  @ParameterizedTest(name = "{0}: reported utilisation {1}")
  @MethodSource("reportedUtilization")
  void reportsTheUtilisationBeforeFilling(String id, long expected, MetricProposal p) {
    assertThat(((MetricProposal.Valid) p).usage()).isEqualTo(expected);
  }

  static Stream<Arguments> errors() {
    List<PodInfo> noRequest = with(uniform(3, 2000), 1, p -> p.withContainers(List.of(
        new ContainerRequests("main", Map.of()))));
    Map<String, PodSample> unknownOnly = Map.of("somebody-else", PodSample.of(500, NOW));
    return Stream.of(
        Arguments.of("U-10 [A23]", cpu(3, 50, noRequest, samples(100, 100, 100)), "missing request for"),
        Arguments.of("U-10 [A24]", cpu(3, 50, uniform(3, 2000), new MetricReading.PodSamples(unknownOnly)),
            HpaReasons.MSG_NO_MATCHING_PODS),
        Arguments.of("no pods", cpu(3, 50, List.of(), samples(100)), HpaReasons.MSG_NO_PODS),
        Arguments.of("only unready samples", cpu(1, 50, List.of(unready(HpaFixtures.cool(0, 2000))), samples(100)),
            HpaReasons.MSG_NO_METRICS_FOR_PODS),
        Arguments.of("failed read", cpu(1, 50, uniform(1, 2000), new MetricReading.Failed("timeout")), "timeout"));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("errors")
  void invalidMetrics(String id, MetricProposal p, String message) {
    assertThat(p).isInstanceOf(MetricProposal.Invalid.class);
    MetricProposal.Invalid i = (MetricProposal.Invalid) p;
    assertThat(i.message()).contains(message);
    assertThat(i.reason()).isEqualTo(HpaReasons.FAILED_GET_RESOURCE_METRIC);
  }
}
