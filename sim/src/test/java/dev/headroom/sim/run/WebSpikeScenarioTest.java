package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.TickCsv;
import dev.headroom.sim.scenario.ScenarioParser;
import dev.headroom.sim.scenario.Scenario;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The checks of the two-hour web-spike example (the earlier built-in scenario); it is run once and shared. */
class WebSpikeScenarioTest {

  static Scenario scenario;
  static SimulationReport report;

  @BeforeAll
  static void run() {
    scenario = ScenarioParser.parseFile(java.nio.file.Path.of("..", "examples", "scenarios", "web-spike.yaml"));
    report = ScenarioRunner.run(scenario, scenario.seed(), 2, null);
  }

  static StrategyResult strategy(String name) {
    return report.strategies().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void sameSeedSameOutputByteForByte() {
    SimulationReport again = ScenarioRunner.run(scenario, scenario.seed(), 1, null);
    assertThat(SummaryJson.render(again)).isEqualTo(SummaryJson.render(report));
    assertThat(TickCsv.render(again)).isEqualTo(TickCsv.render(report));
  }

  @Test
  void aBufferLowersP95PodWaitAndCostsMore() {
    StrategyResult none = strategy("none");
    for (String name : List.of("buffer-10pct", "buffer-30pct")) {
      StrategyResult buffer = strategy(name);
      assertThat(buffer.podWait().p95()).as(name + " p95").isLessThan(none.podWait().p95());
      assertThat(buffer.cost()).as(name + " cost").isGreaterThan(none.cost());
      assertThat(buffer.nodeHours()).as(name + " node-hours").isGreaterThan(none.nodeHours());
    }
    // the larger buffer buys more: no pod waits at all, for more money
    assertThat(strategy("buffer-30pct").podWait().max()).isZero();
    assertThat(strategy("buffer-30pct").cost()).isGreaterThan(strategy("buffer-10pct").cost());
  }

  @Test
  void balloonPodsShowTheirPreemptionDelay() {
    StrategyResult balloon = strategy("balloon");
    double delay = scenario.settings().preemptionDelay().toMillis() / 1000.0;
    assertThat(balloon.preemptedPods()).isPositive();
    // pods that preempt a balloon wait exactly the preemption delay, never zero
    assertThat(balloon.podWait().p50()).isEqualTo(delay);
    assertThat(balloon.ticks()).anySatisfy(t -> assertThat(t.maxWaitSeconds()).isEqualTo(delay));
    // and balloons that lost their place are pending again (they trigger the scale-up)
    assertThat(balloon.ticks()).anySatisfy(t -> assertThat(t.pendingBalloons()).isPositive());
  }

  @Test
  void aWarmPoolShortensWaitsToTheResumeDelayAndCostsLessThanABuffer() {
    StrategyResult warm = strategy("warm-pool");
    StrategyResult none = strategy("none");
    assertThat(warm.podWait().max()).isLessThan(none.podWait().max());
    assertThat(warm.podWait().max()).isLessThanOrEqualTo(30.0);
    assertThat(warm.cost()).isGreaterThan(none.cost()).isLessThan(strategy("buffer-30pct").cost());
  }

  @Test
  void nodeGroupMaxSizeIsNeverExceeded() {
    for (StrategyResult s : report.strategies()) {
      for (NodeGroup g : scenario.nodeGroups()) {
        assertThat(s.peakPerGroup().getOrDefault(g.id(), 0)).as(s.name() + "/" + g.id()).isLessThanOrEqualTo(g.maxSize());
      }
      int total = scenario.nodeGroups().stream().mapToInt(NodeGroup::maxSize).sum();
      assertThat(s.ticks()).allSatisfy(t -> assertThat(t.nodes()).isLessThanOrEqualTo(total));
    }
  }

  @Test
  void everyStrategySeesTheSameLoad() {
    List<TickSample> first = report.strategies().get(0).ticks();
    for (StrategyResult s : report.strategies()) {
      assertThat(s.ticks()).hasSameSizeAs(first);
      for (int i = 0; i < first.size(); i += 97) {
        assertThat(s.ticks().get(i).workloads().get(0).rate()).isEqualTo(first.get(i).workloads().get(0).rate());
      }
    }
  }

  @Test
  void theNumbersExplainedInTheDocsHold() {
    StrategyResult none = strategy("none");
    assertThat(none.pods()).isBetween(25, 45);
    assertThat(none.podWait().p95()).isGreaterThan(90.0);
    assertThat(none.peakNodes()).isGreaterThan(scenario.nodeGroups().get(0).targetSize());
    Map<String, Integer> peaks = strategy("buffer-30pct").peakPerGroup();
    assertThat(peaks).containsKey("general");
  }
}
