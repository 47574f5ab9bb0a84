package dev.headroom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The two autoscaler-loop scenarios at tiny sizes: the documented plan comes out, through the runner. */
class AutoscalerScenariosSmokeTest {

  @Test
  void runOnceScaleUpPlansOneNodePerFiftyPods() {
    Scenario.Outcome o = new RunOnceScaleUp().prepare(500).run();
    assertThat(o).isEqualTo(new Scenario.Outcome(500, 500, 10));
    BenchResult r = BenchRunner.run(new RunOnceScaleUp(), 250, 0, 1);
    assertThat(r.nodes()).isEqualTo(5);
    assertThat(r.toJson()).startsWith("{\"benchmark\":\"runonce-scaleup\",\"pods\":250,\"nodes\":5,");
  }

  @Test
  void buffersFitOnExistingCapacity() {
    // 200 virtual pods: 20 buffers x 10 chunks on 50 nodes holding 1,000 scheduled pods.
    BufferedCluster.Cluster c = BufferedCluster.cluster(200);
    assertThat(c.view().nodes()).hasSize(50);
    assertThat(c.view().pods()).hasSize(1_000);
    assertThat(c.view().buffers()).hasSize(20);
    Scenario.Outcome o = new BufferedCluster().prepare(200).run();
    assertThat(o).isEqualTo(new Scenario.Outcome(200, 200, 50));
  }

  @Test
  void runOnceScaleDownDeletesSixtyPercentOfTheNodes() {
    // 50 nodes at 40 %: the pods of 30 fit, exactly, on the other 20.
    assertThat(RunOnceScaleDown.expectedDeletions(2_000)).isEqualTo(1_200);
    Scenario.Outcome o = new RunOnceScaleDown().prepare(50).run();
    assertThat(o).isEqualTo(new Scenario.Outcome(30, 30, 20));
    BenchResult r = BenchRunner.run(new RunOnceScaleDown(), 50, 0, 1);
    assertThat(r.toJson()).startsWith("{\"benchmark\":\"runonce-scaledown\",\"pods\":30,\"nodes\":20,").doesNotContain("metrics");
  }

  @Test
  void scaleDownEfficiencyPacksTheThreeGroups() {
    // big-node-1 (11 %), then mod-node-2 and mod-node-3 (25 %) go, one a loop; the fourth loop deletes nothing.
    ScaleDownEfficiency.Result r = ScaleDownEfficiency.run(ScaleDownEfficiency.nodes(1), ScaleDownEfficiency.pods(1), 1);
    assertThat(r).isEqualTo(new ScaleDownEfficiency.Result(4, 6, 3, 6.0 / 23, 1.0, 0.1, 0.2, 0));
    BenchResult b = BenchRunner.run(new ScaleDownEfficiency(), 6, 0, 1);
    assertThat(b.toJson()).contains("\"metrics\":{\"cpuUtilizationAfter\":1.000000,\"cpuUtilizationBefore\":0.260870,\"loops\":4.000000,");
  }

  @Test
  void scenariosAreRegistered() {
    assertThat(Scenarios.byName("runonce-scaledown")).isPresent();
    assertThat(Scenarios.byName("scaledown-efficiency")).isPresent();
    assertThat(Scenarios.byName("runonce-scaleup")).isPresent();
    assertThat(Scenarios.byName("buffers")).isPresent();
  }
}
