package dev.headroom.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.core.autoscaler.PodGroups;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The {@code gangJobs} workload type and buffers on a gang job's workers. */
class GangJobParsingTest {

  /** A GPU scenario with one gang job and a gang buffer; line numbers matter for the error cases. */
  static final String GANG = String.join("\n",
      "apiVersion: headroom.dev/v1alpha1",           // 1
      "kind: Scenario",                              // 2
      "metadata: {name: gang}",                      // 3
      "spec:",                                       // 4
      "  duration: 2h",                              // 5
      "  slo: {podWait: 5m}",                        // 6
      "  nodeGroups:",                               // 7
      "    - apiVersion: headroom.dev/v1alpha1",     // 8
      "      kind: NodeGroup",                       // 9
      "      metadata: {name: gpu}",                 // 10
      "      spec:",                                 // 11
      "        maxSize: 4",                          // 12
      "        provisioningDelay: 5m",               // 13
      "        template:",                           // 14
      "          status:",                           // 15
      "            capacity: {cpu: \"96\", memory: 1Ti, nvidia.com/gpu: \"8\"}", // 16
      "  gangJobs:",                                 // 17
      "    - name: train",                           // 18
      "      namespace: ml",                         // 19
      "      workers: 4",                            // 20
      "      requests: {cpu: \"40\", nvidia.com/gpu: \"4\"}", // 21
      "      start: 10m",                            // 22
      "      every: 30m",                            // 23
      "      runTime: 1h",                           // 24
      "      rendezvousTimeout: 5m",                 // 25
      "      retryAfter: 30s",                       // 26
      "  strategies:",                               // 27
      "    - type: buffer",                          // 28
      "      buffers:",                              // 29
      "        - gangJob: train",                    // 30
      "          replicas: 4",                       // 31
      "          gang: true",                        // 32
      "          gangTopologyKey: topology.kubernetes.io/zone", // 33
      "");

  @Test
  void parsesAGangJobAndAGangBufferOnItsWorkers() {
    Scenario s = ScenarioParser.parse("gang.yaml", GANG, null);
    assertThat(s.workloads()).isEmpty();
    Scenario.GangJob j = s.gangJobs().get(0);
    assertThat(j.name()).isEqualTo("train");
    assertThat(j.namespace()).isEqualTo("ml");
    assertThat(j.workers()).isEqualTo(4);
    assertThat(j.start()).isEqualTo(Duration.ofMinutes(10));
    assertThat(j.every()).isEqualTo(Duration.ofMinutes(30));
    assertThat(j.arrivals()).isNull();
    assertThat(j.runTime()).isEqualTo(Duration.ofHours(1));
    assertThat(j.rendezvousTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(j.retryAfter()).isEqualTo(Duration.ofSeconds(30));
    assertThat(j.pod().getContainers().get(0).getResources().getRequests().get("nvidia.com/gpu").toString())
        .isEqualTo("4");

    Scenario.BufferDef b = ((Scenario.Buffers) s.strategies().get(0)).buffers().get(0);
    assertThat(b.name()).isEqualTo("train-buffer");
    assertThat(b.namespace()).isEqualTo("ml");
    assertThat(b.spec().getReplicas()).isEqualTo(4);
    assertThat(b.spec().getScalableRef()).isNull();
    assertThat(b.spec().getPodTemplateRef().getName()).isEqualTo("train-buffer-worker");
    assertThat(b.podTemplate().getMetadata().getName()).isEqualTo("train-buffer-worker");
    assertThat(b.podTemplate().getTemplate().getSpec()).isEqualTo(j.pod());
    assertThat(b.annotations()).isEqualTo(Map.of(PodGroups.GANG_ANNOTATION, "true",
        PodGroups.GANG_TOPOLOGY_KEY_ANNOTATION, "topology.kubernetes.io/zone"));
  }

  @Test
  void defaultsAndPoissonArrivals() {
    Scenario s = ScenarioParser.parse("gang.yaml", GANG
        .replace("      every: 30m", "      arrivals: {type: constant, rate: 2}")
        .replace("      rendezvousTimeout: 5m\n", "").replace("      retryAfter: 30s\n", "")
        .replace("          gang: true\n", "").replace("          gangTopologyKey: topology.kubernetes.io/zone\n", ""),
        null);
    Scenario.GangJob j = s.gangJobs().get(0);
    assertThat(j.arrivals()).isEqualTo(new LoadProfile.Constant(2));
    assertThat(j.rendezvousTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(j.retryAfter()).isEqualTo(Duration.ofMinutes(1));
    assertThat(((Scenario.Buffers) s.strategies().get(0)).buffers().get(0).annotations()).isEmpty();
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(GANG.replace("      workers: 4", "      workers: 0"), 20, "workers"),
        Arguments.of(GANG.replace("      workers: 4\n", ""), 18, "workers"),
        Arguments.of(GANG.replace("      every: 30m", "      every: 30m\n      arrivals: {type: constant, rate: 1}"),
            24, "use either every (a schedule) or arrivals (jobs per hour), not both"),
        Arguments.of(GANG.replace("      start: 10m", "      start: 3h"), 22, "must be earlier than spec.duration"),
        Arguments.of(GANG.replace("      rendezvousTimeout: 5m", "      rendezvousTimeout: 0s"), 25,
            "must be longer than 0"),
        Arguments.of(GANG.replace("      retryAfter: 30s", "      retryAfter: soon"), 26, ""),
        Arguments.of(GANG.replace("      runTime: 1h", "      runtime: 1h"), 24, "runtime"),
        Arguments.of(GANG.replace("        - gangJob: train", "        - gangJob: tune"), 30, "no gang job named \"tune\""),
        Arguments.of(GANG.replace("        - gangJob: train", "        - gangJob: train\n          workload: web"), 30,
            "exactly one of workload (a Deployment's pods) or gangJob (a gang job's workers)"),
        Arguments.of(GANG.replace("          replicas: 4", "          percentage: 50"), 31,
            "has no workload to take a percentage of"),
        Arguments.of(GANG.replace("          gang: true\n", ""), 32, "gangTopologyKey needs gang: true"),
        Arguments.of(GANG.replace("          gang: true", "          gang: maybe"), 32, ""),
        Arguments.of(GANG.replace("    - name: train", "    - name: Train"), 18, "DNS-1123"),
        Arguments.of(GANG.replace("          replicas: 4", "          replicas: 4\n          consumerSelector: \"app in (x\""), 32,
            "headroom.dev/consumer-selector \"app in (x\": "),
        Arguments.of(GANG.replace("          replicas: 4", "          replicas: 4\n          refillStrategy: none"), 30,
            "headroom.dev/consumer-selector is required with [headroom.dev/refill-strategy]"),
        Arguments.of(GANG.replace("          replicas: 4", "          replicas: 4\n          consumerSelector: app=train\n          refillStrategy: once"), 33,
            "headroom.dev/refill-strategy \"once\": must be recreate or none"),
        Arguments.of(GANG.replace("          replicas: 4", "          replicas: 4\n          consumerSelector: app=train\n          fillDeadline: 1h"), 33,
            "needs headroom.dev/refill-strategy: none"),
        Arguments.of(GANG.replace("          replicas: 4", "          replicas: 4\n          consumerSelector: app=train\n          refillStrategy: none\n          fillDeadline: 0s"), 34,
            "must be a positive whole number of seconds"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void badInputNamesFileAndLine(String text, int line, String message) {
    assertThatThrownBy(() -> ScenarioParser.parse("bad.yaml", text, null))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("bad.yaml:" + line + ": ")
        .hasMessageContaining(message);
  }
}
