package dev.headroom.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The scenarios shipped in {@code examples/scenarios/} parse, and the web-day example is the built-in one. */
class ExampleScenariosTest {

  static final Path DIR = Path.of("..", "examples", "scenarios");

  @Test
  void webDayIsTheBuiltInScenario() throws Exception {
    assertThat(Files.readString(DIR.resolve("web-day.yaml"))).isEqualTo(DefaultScenario.text());
  }

  @Test
  void everyExampleParses() {
    Scenario shop = ScenarioParser.parseFile(DIR.resolve("shop-prometheus.yaml"));
    LoadProfile.Trace web = (LoadProfile.Trace) shop.workloads().get(0).load().profile();
    assertThat(web.points()).hasSize(1441);
    assertThat(web.points().get(0).seconds()).isZero();
    assertThat(web.points().get(1440).seconds()).isEqualTo(86_400);
    assertThat(shop.duration().toDays()).isEqualTo(1);
    Scenario trace = ScenarioParser.parseFile(DIR.resolve("week-trace-50-nodes.yaml"));
    assertThat(((LoadProfile.Trace) trace.workloads().get(0).load().profile()).points()).hasSize(10_080);
    assertThat(trace.duration().toDays()).isEqualTo(7);
    Scenario spike = ScenarioParser.parseFile(DIR.resolve("web-spike.yaml"));
    assertThat(spike.workloads()).hasSize(1);
    Scenario q = ScenarioParser.parseFile(DIR.resolve("queue-workers.yaml"));
    assertThat(q.workloads().get(0).autoscaling()).isInstanceOf(Scenario.Keda.class);
    assertThat(q.workloads().get(0).load().profile()).isInstanceOf(LoadProfile.Trace.class);
    assertThat(q.jobs()).hasSize(1);
    Scenario w = ScenarioParser.parseFile(DIR.resolve("week-500-nodes.yaml"));
    assertThat(w.duration().toHours()).isEqualTo(168);
    assertThat(w.workloads()).hasSize(10);
    assertThat(w.nodeGroups().get(0).maxSize()).isEqualTo(700);
    Scenario standby = ScenarioParser.parseFile(DIR.resolve("standby.yaml"));
    assertThat(standby.nodeGroups().get(0).standby()).isNotNull();
    assertThat(((Scenario.Buffers) standby.strategies().get(2)).buffers().get(0).spec().getProvisioningStrategy())
        .isEqualTo("buffer.headroom.dev/standby-capacity");
    Scenario scaled = ScenarioParser.parseFile(DIR.resolve("buffer-scale.yaml"));
    assertThat(((Scenario.Buffers) scaled.strategies().get(2)).buffers().get(0).scale()).hasSize(8);
  }
}
