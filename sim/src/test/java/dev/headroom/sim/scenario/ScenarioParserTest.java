package dev.headroom.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.api.v1beta1.CapacityBufferSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioParserTest {

  /** A small valid scenario; line numbers matter for the error cases below. */
  static final String BASE = String.join("\n",
      "apiVersion: headroom.dev/v1alpha1",           // 1
      "kind: Scenario",                              // 2
      "metadata:",                                   // 3
      "  name: small",                               // 4
      "spec:",                                       // 5
      "  duration: 30m",                             // 6
      "  tick: 5s",                                  // 7
      "  slo: {podWait: 5s}",                        // 8
      "  nodeGroups:",                               // 9
      "    - apiVersion: headroom.dev/v1alpha1",     // 10
      "      kind: NodeGroup",                       // 11
      "      metadata: {name: general}",             // 12
      "      spec:",                                 // 13
      "        maxSize: 5",                          // 14
      "        targetSize: 1",                       // 15
      "        provisioningDelay: 60s",              // 16
      "        template:",                           // 17
      "          status:",                           // 18
      "            capacity: {cpu: \"4\", memory: 16Gi}", // 19
      "  workloads:",                                // 20
      "    - name: web",                             // 21
      "      replicas: 2",                           // 22
      "      requests: {cpu: 500m, memory: 1Gi}",    // 23
      "      load:",                                 // 24
      "        perReplicaCapacity: 10",              // 25
      "        profile: {type: constant, rate: 15}", // 26
      "      autoscaling:",                          // 27
      "        type: hpa",                           // 28
      "        maxReplicas: 10",                     // 29
      "        metrics: [{metric: cpu, target: 60%}]", // 30
      "  strategies:",                               // 31
      "    - type: none",                            // 32
      "    - type: buffer",                          // 33
      "      buffers: [{workload: web, percentage: 20}]", // 34
      "");

  @Test
  void parsesAValidScenario() {
    Scenario s = ScenarioParser.parse("small.yaml", BASE, null);
    assertThat(s.name()).isEqualTo("small");
    assertThat(s.duration()).isEqualTo(Duration.ofMinutes(30));
    assertThat(s.nodeGroups()).hasSize(1);
    assertThat(s.nodeGroups().get(0).maxSize()).isEqualTo(5);
    assertThat(s.workloads().get(0).autoscaling()).isInstanceOf(Scenario.Hpa.class);
    assertThat(s.strategies()).extracting(Scenario.Strategy::name).containsExactly("none", "buffer-20pct");
    CapacityBufferSpec spec = ((Scenario.Buffers) s.strategies().get(1)).buffers().get(0).spec();
    assertThat(spec.getScalableRef().getName()).isEqualTo("web");
    assertThat(spec.getPercentage()).isEqualTo(20);
    assertThat(s.autoscalerOptions().scanInterval()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void theDefaultScenarioParses() {
    Scenario s = DefaultScenario.load();
    assertThat(s.nodeGroups()).hasSize(3);
    assertThat(s.strategies()).extracting(Scenario.Strategy::name)
        .containsExactly("none", "balloon", "buffer-10pct", "buffer-30pct", "warm-pool");
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of("unknown top-level spec field", BASE.replace("  tick: 5s", "  tik: 5s"), 7, "spec.tik: unknown field"),
        Arguments.of("bad duration", BASE.replace("duration: 30m", "duration: 30 minutes"), 6, "spec.duration: invalid duration"),
        Arguments.of("missing SLO", BASE.replace("  slo: {podWait: 5s}", "  seed: 3"), 6, "spec.slo is required"),
        Arguments.of("node group field", BASE.replace("maxSize: 5", "maxSize: five"), 14, "spec.maxSize"),
        Arguments.of("node group unknown field", BASE.replace("        targetSize: 1", "        targetSiz: 1"), 15, "unknown field"),
        Arguments.of("node group capacity", BASE.replace("{cpu: \"4\", memory: 16Gi}", "{cpu: \"4\"}"), 19, "must contain memory"),
        Arguments.of("load profile type", BASE.replace("type: constant", "type: sawtooth"), 26, "unknown load profile type \"sawtooth\""),
        Arguments.of("metric", BASE.replace("metric: cpu", "metric: gpu"), 30, "unknown metric \"gpu\""),
        Arguments.of("buffer workload", BASE.replace("workload: web, percentage", "workload: api, percentage"), 34, "no workload named \"api\""),
        Arguments.of("strategy type", BASE.replace("    - type: none", "    - type: nothing"), 32, "unknown strategy type"),
        Arguments.of("duplicate strategy", BASE.replace("    - type: buffer\n      buffers: [{workload: web, percentage: 20}]", "    - type: none"), 33, "duplicate strategy name \"none\""),
        Arguments.of("quantity", BASE.replace("cpu: 500m, memory: 1Gi", "cpu: lots, memory: 1Gi"), 23, "not a Kubernetes quantity"),
        Arguments.of("autoscaler option", BASE.replace("  tick: 5s", "  tick: 5s\n  autoscaler: {scanInterval: soon}"), 8, "scan-interval"),
        Arguments.of("YAML syntax", BASE.replace("  tick: 5s", "  tick: [5s"), 8, "YAML syntax error"),
        Arguments.of("HPA to zero on CPU", BASE.replace("        maxReplicas: 10", "        minReplicas: 0\n        maxReplicas: 10"), 29, "minReplicas 0 needs a queue metric"),
        Arguments.of("wrong kind", BASE.replace("kind: Scenario", "kind: Scenery"), 2, "kind must be Scenario"),
        Arguments.of("provisioning strategy", BASE.replace("{workload: web, percentage: 20}",
            "{workload: web, percentage: 20, provisioningStrategy: buffer.x-k8s.io/cold-capacity}"), 34,
            "unknown provisioningStrategy \"buffer.x-k8s.io/cold-capacity\" (use buffer.x-k8s.io/active-capacity or"
                + " buffer.headroom.dev/standby-capacity)"),
        Arguments.of("standby buffer without a standby group", BASE.replace("{workload: web, percentage: 20}",
            "{workload: web, percentage: 20, provisioningStrategy: buffer.headroom.dev/standby-capacity}"), 34,
            "needs a node group with spec.standby"),
        Arguments.of("scale writes out of order", BASE.replace("{workload: web, percentage: 20}",
            "{workload: web, replicas: 2, scale: [{at: 20m, replicas: 6}, {at: 10m, replicas: 1}]}"), 34,
            "scale writes must be in time order: 10m0s is not after 20m0s"),
        Arguments.of("scale write of negative replicas", BASE.replace("{workload: web, percentage: 20}",
            "{workload: web, replicas: 2, scale: [{at: 20m, replicas: -1}]}"), 34, "replicas"));
  }

  @Test
  void aBuffersScaleWritesAreParsedInOrder() {
    Scenario s = ScenarioParser.parse("x.yaml", BASE.replace("{workload: web, percentage: 20}",
        "{workload: web, replicas: 2, scale: [{at: 10m, replicas: 6}, {at: 20m, replicas: 0}]}"), null);
    assertThat(((Scenario.Buffers) s.strategies().get(1)).buffers().get(0).scale()).containsExactly(
        new Scenario.ScaleStep(Duration.ofMinutes(10), 6), new Scenario.ScaleStep(Duration.ofMinutes(20), 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void errorsNameFileAndLine(String name, String text, int line, String message) {
    assertThatThrownBy(() -> ScenarioParser.parse("bad.yaml", text, null))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("bad.yaml:" + line + ": ")
        .hasMessageContaining(message);
  }

  @Test
  void aBufferMayNameTheActiveOrTheStandbyStrategy() {
    String standbyGroup = BASE.replace("        provisioningDelay: 60s", "        provisioningDelay: 60s\n        standby: {resumeDelay: 20s}");
    Scenario s = ScenarioParser.parse("x.yaml", standbyGroup.replace("{workload: web, percentage: 20}",
        "{workload: web, replicas: 4, provisioningStrategy: buffer.headroom.dev/standby-capacity}"), null);
    CapacityBufferSpec spec = ((Scenario.Buffers) s.strategies().get(1)).buffers().get(0).spec();
    assertThat(spec.getProvisioningStrategy()).isEqualTo("buffer.headroom.dev/standby-capacity");
    // the group's standby price defaults to a tenth of its price (core's NodeGroup document)
    assertThat(s.nodeGroups().get(0).standby().resumeDelay()).isEqualTo(Duration.ofSeconds(20));
    Scenario active = ScenarioParser.parse("x.yaml", BASE.replace("{workload: web, percentage: 20}",
        "{workload: web, percentage: 20, provisioningStrategy: buffer.x-k8s.io/active-capacity}"), null);
    assertThat(((Scenario.Buffers) active.strategies().get(1)).buffers().get(0).spec().getProvisioningStrategy())
        .isEqualTo("buffer.x-k8s.io/active-capacity");
  }

  @Test
  void nodeGroupsMayFollowAsFurtherDocuments(@TempDir Path dir) throws Exception {
    String groups = BASE.substring(BASE.indexOf("    - apiVersion"), BASE.indexOf("  workloads:"))
        .replace("    - apiVersion", "apiVersion").replace("\n      ", "\n");
    String text = BASE.substring(0, BASE.indexOf("  nodeGroups:")) + BASE.substring(BASE.indexOf("  workloads:"))
        + "---\n" + groups;
    Path f = dir.resolve("multi.yaml");
    Files.writeString(f, text);
    Scenario s = ScenarioParser.parseFile(f);
    assertThat(s.nodeGroups()).extracting(g -> g.id()).containsExactly("general");
  }

  @Test
  void traceHeadersMayStartWithAByteOrderMark(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("load.csv"), "\uFEFFtime,rate\n0,10\n60,20\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Path f = dir.resolve("trace.yaml");
    Files.writeString(f, BASE.replace("{type: constant, rate: 15}", "{type: trace, file: load.csv}"));
    assertThat(ScenarioParser.parseFile(f).workloads().get(0).load().profile().rateAt(60)).isEqualTo(20);
    Files.write(dir.resolve("load.csv"), new byte[] {'t', 'i', 'm', 'e', ',', 'r', 'a', 't', 'e', '\n', '0', ',', (byte) 0xff, '\n'});
    assertThatThrownBy(() -> ScenarioParser.parseFile(f)).hasMessageStartingWith("load.csv:2: not UTF-8 text");
    assertThatThrownBy(() -> ScenarioParser.parseFile(dir.resolve("missing.yaml")))
        .hasMessage(dir.resolve("missing.yaml") + ":1: cannot read the scenario: no such file");
  }

  @Test
  void anchorsAliasesAndMergeKeysAreAcceptedAndDuplicateKeysAreNot() {
    String text = BASE.replace("      requests: {cpu: 500m, memory: 1Gi}", "      requests: &req {cpu: 500m, memory: 1Gi}")
        .replace("    - type: none", "    - type: balloon\n      replicas: 1\n      requests: {<<: *req, cpu: 250m}");
    Scenario s = ScenarioParser.parse("a.yaml", text, null);
    Scenario.Balloon b = (Scenario.Balloon) s.strategies().get(0);
    assertThat(b.pod().getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", new io.fabric8.kubernetes.api.model.Quantity("250m"))
        .containsEntry("memory", new io.fabric8.kubernetes.api.model.Quantity("1Gi"));
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("  tick: 5s", "  tick: 5s\n  tick: 10s"), null))
        .hasMessage("a.yaml:8: duplicate key \"tick\" (first at line 7)");
  }

  @Test
  void durationsTicksAndIntervalsAreBounded() {
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("  duration: 30m", "  duration: 87600h"), null))
        .hasMessage("a.yaml:6: spec.duration: duration 87600h is longer than the maximum 2160h (90d)");
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("  duration: 30m", "  duration: 30d").replace("  tick: 5s", "  tick: 1s"), null))
        .hasMessageContaining("more than the maximum 200000");
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("  tick: 5s", "  tick: 5s\n  autoscaler: {scanInterval: 0s}"), null))
        .hasMessageContaining("must be at least 1s");
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("  tick: 5s", "  tick: 5s\n  model: {bufferSyncInterval: 1ms}"), null))
        .hasMessage("a.yaml:8: spec.model.bufferSyncInterval: must be at least 1s");
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("  tick: 5s", "  tick: 5s\n  autoscaler: {expander: cheapest}"), null))
        .hasMessageStartingWith("a.yaml:8: spec.autoscaler.expander: unknown expander \"cheapest\"");
    assertThatThrownBy(() -> ScenarioParser.parse("a.yaml", BASE.replace("percentage: 20", "percentage: 1e30"), null))
        .hasMessageContaining("must be at most 2147483647");
    assertThat(ScenarioParser.parse("a.yaml", BASE.replace("  duration: 30m", "  duration: 7d").replace("  tick: 5s", "  tick: 60s"), null)
        .duration()).isEqualTo(java.time.Duration.ofDays(7));
  }

  @Test
  void traceFilesAreReadRelativeToTheScenarioWithLineNumbers(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("load.csv"), "time,rate\n0,10\n60s,20\n# comment\n120,15\n");
    Path f = dir.resolve("trace.yaml");
    Files.writeString(f, BASE.replace("{type: constant, rate: 15}", "{type: trace, file: load.csv, scale: 2}"));
    Scenario s = ScenarioParser.parseFile(f);
    LoadProfile p = s.workloads().get(0).load().profile();
    assertThat(p.rateAt(30)).isEqualTo(30);
    assertThat(p.rateAt(120)).isEqualTo(30);

    Files.writeString(dir.resolve("load.csv"), "time,rate\n0,10\n60,abc\n");
    assertThatThrownBy(() -> ScenarioParser.parseFile(f)).hasMessage("load.csv:3: rate \"abc\" is not a number");
    Files.writeString(dir.resolve("load.csv"), "time,rate\n60,10\n30,20\n");
    assertThatThrownBy(() -> ScenarioParser.parseFile(f)).hasMessageStartingWith("load.csv:3: times must increase");
    Files.writeString(dir.resolve("load.csv"), "t,r\n");
    assertThatThrownBy(() -> ScenarioParser.parseFile(f)).hasMessage("load.csv:1: the first line must be the header time,rate");
  }

  @Test
  void everyProfileAndStrategyKindParses() {
    String text = BASE
        .replace("profile: {type: constant, rate: 15}", "profile: {type: step, rate: 5, steps: [{at: 10m, rate: 20}]}")
        .replace("    - type: none", String.join("\n",
            "    - type: none",
            "    - type: balloon",
            "      replicas: 3",
            "    - type: warm-pool",
            "      nodeGroup: general",
            "      size: 2"));
    Scenario s = ScenarioParser.parse("x.yaml", text, null);
    assertThat(s.strategies()).extracting(Scenario.Strategy::name).containsExactly("none", "balloon", "warm-pool", "buffer-20pct");
    Scenario.Balloon b = (Scenario.Balloon) s.strategies().get(1);
    assertThat(b.priority()).isEqualTo(ScenarioParser.FAQ_BALLOON_PRIORITY);
    assertThat(b.pod().getContainers().get(0).getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(b.pod().getContainers().get(0).getImage()).isEqualTo(ScenarioParser.PAUSE_IMAGE);
    assertThat(s.workloads().get(0).load().profile().rateAt(601)).isEqualTo(20);
    List<String> diurnal = List.of("{type: diurnal, min: 1, max: 9, peakAt: 12h}", "{type: spikes, base: 1, spikes: [{at: 1m, duration: 2m, rate: 5}]}");
    for (String p : diurnal) {
      assertThat(ScenarioParser.parse("x.yaml", BASE.replace("{type: constant, rate: 15}", p), null).workloads()).hasSize(1);
    }
  }
}
