package dev.headroom.sim.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.run.Episodes;
import dev.headroom.sim.run.PodWaits;
import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.run.TickSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ReportTest {

  /** Waits of {@code n} pods created a minute apart; the last ones wait the given times (ms). */
  static PodWaits waits(int n, long... tail) {
    long[] created = new long[n];
    long[] w = new long[n];
    String[] names = new String[n];
    java.util.Arrays.fill(names, "web");
    for (int i = 0; i < n; i++) {
      created[i] = i * 60_000L;
      if (i >= n - tail.length) {
        w[i] = tail[i - (n - tail.length)];
      }
    }
    return PodWaits.of(created, w, names);
  }

  static SimulationReport report() {
    List<TickSample> ticks = List.of(
        new TickSample(0, 3, 3, 0, 0, 0, 0, 0.5, 0, 0, List.of(new TickSample.WorkloadSample(4, 4, 100, 0, 50))),
        new TickSample(5, 4, 3, 2, 0, 5, 1.25, 0.625, 0, 0, List.of(new TickSample.WorkloadSample(6, 4, 160, 12.5, 100))));
    // 40 pods; the last three of "none" wait 90.5 s, 101.25 s and 120 s: p95 is the 38th wait, p99 the 40th
    PodWaits noneWaits = waits(40, 90_500, 101_250, 120_000);
    StrategyResult none = new StrategyResult("none", "none", new StrategyResult.PodWait(0, 90.5, 120, 120), 40, 3, 0,
        8.125, 1.56, 7, 0.6523, 2, 4, 4, Map.of("general", 7), ticks, noneWaits, List.of(),
        Episodes.of(noneWaits, Episodes.Coverage.none(), List.of(), 5000), 0);
    StrategyResult buffer = new StrategyResult("buffer-10pct", "buffer", new StrategyResult.PodWait(0, 0, 0, 0), 40, 0, 0,
        9.5, 1.9, 8, 0.6, 2, 5, 4, Map.of("general", 8), ticks, waits(40), List.of(), List.of(), 4);
    StrategyResult idle = new StrategyResult("buffer-1", "buffer", new StrategyResult.PodWait(0, 0, 0, 0), 40, 0, 0,
        8.125, 1.56, 7, 0.6, 2, 4, 4, Map.of("general", 7), ticks, noneWaits, List.of(),
        Episodes.of(noneWaits, Episodes.Coverage.none(), List.of(), 5000), 0);
    return new SimulationReport("web \"spike\"", "d", 42, 7200, 5, 5, "USD", List.of("web"), List.of(none, buffer, idle),
        List.of(42L), List.of(PooledResult.of(List.of(none), List.of(42L)), PooledResult.of(List.of(buffer), List.of(42L)),
            PooledResult.of(List.of(idle), List.of(42L))));
  }

  @Test
  void summaryJsonHasTheDocumentedShape() {
    JsonNode n = JsonMapper.builder().build().readTree(SummaryJson.render(report()));
    assertThat(n.get("scenario").asText()).isEqualTo("web \"spike\"");
    assertThat(n.get("seed").asLong()).isEqualTo(42);
    JsonNode s = n.get("strategies").get(0);
    assertThat(s.get("name").asText()).isEqualTo("none");
    assertThat(s.get("podWait").get("p50").asDouble()).isZero();
    assertThat(s.get("podWait").get("p95").asDouble()).isEqualTo(90.5);
    assertThat(s.get("podWait").get("p99").asDouble()).isEqualTo(120);
    assertThat(s.get("podWait").get("max").asDouble()).isEqualTo(120);
    assertThat(s.get("podsOverSlo").asInt()).isEqualTo(3);
    assertThat(s.get("pods").asInt()).isEqualTo(40);
    assertThat(s.get("podWaitInterval").get("p99").get(1).asDouble()).isEqualTo(120);
    assertThat(s.get("meetsSlo").asBoolean()).isFalse();
    assertThat(s.get("episodes").get("overSlo")).hasSize(1);
    assertThat(s.get("episodes").get("overSlo").get(0).get("extraPodsNeeded").asInt()).isEqualTo(2);
    assertThat(s.get("episodes").get("overSlo").get(0).get("at").asText()).isEqualTo("00:37");
    assertThat(n.get("currency").asText()).isEqualTo("USD");
    assertThat(n.get("bootstrap").get("resamples").asInt()).isEqualTo(1000);
    assertThat(n.get("best").asText()).isEqualTo("buffer-10pct");
    assertThat(n.get("verdict").asText()).startsWith("buffer-10pct meets the 5 s SLO for +22 % cost against none");
    assertThat(n.get("strategies").get(2).get("note").asText()).startsWith("never took effect");
    assertThat(s.get("nodeHours").asDouble()).isEqualTo(8.125);
    assertThat(s.get("cost").asDouble()).isEqualTo(1.56);
    assertThat(s.get("peakNodes").asInt()).isEqualTo(7);
    assertThat(s.get("meanUtilization").asDouble()).isEqualTo(0.6523);
    assertThat(n.get("strategies").get(1).get("name").asText()).isEqualTo("buffer-10pct");
  }

  @Test
  void tableCsvAndHtml() {
    String table = TextTable.render(report());
    assertThat(table).contains("none", "buffer-10pct", "90.5s", "120.0s", "3/40", "8.13", "65.2%", "cost (USD)",
        "note: buffer-1 never took effect");
    String csv = TickCsv.render(report());
    assertThat(csv.lines().findFirst().orElseThrow()).startsWith("strategy,time_s,nodes,ready_nodes,pending_pods")
        .endsWith("web_replicas,web_ready,web_rate,web_queue,web_cpu_pct");
    assertThat(csv.lines()).hasSize(7).contains("none,5,4,3,2,0,5,1.25,0.625,0,0,6,4,160,12.5,100");
    String html = HtmlReport.render(report());
    assertThat(html).contains("<!DOCTYPE html>", "uPlot", "const DATA", "buffer-10pct", "web &quot;spike&quot;",
        "class=\"verdict\">buffer-10pct meets the 5 s SLO", "Pareto frontier", "Pod-wait CDF", "Wait attribution",
        "Change against none", "class=\"flag\"", "\"windows\": [{\"label\"");
    assertThat(html).doesNotContain("<script src", "<link ", "http://", "https://cdn");
  }

  @Test
  void progressBarStaysQuietForShortRuns() {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    long[] now = {0};
    ProgressBar bar = new ProgressBar(new java.io.PrintStream(bytes, true), () -> now[0], "sim");
    bar.accept(0.5);
    assertThat(bytes.size()).isZero();
    now[0] = 2_000_000_000L;
    bar.accept(0.5);
    assertThat(bytes.toString()).contains("sim [###############               ]  50%");
    bar.finish();
    assertThat(bar.shown()).isTrue();
  }
}
