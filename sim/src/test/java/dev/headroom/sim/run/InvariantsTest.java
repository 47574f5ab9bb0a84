package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.TickCsv;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Model invariants on small scenarios built for them. */
class InvariantsTest {

  /** One 4-CPU node, a workload of 1-CPU pods whose load steps up at 10 minutes. */
  static String scenario(String strategies, int maxSize) {
    return String.join("\n",
        "apiVersion: headroom.dev/v1alpha1",
        "kind: Scenario",
        "metadata: {name: tiny}",
        "spec:",
        "  duration: 40m",
        "  tick: 5s",
        "  seed: 11",
        "  slo: {podWait: 5s}",
        "  model: {preemptionDelay: 7s, metricsDelay: 15s}",
        "  nodeGroups:",
        "    - apiVersion: headroom.dev/v1alpha1",
        "      kind: NodeGroup",
        "      metadata: {name: small}",
        "      spec:",
        "        minSize: 1",
        "        maxSize: " + maxSize,
        "        targetSize: 1",
        "        price: 1",
        "        provisioningDelay: 60s",
        "        template:",
        "          status:",
        "            capacity: {cpu: \"4\", memory: 16Gi}",
        "  workloads:",
        "    - name: app",
        "      replicas: 2",
        "      startupTime: 5s",
        "      requests: {cpu: \"1\", memory: 1Gi}",
        "      load:",
        "        perReplicaCapacity: 10",
        "        profile: {type: step, rate: 10, steps: [{at: 10m, rate: 60}]}",
        "      autoscaling:",
        "        type: hpa",
        "        minReplicas: 2",
        "        maxReplicas: 20",
        "        metrics: [{metric: queue, target: 5}, {metric: cpu, target: 80%}]",
        "  strategies:",
        strategies,
        "");
  }

  static StrategyResult run(String text, String strategy) {
    Scenario s = ScenarioParser.parse("tiny.yaml", text, null);
    Scenario.Strategy st = s.strategies().stream().filter(x -> x.name().equals(strategy)).findFirst().orElseThrow();
    Simulation sim = new Simulation(s, st, s.seed(), null).verifying();
    StrategyResult r = sim.run();
    assertThat(sim.idleRoomViolations()).as("pending real pods while a Ready node had room").isZero();
    return r;
  }

  @Test
  void aRealPodNeverWaitsForAVirtualPod() {
    // the buffer's two virtual pods reserve the node's spare room; when the workload grows, its real pods take
    // that room at once (they do not wait behind the virtual pods) and the autoscaler adds a node for the buffer
    String text = scenario("    - type: buffer\n      buffers: [{workload: app, replicas: 2}]", 6);
    StrategyResult buffer = run(text, "buffer-2");
    assertThat(buffer.ticks().get(100).bufferReplicas()).isEqualTo(2);
    assertThat(buffer.ticks().get(100).nodes()).as("virtual pods fit the existing node: no scale-up yet").isEqualTo(1);
    long firstWave = buffer.ticks().stream().filter(t -> t.seconds() >= 600 && t.seconds() < 640)
        .filter(t -> t.maxWaitSeconds() > 0).count();
    assertThat(firstWave).as("pods created when the load steps up bind without waiting").isZero();
    assertThat(buffer.nodesAdded()).isPositive();
  }

  @Test
  void balloonsArePreemptedAfterTheConfiguredDelayAndRecreated() {
    String text = scenario("    - type: balloon\n      replicas: 2\n      requests: {cpu: \"1\", memory: 1Gi}", 6);
    StrategyResult balloon = run(text, "balloon");
    assertThat(balloon.preemptedPods()).isPositive();
    assertThat(balloon.ticks()).anySatisfy(t -> assertThat(t.maxWaitSeconds()).isEqualTo(7.0));
    assertThat(balloon.ticks()).anySatisfy(t -> assertThat(t.pendingBalloons()).isPositive());
  }

  @Test
  void maxSizeHoldsEvenWhenDemandExceedsIt() {
    String text = scenario("    - type: none", 2);
    StrategyResult none = run(text, "none");
    assertThat(none.peakPerGroup().get("small")).isEqualTo(2);
    assertThat(none.ticks()).allSatisfy(t -> assertThat(t.nodes()).isLessThanOrEqualTo(2));
    // the demand that does not fit keeps waiting until the end and counts with its wait so far
    assertThat(none.podsOverSlo()).isPositive();
  }

  @Test
  void skippingIdleAutoscalerLoopsChangesNothing() {
    String text = scenario(String.join("\n",
        "    - type: none",
        "    - type: buffer",
        "      buffers: [{workload: app, replicas: 2}]",
        "    - type: balloon",
        "      replicas: 2",
        "      requests: {cpu: \"1\", memory: 1Gi}"), 6);
    Scenario s = ScenarioParser.parse("tiny.yaml", text, null);
    for (Scenario.Strategy st : s.strategies()) {
      Simulation skipping = new Simulation(s, st, s.seed(), null);
      Simulation every = new Simulation(s, st, s.seed(), null).everyLoop();
      StrategyResult a = skipping.run();
      StrategyResult b = every.run();
      SimulationReport ra = new SimulationReport("t", "", 1, 1, 1, 1, List.of("app"), List.of(a));
      SimulationReport rb = new SimulationReport("t", "", 1, 1, 1, 1, List.of("app"), List.of(b));
      assertThat(TickCsv.render(ra)).as(st.name()).isEqualTo(TickCsv.render(rb));
      assertThat(SummaryJson.render(ra)).as(st.name()).isEqualTo(SummaryJson.render(rb));
      assertThat(every.loopsSkipped()).isZero();
      assertThat(skipping.loopsRun() + skipping.loopsSkipped()).isEqualTo(every.loopsRun());
    }
  }

  @Test
  void skippingOnTheWebSpikeScenarioChangesNothing() {
    // three node groups, scale-downs with unremovable rechecks and cooldowns, balloons preempted with a delay
    Scenario s = ScenarioParser.parseFile(java.nio.file.Path.of("..", "examples", "scenarios", "web-spike.yaml"));
    long skipped = 0;
    for (Scenario.Strategy st : s.strategies()) {
      Simulation skipping = new Simulation(s, st, s.seed(), null);
      Simulation every = new Simulation(s, st, s.seed(), null).everyLoop();
      StrategyResult a = skipping.run();
      StrategyResult b = every.run();
      assertThat(a).as(st.name()).isEqualTo(b);
      assertThat(skipping.loopsRun() + skipping.loopsSkipped()).isEqualTo(every.loopsRun());
      skipped += skipping.loopsSkipped();
    }
    assertThat(skipped).isPositive();
  }

  @Test
  void aScheduledBufferHoldsReplicasOnlyInsideItsWindow() {
    // the buffer controller's own schedule overlay switches the buffer on at 00:20 (UTC, the simulated clock's zone);
    // the simulated controller re-reconciles at that boundary, as the cluster runtime does
    String text = scenario(String.join("\n",
        "    - type: buffer",
        "      buffers: [{workload: app, replicas: 3, activeSchedule: \"Mon-Sun 00:20-01:00 UTC\"}]"), 6);
    StrategyResult r = run(text, "buffer-3");
    for (TickSample t : r.ticks()) {
      if (t.seconds() < 20 * 60) {
        assertThat(t.bufferReplicas()).as("at " + t.seconds()).isZero();
      } else if (t.seconds() >= 20 * 60 + 10) {
        assertThat(t.bufferReplicas()).as("at " + t.seconds()).isEqualTo(3);
      }
    }
  }
}
