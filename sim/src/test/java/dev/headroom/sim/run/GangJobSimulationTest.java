package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.headroom.sim.report.HtmlReport;
import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.TextTable;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Gang jobs in the simulator: the rendezvous (start only when all workers are bound, give up and retry at the
 * timeout), the PodGroups reaching the core's all-or-nothing scale-up through the cluster view, and the
 * {@code gpu-training} example comparing no buffer, a plain buffer and a gang buffer.
 */
class GangJobSimulationTest {

  /** One GPU group of 8-GPU nodes; each worker takes a whole node. Line 9 is the group's sizes. */
  static String scenario(String sizes, String duration, String strategies) {
    return String.join("\n",
        "apiVersion: headroom.dev/v1alpha1",
        "kind: Scenario",
        "metadata: {name: gang}",
        "spec:",
        "  duration: " + duration,
        "  tick: 10s",
        "  slo: {podWait: 5m}",
        "  nodeGroups:",
        "    - {apiVersion: headroom.dev/v1alpha1, kind: NodeGroup, metadata: {name: gpu}, spec: {" + sizes
            + ", provisioningDelay: 3m, price: 30,"
            + " template: {status: {capacity: {cpu: \"96\", memory: 1Ti, nvidia.com/gpu: \"8\", pods: \"110\"}}}}}",
        "  gangJobs:",
        "    - name: train",
        "      workers: 4",
        "      requests: {cpu: \"90\", nvidia.com/gpu: \"8\"}",
        "      runTime: 20m",
        "      rendezvousTimeout: 5m",
        "      retryAfter: 1m",
        "  strategies:",
        strategies,
        "");
  }

  private static StrategyResult runOnly(String text) {
    Scenario s = ScenarioParser.parse("gang.yaml", text, null);
    return new Simulation(s, s.strategies().get(0), s.seed(), null).verifying().run();
  }

  @Test
  void partlyPlacedWorkersHoldTheirGpusUntilTheRendezvousTimesOutThenRetry() {
    // two fixed nodes for four one-node workers: two bind at 0 and wait, the attempt is given up at 5m, retried at
    // 6m (bound again at once), given up at 11m, 17m, 23m and 29m
    StrategyResult r = runOnly(scenario("minSize: 2, maxSize: 2, targetSize: 2", "30m", "    - type: none"));
    BatchResult.GangJobs g = r.batch().gangJobs();
    assertThat(g.jobs()).isEqualTo(1);
    assertThat(g.started()).isZero();
    assertThat(g.timeouts()).isEqualTo(5);
    // 5 attempts x 2 bound workers x 8 GPUs x 5 minutes
    assertThat(g.idleGpuHours()).isCloseTo(5 * 2 * 8 * 5 / 60.0, within(1e-9));
    assertThat(g.idleWorkerHours()).isCloseTo(5 * 2 * 5 / 60.0, within(1e-9));
    // the job never started: its delay is the whole run
    assertThat(g.startDelayMax()).isEqualTo(1800.0);
    assertThat(r.nodesAdded()).isZero();
  }

  @Test
  void thePodGroupMakesTheCoreScaleUpForAllWorkersOrNone() {
    // three nodes allowed, four needed: the core's all-or-nothing layer requests none (a per-pod scale-up would add 3)
    StrategyResult blocked = runOnly(scenario("minSize: 0, maxSize: 3, targetSize: 0", "1h", "    - type: none"));
    assertThat(blocked.nodesAdded()).isZero();
    assertThat(blocked.batch().gangJobs().started()).isZero();
    assertThat(blocked.batch().gangJobs().idleGpuHours()).isZero();
    // four allowed: one scale-up for the whole job, which starts when the nodes are Ready and completes
    StrategyResult fits = runOnly(scenario("minSize: 0, maxSize: 4, targetSize: 0", "1h", "    - type: none"));
    assertThat(fits.nodesAdded()).isEqualTo(4);
    assertThat(fits.scaleUps()).isEqualTo(1);
    BatchResult.GangJobs g = fits.batch().gangJobs();
    assertThat(g.started()).isEqualTo(1);
    assertThat(g.completed()).isEqualTo(1);
    assertThat(g.timeouts()).isZero();
    // the loop woken by the new demand once the 2s new-pod cooldown has passed (before the first 10s scan), then the
    // 3m provisioning delay
    assertThat(g.startDelayP50()).isEqualTo(182.0);
  }

  @Test
  void aGangBufferGetsRoomForTheWholeJobOrNone() {
    String plain = "    - {type: buffer, name: plain, buffers: [{gangJob: train, replicas: 4}]}";
    String gang = "    - {type: buffer, name: gang, buffers: [{gangJob: train, replicas: 4, gang: true}]}";
    // three nodes allowed: the plain buffer keeps three chunks of room, the gang buffer none
    StrategyResult p = runOnly(scenario("minSize: 0, maxSize: 3, targetSize: 0", "30m", plain));
    StrategyResult q = runOnly(scenario("minSize: 0, maxSize: 3, targetSize: 0", "30m", gang));
    assertThat(p.nodesAdded()).isEqualTo(3);
    assertThat(p.batch().gangJobs().idleGpuHours()).isPositive();
    assertThat(p.batch().gangJobs().timeouts()).isPositive();
    assertThat(q.nodesAdded()).isZero();
    assertThat(q.batch().gangJobs().idleGpuHours()).isZero();
    // the chunks fill whole nodes: room is never fragmented for this shape
    assertThat(p.batch().fragmentation()).singleElement().satisfies(f -> {
      assertThat(f.buffer()).isEqualTo("default/train-buffer");
      assertThat(f.shape()).isEqualTo("cpu 90, nvidia.com/gpu 8");
      assertThat(f.maxFragmented()).isZero();
    });
  }

  @Test
  void gpuTrainingExampleIsDeterministicAndShowsTheIdleGpuHoursTheGangBufferAvoids() {
    Scenario s = ScenarioParser.parseFile(Path.of("..", "examples", "scenarios", "gpu-training.yaml"));
    SimulationReport a = ScenarioRunner.run(s, s.seed(), 2, null);
    SimulationReport b = ScenarioRunner.run(s, s.seed(), 2, null);
    assertThat(SummaryJson.render(b)).isEqualTo(SummaryJson.render(a));
    assertThat(TextTable.render(b)).isEqualTo(TextTable.render(a));

    BatchResult.GangJobs none = a.strategies().get(0).batch().gangJobs();
    BatchResult.GangJobs plain = a.strategies().get(1).batch().gangJobs();
    BatchResult.GangJobs gang = a.strategies().get(2).batch().gangJobs();
    assertThat(a.strategies()).extracting(StrategyResult::name).containsExactly("none", "plain-buffer", "gang-buffer");
    // the same arrivals for every strategy
    assertThat(plain.jobs()).isEqualTo(none.jobs()).isEqualTo(gang.jobs()).isGreaterThan(10);
    assertThat(plain.idleGpuHours()).isGreaterThan(2);
    assertThat(plain.timeouts()).isPositive();
    assertThat(gang.idleGpuHours()).isLessThan(plain.idleGpuHours() / 10);
    assertThat(gang.timeouts()).isZero();
    // both buffers start the median job at once; without one it waits for nodes
    assertThat(none.startDelayP50()).isGreaterThan(gang.startDelayP50());
    // the inference pods (3 GPUs each, two per node) leave 2 GPUs on each of their nodes: one 4-GPU chunk lost
    for (int i = 1; i <= 2; i++) {
      assertThat(a.strategies().get(i).batch().fragmentation()).singleElement().satisfies(f -> {
        assertThat(f.shape()).isEqualTo("cpu 40, memory 450Gi, nvidia.com/gpu 4");
        assertThat(f.maxFragmented()).isEqualTo(1);
      });
    }

    String text = TextTable.render(a);
    assertThat(text).contains("Gang jobs (seed 1)").contains("idle GPU-hours").contains("Fragmentation (seed 1)");
    String json = SummaryJson.render(a);
    assertThat(json).contains("\"gangJobs\": [").contains("\"idleGpuHours\": ").contains("\"fragmentation\": [")
        .contains("\"maxFragmented\": 1");
    assertThat(HtmlReport.render(a)).contains("<h2>Gang jobs (seed 1)</h2>").contains("<h2>Fragmentation (seed 1)</h2>");
  }

  @Test
  void scenariosWithoutGangJobsOrBuffersPrintNoBatchSections() {
    Scenario s = ScenarioParser.parse("gang.yaml", scenario("minSize: 0, maxSize: 4, targetSize: 0", "10m",
        "    - type: none"), null);
    SimulationReport r = ScenarioRunner.run(s, 1, 1, null);
    assertThat(TextTable.render(r)).contains("Gang jobs").doesNotContain("Fragmentation");
    assertThat(SummaryJson.render(r)).doesNotContain("\"fragmentation\"");
  }
}
