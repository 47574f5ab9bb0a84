package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.TextTable;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two example scenarios of buffers that pods consume (docs/buffer-consumption.md): the simulator runs the core's
 * consumption overlay through the buffer controller's reconcile, as {@code headroom run} does.
 */
class BufferConsumptionSimulationTest {

  static SimulationReport run(String file) {
    Scenario s = ScenarioParser.parseFile(Path.of("..", "examples", "scenarios", file));
    SimulationReport a = ScenarioRunner.run(s, s.seed(), 1, null);
    SimulationReport b = ScenarioRunner.run(s, s.seed(), 1, null);
    assertThat(SummaryJson.render(b)).isEqualTo(SummaryJson.render(a));
    assertThat(TextTable.render(b)).isEqualTo(TextTable.render(a));
    return a;
  }

  static StrategyResult strategy(SimulationReport r, String name) {
    return r.strategies().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aOneShotBufferStartsTheJobAsSoonAsAGangBufferAndThenLetsItsNodesGo() {
    SimulationReport r = run("batch-one-shot.yaml");
    StrategyResult none = strategy(r, "none");
    StrategyResult gang = strategy(r, "gang-buffer");
    StrategyResult oneShot = strategy(r, "one-shot-buffer");

    assertThat(oneShot.batch().gangJobs().started()).isEqualTo(1);
    assertThat(oneShot.batch().gangJobs().startDelayMax()).isEqualTo(gang.batch().gangJobs().startDelayMax()).isZero();
    assertThat(none.batch().gangJobs().startDelayMax()).isGreaterThan(120);
    // the gang buffer keeps its 8 chunks all day; the one-shot one is consumed at 06:00 and keeps nothing after
    assertThat(oneShot.nodeHours()).isLessThan(gang.nodeHours() / 2).isGreaterThan(none.nodeHours());
    List<TickSample> ticks = oneShot.ticks();
    TickSample before = ticks.stream().filter(t -> t.seconds() == 5 * 3600).findFirst().orElseThrow();
    TickSample after = ticks.get(ticks.size() - 1);
    assertThat(before.bufferReplicas()).isEqualTo(8);
    assertThat(after.bufferReplicas()).as("Fulfilled: not refilled after the job's pods are gone").isZero();
    assertThat(strategy(r, "gang-buffer").ticks().get(ticks.size() - 1).bufferReplicas()).isEqualTo(8);
    assertThat(after.nodes()).isLessThan(strategy(r, "gang-buffer").ticks().get(ticks.size() - 1).nodes());
  }

  @Test
  void aDedicatedBufferKeepsRoomUpToTheWorkloadsPeakAndNoneBeyondIt() {
    SimulationReport r = run("web-dedicated.yaml");
    StrategyResult plain = strategy(r, "plain-14");
    StrategyResult dedicated = strategy(r, "dedicated-46");

    assertThat(dedicated.podsOverSlo()).isZero();
    assertThat(plain.podsOverSlo()).isZero();
    assertThat(strategy(r, "none").podsOverSlo()).isPositive();
    // at the peak the dedicated buffer's chunks are held by the service's own pods: fewer nodes than the plain one
    assertThat(dedicated.peakNodes()).isLessThan(plain.peakNodes());
    // the buffer keeps 46 minus the service's replicas (once the controller saw the pods of a change: one tick later)
    List<TickSample> ticks = dedicated.ticks();
    int checked = 0;
    for (int i = 1; i < ticks.size(); i++) {
      int web = ticks.get(i).workloads().get(0).replicas();
      if (web == ticks.get(i - 1).workloads().get(0).replicas()) {
        assertThat(ticks.get(i).bufferReplicas()).as("at %ds", ticks.get(i).seconds()).isEqualTo(Math.max(0, 46 - web));
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(ticks.size() / 2);
  }
}
