package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibration's comparison (docs/simulator.md §8) held against recorded real runs, so that a change of the model
 * that leaves the tolerance fails {@code ./mvnw verify} without the test bed: {@code examples/scenarios/calibration.yaml}
 * simulated now, against each run of {@code calibration-real-runs.csv} (written from e2e's CalibrationE2eTest output:
 * the real figures and the bed's latency measured in that run). The rule is CalibrationE2eTest's: p95 within
 * max(3 s, 15 % of the real p95) plus the run's bed latency, node-hours within 10 %, strategies ranked alike by cost. A row
 * marked {@code open} is a measured gap not yet explained (issue #24): there the simulator may be pessimistic by up to
 * {@value #OPEN_GAP_P95_SECONDS} s and off by 15 % in node-hours, but never optimistic beyond the tolerance.
 */
class CalibrationGuardTest {

  /** {@code openGap}: a row the simulator is known to miss (csv column {@code gap}=open, see the csv's comment). */
  record Real(String run, String strategy, double p95, double nodeHours, double cost, double bedLatency, boolean openGap) {}

  /** How far an open gap may go: the simulator pessimistic by at most this much, never optimistic beyond the tolerance. */
  static final double OPEN_GAP_P95_SECONDS = 25;
  static final double OPEN_GAP_NODE_HOURS = 0.15;

  @Test
  void theSimulatorStaysWithinTheToleranceOfTheRecordedRealRuns() throws IOException {
    Scenario scenario = ScenarioParser.parseFile(Path.of("..", "examples", "scenarios", "calibration.yaml"));
    SimulationReport report = ScenarioRunner.run(scenario, scenario.seed(), 2, null);
    List<Real> runs = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("src/test/resources/calibration-real-runs.csv"), StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.startsWith("run,") || line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      runs.add(new Real(f[0], f[1], Double.parseDouble(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]),
          f.length > 6 && f[6].trim().equals("open")));
    }
    assertThat(runs).isNotEmpty();
    for (Real r : runs) {
      StrategyResult s = report.strategies().stream().filter(x -> x.name().equals(r.strategy())).findFirst().orElseThrow();
      double tolerance = Math.max(3, 0.15 * r.p95()) + r.bedLatency();
      String what = "run " + r.run() + " " + r.strategy() + ": p95 " + s.podWait().p95() + " s simulated against " + r.p95()
          + " s real, tolerance " + tolerance + " s" + (r.openGap() ? ", open gap up to " + OPEN_GAP_P95_SECONDS + " s pessimistic" : "");
      double over = s.podWait().p95() - r.p95();
      assertThat(over).as(what).isGreaterThanOrEqualTo(-tolerance);
      assertThat(over).as(what).isLessThanOrEqualTo(r.openGap() ? OPEN_GAP_P95_SECONDS : tolerance);
      assertThat(Math.abs(s.nodeHours() - r.nodeHours()) / r.nodeHours()).as("run " + r.run() + " " + r.strategy() + ": node-hours "
          + s.nodeHours() + " simulated against " + r.nodeHours() + " real").isLessThanOrEqualTo(r.openGap() ? OPEN_GAP_NODE_HOURS : 0.10);
    }
    for (Real a : runs) {
      for (Real b : runs) {
        if (a.run().equals(b.run()) && a.strategy().compareTo(b.strategy()) < 0) {
          double sa = cost(report, a.strategy()), sb = cost(report, b.strategy());
          assertThat(Double.compare(sa, sb)).as("run " + a.run() + ": cost order of " + a.strategy() + " and " + b.strategy())
              .isEqualTo(Double.compare(a.cost(), b.cost()));
        }
      }
    }
  }

  private static double cost(SimulationReport report, String strategy) {
    return report.strategies().stream().filter(x -> x.name().equals(strategy)).findFirst().orElseThrow().cost();
  }
}
