package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.sim.report.HtmlReport;
import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.TextTable;
import dev.headroom.sim.report.TickCsv;
import dev.headroom.sim.scenario.DefaultScenario;
import dev.headroom.sim.scenario.LoadProfile;
import dev.headroom.sim.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The built-in scenario (web-day) is worth its percentiles; it is run once and shared. */
class DefaultScenarioTest {

  static Scenario scenario;
  static SimulationReport report;

  @BeforeAll
  static void run() {
    scenario = DefaultScenario.load();
    report = ScenarioRunner.run(scenario, scenario.seed(), 2, null);
  }

  static PooledResult pooled(String name) {
    return report.pooled().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void severalServicesWithDifferentPodShapesOnADiurnalDayWithASpike() {
    assertThat(scenario.duration().toHours()).isEqualTo(24);
    Set<Object> shapes = new HashSet<>();
    for (Scenario.Workload w : scenario.workloads()) {
      shapes.add(EffectiveRequests.of(w.pod()));
      assertThat(w.load().profile()).isInstanceOf(LoadProfile.Diurnal.class);
    }
    assertThat(shapes).hasSizeGreaterThanOrEqualTo(3);
    assertThat(scenario.workloads().stream().map(w -> (LoadProfile.Diurnal) w.load().profile())
        .anyMatch(d -> !d.spikes().isEmpty())).isTrue();
  }

  @Test
  void atLeast300PodStartsSoThatP95AndP99Differ() {
    for (PooledResult s : report.pooled()) {
      assertThat(s.pods()).as(s.name()).isGreaterThanOrEqualTo(300);
    }
    assertThat(report.pooled()).anySatisfy(s -> assertThat(s.p99().value()).isNotEqualTo(s.p95().value()));
    assertThat(report.pooled()).anySatisfy(s -> assertThat(s.maxMillis()).isNotEqualTo(s.p99().value()));
  }

  @Test
  void theLargerBufferMeetsTheSloAndTheVerdictSaysSo() {
    PooledResult none = pooled("none");
    PooledResult big = pooled("buffer-30pct");
    long slo = scenario.sloPodWait().toMillis();
    assertThat(none.p99().high()).isGreaterThan(slo);
    assertThat(big.p99().high()).isLessThanOrEqualTo(slo);
    assertThat(big.cost()).isGreaterThan(none.cost());
    assertThat(TextTable.render(report)).contains("buffer-30pct meets the 5 s SLO for +");
  }

  @Test
  void sameSeedsSameBytesWhateverThePoolSize() {
    List<Long> seeds = ScenarioRunner.seeds(scenario.seed(), 2);
    // two strategies keep the test short; the other strategies run the same code
    Scenario two2 = scenario.withStrategies(scenario.strategies().subList(2, 4));
    SimulationReport one = ScenarioRunner.run(two2, seeds, 1, null);
    SimulationReport two = ScenarioRunner.run(two2, seeds, 2, null);
    assertThat(SummaryJson.render(two)).isEqualTo(SummaryJson.render(one));
    assertThat(TextTable.render(two)).isEqualTo(TextTable.render(one));
    assertThat(HtmlReport.render(two)).isEqualTo(HtmlReport.render(one));
    assertThat(TickCsv.render(two)).isEqualTo(TickCsv.render(one));
    // the first seed's per-strategy results are those of a one-seed run; the pool adds the second seed's pods
    assertThat(one.strategies()).isEqualTo(report.strategies().subList(2, 4));
    for (int i = 0; i < one.pooled().size(); i++) {
      assertThat(one.pooled().get(i).pods()).isGreaterThan(report.pooled().get(i + 2).pods());
      assertThat(one.pooled().get(i).seeds()).isEqualTo(2);
    }
  }

  @Test
  void theTableInTheDocsIsTheOneTheSimulatorPrints() throws Exception {
    String text = Files.readString(Path.of("..", "docs", "simulator.md"));
    String printed = TextTable.render(report);
    String table = printed.substring(printed.indexOf("strategy "), printed.indexOf("\n\npod wait:") + 1);
    assertThat(text).as("docs/simulator.md section 4 must show the default scenario's table exactly; update it from"
        + " `./headroom simulate`").contains(table);
  }
}
