package dev.headroom.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seed's tick model (spec section 4): SIM-1, SIM-2, SD-3 and SD-9. The expected rows are the seed's
 * published tables for t = 0..33 (columns: t, arrivals, replicas, processed, floor(CPU %), queue).
 */
class TickModelTest {

  /** Section 4.3, scenario CPU (target 50% utilisation). */
  static final String CPU_ROWS = """
      0 20 4 20 50 0
      1 20 4 20 50 0
      2 20 4 20 50 0
      3 20 4 20 50 0
      4 20 4 20 50 0
      5 200 4 40 100 160
      6 200 8 80 100 280
      7 200 16 160 100 320
      8 200 32 320 100 200
      9 200 64 400 62 0
      10 200 80 200 25 0
      11 200 40 200 50 0
      12 200 40 200 50 0
      13 200 40 200 50 0
      14 200 40 200 50 0
      15 200 40 200 50 0
      16 200 40 200 50 0
      17 200 40 200 50 0
      18 200 40 200 50 0
      19 200 40 200 50 0
      20 200 40 200 50 0
      21 200 40 200 50 0
      22 200 40 200 50 0
      23 200 40 200 50 0
      24 200 40 200 50 0
      25 200 40 200 50 0
      26 200 40 200 50 0
      27 200 40 200 50 0
      28 200 40 200 50 0
      29 200 40 200 50 0
      30 200 40 200 50 0
      31 200 40 200 50 0
      32 200 40 200 50 0
      33 200 40 200 50 0
      """;

  /** Section 4.4, scenario QUEUE (target 10 items per replica); utilisation is 100 on every row. */
  static final String QUEUE_ROWS = """
      0 20 2 20 100 20
      1 20 2 20 100 20
      2 20 2 20 100 20
      3 20 2 20 100 20
      4 20 2 20 100 20
      5 200 2 20 100 200
      6 200 20 200 100 200
      7 200 20 200 100 200
      8 200 20 200 100 200
      9 200 20 200 100 200
      10 200 20 200 100 200
      11 200 20 200 100 200
      12 200 20 200 100 200
      13 200 20 200 100 200
      14 200 20 200 100 200
      15 200 20 200 100 200
      16 200 20 200 100 200
      17 200 20 200 100 200
      18 200 20 200 100 200
      19 200 20 200 100 200
      20 200 20 200 100 200
      21 200 20 200 100 200
      22 200 20 200 100 200
      23 200 20 200 100 200
      24 200 20 200 100 200
      25 200 20 200 100 200
      26 200 20 200 100 200
      27 200 20 200 100 200
      28 200 20 200 100 200
      29 200 20 200 100 200
      30 200 20 200 100 200
      31 200 20 200 100 200
      32 200 20 200 100 200
      33 200 20 200 100 200
      """;

  static List<long[]> parse(String rows) {
    List<long[]> out = new ArrayList<>();
    for (String line : rows.strip().split("\n")) {
      String[] f = line.strip().split("\\s+");
      long[] r = new long[f.length];
      for (int i = 0; i < f.length; i++) {
        r[i] = Long.parseLong(f[i]);
      }
      out.add(r);
    }
    return out;
  }

  static Stream<Arguments> cpuRows() {
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(QueueVsCpuDemo.Parameters.defaults());
    return parse(CPU_ROWS).stream().map(e -> Arguments.of((int) e[0], e, r.cpu().rows().get((int) e[0])));
  }

  static Stream<Arguments> queueRows() {
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(QueueVsCpuDemo.Parameters.defaults());
    return parse(QUEUE_ROWS).stream().map(e -> Arguments.of((int) e[0], e, r.queue().rows().get((int) e[0])));
  }

  @ParameterizedTest(name = "SIM-1 CPU t={0}")
  @MethodSource("cpuRows")
  void sim1CpuRow(int t, long[] expected, TickRow actual) {
    assertRow(expected, actual);
  }

  @ParameterizedTest(name = "SIM-1 QUEUE t={0}")
  @MethodSource("queueRows")
  void sim1QueueRow(int t, long[] expected, TickRow actual) {
    assertRow(expected, actual);
    assertThat(actual.utilization()).isEqualTo(100.0);
  }

  private static void assertRow(long[] e, TickRow a) {
    assertThat(new long[] {a.t(), a.arrivals(), a.replicas(), a.processed(), a.utilizationFloor(), a.queue()})
        .containsExactly(e);
  }

  @Test
  void sim1HorizonAndUnroundedUtilisation() {
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(QueueVsCpuDemo.Parameters.defaults());
    assertThat(parse(CPU_ROWS)).hasSize(34);
    assertThat(r.cpu().rows()).hasSize(34);
    assertThat(r.queue().rows()).hasSize(34);
    assertThat(r.cpu().rows().get(9).utilization()).isEqualTo(62.5);
    assertThat(r.cpu().rows().get(9).utilizationFloor()).isEqualTo(62);
    assertThat(r.cpu().rows().get(10).utilization()).isEqualTo(25.0);
  }

  @Test
  void sim2CatchUpPeakAndFinalState() {
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(QueueVsCpuDemo.Parameters.defaults());
    assertThat(r.cpu().summary()).isEqualTo(new TickSummary(OptionalInt.of(8), 320, 40, 0));
    assertThat(r.queue().summary()).isEqualTo(new TickSummary(OptionalInt.of(6), 200, 20, 200));
    // Capacity >= arrivals gives the same catch-up ticks.
    assertThat(firstTickWithCapacity(r.cpu())).isEqualTo(8);
    assertThat(firstTickWithCapacity(r.queue())).isEqualTo(6);
  }

  private static int firstTickWithCapacity(TickRun run) {
    return run.rows().stream()
        .filter(row -> row.t() >= 5 && 10L * row.replicas() >= row.arrivals())
        .findFirst().orElseThrow().t();
  }

  @Test
  void sd3CpuAtMostDoublesWhileTheQueueJumps() {
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(QueueVsCpuDemo.Parameters.defaults());
    for (int t = 1; t < 34; t++) {
      int before = r.cpu().rows().get(t - 1).replicas();
      assertThat(r.cpu().rows().get(t).replicas()).isLessThanOrEqualTo(2 * before);
    }
    assertThat(r.cpu().rows().subList(5, 9)).extracting(TickRow::replicas).containsExactly(4, 8, 16, 32);
    assertThat(r.queue().rows().get(6).replicas()).isGreaterThan(2 * r.queue().rows().get(5).replicas());
    assertThat(r.queue().rows().subList(5, 7)).extracting(TickRow::replicas).containsExactly(2, 20);
  }

  @Test
  void sd9TargetsDeclareTheSteadyState() {
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(QueueVsCpuDemo.Parameters.defaults());
    TickRow q = r.queue().rows().get(33);
    assertThat(q.queue()).isEqualTo(q.replicas() * 10L).isEqualTo(200);
    TickRow c = r.cpu().rows().get(33);
    int needed = 200 / 10;
    assertThat(c.replicas()).isEqualTo(2 * needed);
    assertThat(c.utilization()).isEqualTo(50.0);
    assertThat(q.utilization()).isEqualTo(100.0);
  }

  @Test
  void identicalWithMaxEightyAndUnbounded() {
    QueueVsCpuDemo.Parameters d = QueueVsCpuDemo.Parameters.defaults();
    QueueVsCpuDemo.Parameters unbounded = new QueueVsCpuDemo.Parameters(d.before(), d.after(), d.jumpTick(),
        d.capacity(), d.cpuTarget(), d.queueTarget(), 0, d.ticks(), false, 0, 3, OptionalInt.empty());
    QueueVsCpuDemo.Result a = QueueVsCpuDemo.run(d);
    QueueVsCpuDemo.Result b = QueueVsCpuDemo.run(unbounded);
    assertThat(b.cpu().rows()).isEqualTo(a.cpu().rows());
    assertThat(b.queue().rows()).isEqualTo(a.queue().rows());
    assertThat(b.cpu().summary()).isEqualTo(a.cpu().summary());
  }

  @Test
  void allowZeroDropsOnlyTheQueueWorkloadAfterArrivalsStop() {
    QueueVsCpuDemo.Parameters d = QueueVsCpuDemo.Parameters.defaults();
    QueueVsCpuDemo.Parameters zero = new QueueVsCpuDemo.Parameters(d.before(), d.after(), d.jumpTick(), d.capacity(),
        d.cpuTarget(), d.queueTarget(), d.max(), d.ticks(), true, 0, 3, OptionalInt.empty());
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(zero);
    // Arrivals stop at the default tick 20; the backlog of 200 is served at t = 20.
    assertThat(r.queue().rows().get(20).arrivals()).isZero();
    assertThat(r.queue().rows().get(20).queue()).isZero();
    // Cooldown 3: one replica for three idle decisions (t = 21..23), zero on the fourth (t = 24).
    assertThat(r.queue().rows().subList(21, 25)).extracting(TickRow::replicas).containsExactly(1, 1, 1, 0);
    assertThat(r.queue().summary().finalReplicas()).isZero();
    // The CPU workload keeps min 1.
    assertThat(r.cpu().rows().subList(21, 34)).extracting(TickRow::replicas).containsOnly(1);
    // Before the stop both tables are the seed's.
    assertThat(r.cpu().rows().subList(0, 20)).isEqualTo(QueueVsCpuDemo.run(d).cpu().rows().subList(0, 20));
    assertThat(r.queue().rows().subList(0, 20)).isEqualTo(QueueVsCpuDemo.run(d).queue().rows().subList(0, 20));
  }

  @Test
  void wakesFromZeroWhenWorkReturns() {
    MetricSpec queue = MetricSpec.averageValue("queue", 10);
    ScalerConfig config = new ScalerConfig(List.of(queue), 0, 0, 0, 1);
    TickModel model = new TickModel(ArrivalProfile.step(0, 50, 3), 10, 6);
    TickRun run = model.run(new TickScenario("queue", config, queue, 0, 0));
    // t=3: 50 arrive with 0 replicas; t=4 wakes one (presence); t=5 follows the formula: ceil(90/10) = 9.
    assertThat(run.rows()).extracting(TickRow::replicas).containsExactly(0, 0, 0, 0, 1, 9);
    assertThat(run.rows().get(3).utilization()).isZero();
  }

  @Test
  void customLoadDerivesTheSteadyStart() {
    QueueVsCpuDemo.Parameters p = new QueueVsCpuDemo.Parameters(30, 300, 3, 10, 60, 5, 0, 12, false, 0, 3,
        OptionalInt.empty());
    QueueVsCpuDemo.Result r = QueueVsCpuDemo.run(p);
    // CPU: ceilSeed(100 x 30 / 10, 60) = 5 replicas; queue: 3 replicas with 3 x 5 waiting.
    assertThat(r.cpu().rows().get(0).replicas()).isEqualTo(5);
    assertThat(r.queue().rows().get(0).replicas()).isEqualTo(3);
    assertThat(r.queue().rows().get(0).queue()).isEqualTo(15);
    assertThat(r.cpu().rows().get(1).replicas()).isEqualTo(5);
    assertThat(r.queue().rows().get(1).replicas()).isEqualTo(3);
    assertThat(r.queue().summary().catchUpTick()).hasValue(4);
  }
}
