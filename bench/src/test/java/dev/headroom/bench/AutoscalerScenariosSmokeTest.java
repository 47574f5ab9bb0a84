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
  void scenariosAreRegistered() {
    assertThat(Scenarios.byName("runonce-scaleup")).isPresent();
    assertThat(Scenarios.byName("buffers")).isPresent();
  }
}
