package dev.headroom.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.run.ScenarioRunner;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom scenario import} on the shipped kubectl dump. */
class ScenarioImportTest {

  static final Path DUMP = Path.of("..", "examples", "import", "cluster-dump.yaml");

  @Test
  void theDumpBecomesAScenarioTheSimulatorRuns(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("imported.yaml");
    SimulateCommandTest.Run r = SimulateCommandTest.run(ScenarioCommand.NAME, ScenarioCommand.Import.NAME, "-f", DUMP.toString(),
        "-o", out.toString(), "--name", "shop");
    assertThat(r.code()).as(r.err()).isZero();
    Scenario s = ScenarioParser.parseFile(out);
    assertThat(s.name()).isEqualTo("shop");
    // node groups: the EKS group in two zones and the Karpenter pool, allocatable and node count as observed
    assertThat(s.nodeGroups()).extracting(g -> g.id()).containsExactly("batch-c6i-2xlarge-eu-west-1a-spot",
        "general-m5-xlarge-eu-west-1a-on-demand", "general-m5-xlarge-eu-west-1b-on-demand");
    assertThat(s.nodeGroups()).extracting(g -> g.targetSize()).containsExactly(1, 2, 2);
    assertThat(s.nodeGroups().get(1).template().getStatus().getAllocatable().get("cpu").toString()).isEqualTo("3920m");
    assertThat(s.nodeGroups().get(0).template().getSpec().getTaints()).singleElement()
        .satisfies(t -> assertThat(t.getKey()).isEqualTo("workload"));
    // workloads with their replicas and requests; the StatefulSet too
    assertThat(s.workloads()).extracting(Scenario.Workload::name).containsExactly("web", "checkout", "orders-worker",
        "reports", "postgres");
    Scenario.Workload web = s.workloads().get(0);
    assertThat(web.namespace()).isEqualTo("shop");
    assertThat(web.replicas()).isEqualTo(12);
    assertThat(dev.headroom.core.resources.EffectiveRequests.of(web.pod())).containsEntry("cpu", 250L);
    // HPA v2 and the ScaledObject mapped to the workload autoscaler
    Scenario.Hpa hpa = (Scenario.Hpa) web.autoscaling();
    assertThat(hpa.minReplicas()).isEqualTo(6);
    assertThat(hpa.maxReplicas()).isEqualTo(120);
    assertThat(hpa.scaleDownStabilization()).isEqualTo(Duration.ofMinutes(10));
    assertThat(hpa.metrics()).containsExactly(new Scenario.MetricTarget(Scenario.MetricName.CPU, 60));
    Scenario.Keda keda = (Scenario.Keda) s.workloads().get(2).autoscaling();
    assertThat(keda.metrics()).containsExactly(new Scenario.MetricTarget(Scenario.MetricName.QUEUE, 50),
        new Scenario.MetricTarget(Scenario.MetricName.CPU, 75));
    assertThat(keda.activationThreshold()).isEqualTo(5);
    assertThat(s.workloads().get(3).pod().getTolerations()).hasSize(1);
    assertThat(s.workloads().get(3).autoscaling()).isInstanceOf(Scenario.Fixed.class);
    // the existing CapacityBuffer as one strategy next to none
    assertThat(s.strategies()).extracting(Scenario.Strategy::name).containsExactly("none", "existing-buffers");
    Scenario.Buffers b = (Scenario.Buffers) s.strategies().get(1);
    assertThat(b.buffers()).singleElement().satisfies(d -> {
      assertThat(d.name()).isEqualTo("web-headroom");
      assertThat(d.spec().getPercentage()).isEqualTo(20);
    });
    // what could not be inferred is marked in the file and listed on stderr, with what was left out and where
    String text = Files.readString(out);
    assertThat(text).contains("price: 0.1   # PLACEHOLDER: the price per node-hour",
        "provisioningDelay: 2m   # PLACEHOLDER");
    assertThat(r.err()).contains("Placeholders", "general-m5-xlarge-eu-west-1a-on-demand.price = 0.1",
        "shop/web.load.profile = constant 72/s", "cluster-dump.yaml:705: PodDisruptionBudget shop/web left out",
        "HorizontalPodAutoscaler shop/web: metric Resource left out");
    // and it runs
    SimulationReport report = ScenarioRunner.run(s.withDuration(Duration.ofMinutes(10)), 1, 2, null);
    assertThat(report.strategies()).hasSize(2);
    assertThat(report.strategies().get(1).peakBufferReplicas()).isEqualTo(3);
  }

  @Test
  void aDumpWithoutNodesIsAnErrorWithFileAndLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("d.yaml");
    Files.writeString(f, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  replicas: 1\n"
        + "  template:\n    spec:\n      containers: [{name: a, image: a}]\n");
    SimulateCommandTest.Run r = SimulateCommandTest.run(ScenarioCommand.NAME, ScenarioCommand.Import.NAME, "-f", f.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip()).startsWith(f + ":1: no Node in the dump");
    Files.writeString(f, "apiVersion: v1\nkind: List\nitems: [\n");
    assertThat(SimulateCommandTest.run(ScenarioCommand.NAME, ScenarioCommand.Import.NAME, "-f", f.toString()).code()).isEqualTo(1);
  }

  @Test
  void aPodTemplateWithNumericProbePortsAsKubectlPrintsThemIsImported(@TempDir Path dir) throws Exception {
    String text = Files.readString(DUMP);
    String probed = text.replaceFirst("\n          name: web\n          ports:\n",
        "\n          name: web\n          livenessProbe:\n            httpGet:\n              path: /healthz\n"
            + "              port: 8080\n          readinessProbe:\n            tcpSocket:\n              port: 8080\n"
            + "          ports:\n");
    assertThat(probed).isNotEqualTo(text);
    Path f = dir.resolve("probed.yaml");
    Files.writeString(f, probed);
    Path out = dir.resolve("imported.yaml");
    SimulateCommandTest.Run r = SimulateCommandTest.run(ScenarioCommand.NAME, ScenarioCommand.Import.NAME, "-f", f.toString(),
        "-o", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).doesNotContain("not a valid pod template");
    Scenario s = ScenarioParser.parseFile(out);
    assertThat(s.workloads()).extracting(Scenario.Workload::name).contains("web");
  }
}
