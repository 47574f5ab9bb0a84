package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #26 item 1 in the simulator: {@code examples/scenarios/buffer-scale.yaml}, a buffer a cron job sizes through
 * its {@code /scale} subresource around four known spikes (2 between them, 14 from five minutes before each), against a
 * fixed buffer of 14. The writes reach the buffer's status through the buffer controller, the scaled buffer keeps
 * the fixed one's waits, and it costs fewer node-hours.
 */
class BufferScaleSimulationTest {

  static SimulationReport report;

  @BeforeAll
  static void run() throws Exception {
    Scenario s = ScenarioParser.parseFile(Path.of("..", "examples", "scenarios", "buffer-scale.yaml"));
    report = ScenarioRunner.run(s, s.seed(), 2, null);
  }

  static StrategyResult strategy(String name) {
    return report.strategies().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
  }

  /** The buffer's status.replicas at the tick of {@code seconds}. */
  static int replicasAt(StrategyResult r, long seconds) {
    return r.ticks().stream().filter(t -> t.seconds() == seconds).findFirst().orElseThrow().bufferReplicas();
  }

  @Test
  void theScaleWritesReachTheBuffersStatus() {
    StrategyResult scaled = strategy("scaled");
    assertThat(replicasAt(scaled, 20 * 60)).isEqualTo(2);
    // written at 25m; the controller's next sync (10 s) translates it
    assertThat(replicasAt(scaled, 25 * 60 + 30)).isEqualTo(14);
    assertThat(replicasAt(scaled, 65 * 60 + 30)).isEqualTo(2);
    assertThat(replicasAt(scaled, 105 * 60 + 30)).isEqualTo(14);
    assertThat(replicasAt(strategy("fixed-14"), 65 * 60 + 30)).isEqualTo(14);
  }

  @Test
  void theScaledBufferKeepsTheFixedOnesWaitsForFewerNodeHours() {
    StrategyResult fixed = strategy("fixed-14");
    StrategyResult scaled = strategy("scaled");
    StrategyResult none = strategy("none");
    assertThat(scaled.podsOverSlo()).isEqualTo(fixed.podsOverSlo()).isZero();
    assertThat(none.podsOverSlo()).isPositive();
    assertThat(scaled.nodeHours()).isLessThan(fixed.nodeHours() * 0.95).isGreaterThan(none.nodeHours());
    assertThat(scaled.cost()).isLessThan(fixed.cost());
  }
}
