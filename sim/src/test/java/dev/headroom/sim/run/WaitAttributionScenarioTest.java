package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.report.HtmlReport;
import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.Verdict;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wait attribution per workload on a small scenario: web is buffered (a 1-replica and a 12-replica buffer), the
 * batch job at 01:00 is not covered by any buffer. Batch's waits are reported as uncovered and never make a web
 * buffer "too small"; web's own waits are held against web's buffer.
 */
class WaitAttributionScenarioTest {

  static SimulationReport report;

  @BeforeAll
  static void run() {
    Scenario scenario = ScenarioParser.parseFile(Path.of("src", "test", "resources", "scenarios",
        "two-workloads-one-buffered.yaml"));
    report = ScenarioRunner.run(scenario, scenario.seed(), 2, null);
  }

  static StrategyResult strategy(String name) {
    return report.strategies().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  static List<Episodes.Share> shares(String strategy, String workload) {
    return strategy(strategy).episodes().stream().flatMap(e -> e.workloads().stream())
        .filter(s -> s.workload().equals(workload) && s.podsOverSlo() > 0).toList();
  }

  @Test
  void everyEpisodeIsSplitByWorkloadWithTheBuffersTargetingEach() {
    for (StrategyResult s : report.strategies()) {
      for (Episodes.Episode e : s.episodes()) {
        assertThat(e.workloads().stream().mapToInt(Episodes.Share::pods).sum()).isEqualTo(e.pods());
        assertThat(e.workloads().stream().mapToInt(Episodes.Share::podsOverSlo).sum()).isEqualTo(e.podsOverSlo());
        for (Episodes.Share w : e.workloads()) {
          assertThat(w.peakPending()).isBetween(1, e.peakPending());
          if (w.workload().equals("web") && s.type().equals("buffer")) {
            assertThat(w.buffers()).containsExactly("web-buffer");
          } else {
            assertThat(w.buffers()).isEmpty();
            assertThat(w.bufferReplicas()).isZero();
          }
        }
      }
    }
    // the batch job waits for new nodes under every strategy: its pods need capacity nobody reserved
    assertThat(shares("web-large", "batch")).isNotEmpty();
    assertThat(shares("web-large", "web")).isEmpty();
    List<Episodes.Share> small = shares("web-small", "web");
    assertThat(small).isNotEmpty().allSatisfy(w -> assertThat(w.bufferReplicas()).isEqualTo(1));
  }

  @Test
  void aBufferIsNeverTooSmallForAWorkloadItDoesNotTarget() {
    String large = Verdict.shortfall(report, "web-large");
    assertThat(large).startsWith("web-large misses it only through batch, which is not covered by any buffer: its"
        + " scale-up at 01:00 needed ").doesNotContain("too small");
    String small = Verdict.shortfall(report, "web-small");
    Episodes.Share web = shares("web-small", "web").get(0);
    assertThat(small).startsWith("web-small is too small for web in the scale-up at ")
        .contains("which needed " + web.peakPending() + " extra pod", "with its buffer (web-buffer) at 1 (")
        .endsWith("; batch is not covered by any buffer");
    String none = Verdict.shortfall(report, "none");
    assertThat(none).startsWith("none falls short for ").doesNotContain("buffer");
  }

  @Test
  void summaryJsonAndReportHtmlCarryTheAttributionPerWorkload() {
    JsonNode n = JsonMapper.builder().build().readTree(SummaryJson.render(report));
    JsonNode large = n.get("strategies").get(2);
    assertThat(large.get("name").asText()).isEqualTo("web-large");
    JsonNode batch = large.get("episodes").get("overSlo").get(0).get("workloads").get(0);
    assertThat(batch.get("workload").asText()).isEqualTo("batch");
    assertThat(batch.get("buffers")).isEmpty();
    assertThat(batch.get("coverage").asText()).isEqualTo(Episodes.NOT_COVERED);
    assertThat(batch.get("extraPodsNeeded").asInt()).isPositive();
    JsonNode small = n.get("strategies").get(1);
    JsonNode webShare = null;
    for (JsonNode e : small.get("episodes").get("overSlo")) {
      for (JsonNode w : e.get("workloads")) {
        if (w.get("workload").asText().equals("web")) {
          webShare = w;
        }
      }
    }
    assertThat(webShare).isNotNull();
    assertThat(webShare.get("buffers").get(0).asText()).isEqualTo("web-buffer");
    assertThat(webShare.get("bufferReplicas").asInt()).isEqualTo(1);
    assertThat(webShare.has("coverage")).isFalse();
    // the no-buffer baseline says nothing about coverage
    assertThat(n.get("strategies").get(0).toString()).doesNotContain("coverage");
    String html = HtmlReport.render(report);
    assertThat(html).contains("<td>batch</td>", "<td>not covered by any buffer</td>", "<td>web-buffer: 1</td>");
  }
}
