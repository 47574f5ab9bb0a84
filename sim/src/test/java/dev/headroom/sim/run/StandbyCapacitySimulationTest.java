package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code warm-pool} strategy is the standby-capacity strategy: the web-spike scenario with a warm pool of four
 * {@code general} instances, and the same scenario written out as {@code spec.standby} on the group and a standby
 * CapacityBuffer whose chunks fill exactly four nodes, run identically on the same seed. Both go through the buffer
 * controller, the autoscaler's standby step and the provider's pool.
 */
class StandbyCapacitySimulationTest {

  static final double STANDBY_PRICE = 0.192 * 0.1;

  static Scenario warmPool;
  static Scenario written;
  static SimulationReport warmPoolReport;
  static SimulationReport writtenReport;

  @BeforeAll
  static void run() throws Exception {
    String text = Files.readString(Path.of("..", "examples", "scenarios", "web-spike.yaml"));
    String base = text.substring(0, text.indexOf("  strategies:"));
    warmPool = ScenarioParser.parse("warm-pool.yaml", base + String.join("\n",
        "  strategies:",
        "    - type: none",
        "    - type: warm-pool",
        "      nodeGroup: general",
        "      size: 4",
        "      stoppedPriceFraction: 0.1",
        "      resumeDelay: 20s",
        ""), null);
    // the general group (first in the file) with spec.standby; web's 500m/512Mi pods fit seven to a 3920m node, so
    // 28 chunks are four standby nodes
    String standbyGroup = base.replaceFirst("        provisioningDelay: 90s\n",
        "        provisioningDelay: 90s\n        standby: {resumeDelay: 20s, price: " + STANDBY_PRICE + "}\n");
    assertThat(standbyGroup).isNotEqualTo(base);
    written = ScenarioParser.parse("standby-buffer.yaml", standbyGroup + String.join("\n",
        "  strategies:",
        "    - type: none",
        "    - type: buffer",
        "      name: warm-pool",
        "      buffers:",
        "        - workload: web",
        "          replicas: 28",
        "          provisioningStrategy: buffer.headroom.dev/standby-capacity",
        ""), null);
    warmPoolReport = ScenarioRunner.run(warmPool, warmPool.seed(), 2, null);
    writtenReport = ScenarioRunner.run(written, written.seed(), 2, null);
  }

  static StrategyResult strategy(SimulationReport r, String name) {
    return r.strategies().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aWarmPoolAndTheSameStandbyBufferWrittenOutRunIdentically() {
    for (String name : List.of("none", "warm-pool")) {
      StrategyResult a = strategy(warmPoolReport, name);
      StrategyResult b = strategy(writtenReport, name);
      assertThat(b.podWait()).as(name).isEqualTo(a.podWait());
      assertThat(b.pods()).as(name).isEqualTo(a.pods());
      assertThat(b.podsOverSlo()).as(name).isEqualTo(a.podsOverSlo());
      assertThat(b.nodeHours()).as(name).isEqualTo(a.nodeHours());
      assertThat(b.cost()).as(name).isEqualTo(a.cost());
      assertThat(b.peakNodes()).as(name).isEqualTo(a.peakNodes());
      assertThat(b.meanUtilization()).as(name).isEqualTo(a.meanUtilization());
      assertThat(b.scaleUps()).as(name).isEqualTo(a.scaleUps());
      assertThat(b.nodesAdded()).as(name).isEqualTo(a.nodesAdded());
      assertThat(b.nodesRemoved()).as(name).isEqualTo(a.nodesRemoved());
      assertThat(b.peakPerGroup()).as(name).isEqualTo(a.peakPerGroup());
      assertThat(b.waits()).as(name).isEqualTo(a.waits());
      assertThat(b.scaleUpEvents()).as(name).isEqualTo(a.scaleUpEvents());
      // every tick alike but the buffers' status.replicas (4 pool chunks against 28 web chunks)
      assertThat(b.ticks().stream().map(StandbyCapacitySimulationTest::withoutBufferReplicas).toList()).as(name)
          .isEqualTo(a.ticks().stream().map(StandbyCapacitySimulationTest::withoutBufferReplicas).toList());
    }
    assertThat(strategy(warmPoolReport, "warm-pool").peakBufferReplicas()).isEqualTo(4);
    assertThat(strategy(writtenReport, "warm-pool").peakBufferReplicas()).isEqualTo(28);
  }

  @Test
  void thePoolHoldsExactlyOneStandbyNodePerWarmPoolInstanceFromTheFirstAutoscalerLoopOn() {
    long firstLoop = warmPool.autoscalerOptions().scanInterval().toSeconds();
    List<TickSample> ticks = strategy(warmPoolReport, "warm-pool").ticks();
    assertThat(ticks.get(0).stoppedInstances()).isZero();
    assertThat(ticks).filteredOn(t -> t.seconds() >= firstLoop).isNotEmpty()
        .allSatisfy(t -> assertThat(t.stoppedInstances()).as("t=%d", t.seconds()).isEqualTo(4));
    assertThat(strategy(warmPoolReport, "none").ticks()).allSatisfy(t -> assertThat(t.stoppedInstances()).isZero());
  }

  @Test
  void resumedNodesCutTheWaitToTheLoopPlusTheResumeDelayAndThePoolCostsItsStandbyPrice() {
    StrategyResult none = strategy(warmPoolReport, "none");
    StrategyResult warm = strategy(warmPoolReport, "warm-pool");
    assertThat(warm.podWait().max()).isLessThanOrEqualTo(30.0).isLessThan(none.podWait().max());
    // at least four instances for (nearly) the whole run at the standby price, on top of the running nodes (all of
    // them general nodes)
    assertThat(warm.peakPerGroup().keySet()).containsExactly("general");
    double hours = warmPool.duration().toMillis() / 3_600_000.0;
    assertThat(warm.cost() - warm.nodeHours() * 0.192).isGreaterThan(4 * STANDBY_PRICE * (hours - 0.01));
  }

  @Test
  void theStandbyExampleShowsItsTradeOff() {
    Scenario s = ScenarioParser.parseFile(Path.of("..", "examples", "scenarios", "standby.yaml"));
    SimulationReport r = ScenarioRunner.run(s, s.seed(), 2, null);
    StrategyResult none = strategy(r, "none");
    StrategyResult active = strategy(r, "active");
    StrategyResult standby = strategy(r, "standby");
    // waits: between none and the active buffer, at most a loop plus the resume delay
    assertThat(standby.podWait().p95()).isLessThan(none.podWait().p95()).isGreaterThan(active.podWait().p95());
    assertThat(standby.podWait().max()).isLessThanOrEqualTo(30.0);
    // cost: well below the active buffer's, close to none's
    assertThat(standby.cost()).isGreaterThan(none.cost());
    assertThat(standby.cost() - none.cost()).isLessThan((active.cost() - none.cost()) / 4);
    assertThat(standby.peakBufferReplicas()).isEqualTo(14);
  }

  @Test
  void skippingIdleLoopsChangesNothingForAStandbyBuffer() {
    Scenario s = ScenarioParser.parseFile(Path.of("..", "examples", "scenarios", "standby.yaml"));
    Scenario.Strategy st = s.strategies().stream().filter(x -> x.name().equals("standby")).findFirst().orElseThrow();
    Simulation skipping = new Simulation(s, st, s.seed(), null);
    Simulation every = new Simulation(s, st, s.seed(), null).everyLoop();
    assertThat(skipping.run()).isEqualTo(every.run());
    assertThat(skipping.loopsSkipped()).isPositive();
    assertThat(skipping.loopsRun() + skipping.loopsSkipped()).isEqualTo(every.loopsRun());
  }

  private static TickSample withoutBufferReplicas(TickSample t) {
    return new TickSample(t.seconds(), t.nodes(), t.readyNodes(), t.pendingPods(), t.pendingBalloons(), t.oldestPendingSeconds(),
        t.maxWaitSeconds(), t.utilization(), 0, t.stoppedInstances(), t.workloads());
  }
}
