package dev.headroom.sim.report;

import dev.headroom.sim.run.Episodes;
import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.stats.Bootstrap;
import java.util.List;

/**
 * The machine-readable summary ({@code -o json} and {@code summary.json}): the scenario, the seeds, the verdict,
 * and per strategy the pooled waits with their intervals, cost, the change against the baseline and the first
 * seed's wait attribution by episode (docs/simulator.md lists every field). Waits are in seconds. Written by hand with fixed
 * precision so that equal runs produce byte-identical text.
 */
public final class SummaryJson {

  private SummaryJson() {}

  /** The summary as pretty-printed JSON, ending with a newline. */
  public static String render(SimulationReport report) {
    Verdict.Result verdict = Verdict.of(report);
    StringBuilder b = new StringBuilder();
    b.append("{\n");
    b.append("  \"scenario\": ").append(quote(report.scenario())).append(",\n");
    b.append("  \"seed\": ").append(report.seed()).append(",\n");
    b.append("  \"seeds\": [");
    for (int i = 0; i < report.seeds().size(); i++) {
      b.append(i == 0 ? "" : ", ").append(report.seeds().get(i));
    }
    b.append("],\n");
    b.append("  \"durationSeconds\": ").append(report.durationSeconds()).append(",\n");
    b.append("  \"sloSeconds\": ").append(Numbers.plain(report.sloSeconds(), 3)).append(",\n");
    b.append("  \"currency\": ").append(quote(report.currency())).append(",\n");
    b.append("  \"bootstrap\": {\"resamples\": ").append(Bootstrap.RESAMPLES).append(", \"confidence\": ")
        .append(Numbers.plain(Bootstrap.CONFIDENCE, 3)).append(", \"method\": \"percentile, seeds then pods\"},\n");
    b.append("  \"verdict\": ").append(quote(verdict.sentence())).append(",\n");
    b.append("  \"baseline\": ").append(quote(verdict.baseline())).append(",\n");
    b.append("  \"best\": ").append(verdict.best().map(SummaryJson::quote).orElse("null")).append(",\n");
    b.append("  \"strategies\": [");
    long slo = Math.round(report.sloSeconds() * 1000);
    for (int i = 0; i < report.pooled().size(); i++) {
      PooledResult s = report.pooled().get(i);
      StrategyResult first = report.strategies().get(i);
      Verdict.Change c = verdict.changes().get(i);
      b.append(i == 0 ? "\n" : ",\n");
      b.append("    {\n");
      b.append("      \"name\": ").append(quote(s.name())).append(",\n");
      b.append("      \"type\": ").append(quote(s.type())).append(",\n");
      b.append("      \"podWait\": {\"p50\": ").append(ms(s.p50().value()))
          .append(", \"p95\": ").append(ms(s.p95().value()))
          .append(", \"p99\": ").append(ms(s.p99().value()))
          .append(", \"max\": ").append(ms(s.maxMillis())).append("},\n");
      b.append("      \"podWaitInterval\": {\"p50\": ").append(interval(s.p50())).append(", \"p95\": ")
          .append(interval(s.p95())).append(", \"p99\": ").append(interval(s.p99())).append("},\n");
      b.append("      \"meetsSlo\": ").append(s.p99().high() <= slo).append(",\n");
      b.append("      \"pods\": ").append(s.pods()).append(",\n");
      b.append("      \"podsOverSlo\": ").append(s.podsOverSlo()).append(",\n");
      b.append("      \"preemptedPods\": ").append(s.preemptedPods()).append(",\n");
      b.append("      \"nodeHours\": ").append(Numbers.plain(s.nodeHours(), 3)).append(",\n");
      b.append("      \"cost\": ").append(Numbers.plain(s.cost(), 4)).append(",\n");
      b.append("      \"costRange\": [").append(Numbers.plain(s.costMin(), 4)).append(", ")
          .append(Numbers.plain(s.costMax(), 4)).append("],\n");
      b.append("      \"costChange\": ").append(Numbers.plain(c.costChange(), 4)).append(",\n");
      b.append("      \"p99Change\": ").append(Numbers.plain(c.p99ChangeSeconds(), 3)).append(",\n");
      b.append("      \"peakNodes\": ").append(s.peakNodes()).append(",\n");
      b.append("      \"meanUtilization\": ").append(Numbers.plain(s.meanUtilization(), 4)).append(",\n");
      b.append("      \"nodesAdded\": ").append(first.nodesAdded()).append(",\n");
      b.append("      \"nodesRemoved\": ").append(first.nodesRemoved()).append(",\n");
      b.append("      \"peakBufferReplicas\": ").append(s.peakBufferReplicas()).append(",\n");
      b.append("      \"note\": ").append(quote(c.note())).append(",\n");
      b.append("      \"episodes\": ").append(episodes(first.episodes(), report.durationSeconds(), "buffer".equals(s.type()))).append("\n");
      b.append("    }");
    }
    b.append("\n  ]").append(BatchSection.json(report)).append("\n}\n");
    return b.toString();
  }

  /**
   * The first seed's episodes with a pod over the SLO, earliest first, and how many stayed within it; per episode
   * its waits per workload, each with the buffers that target the workload and their size when the episode began.
   */
  private static String episodes(List<Episodes.Episode> all, long durationSeconds, boolean buffers) {
    StringBuilder b = new StringBuilder("{\"withinSlo\": ");
    long within = all.stream().filter(e -> e.podsOverSlo() == 0).count();
    b.append(within).append(", \"overSlo\": [");
    boolean firstOne = true;
    for (Episodes.Episode e : all) {
      if (e.podsOverSlo() == 0) {
        continue;
      }
      b.append(firstOne ? "\n" : ",\n");
      firstOne = false;
      b.append("        {\"start\": ").append(ms(e.startMillis())).append(", \"at\": ")
          .append(quote(Verdict.clock(e.startMillis(), durationSeconds))).append(", \"end\": ").append(ms(e.endMillis()))
          .append(", \"pods\": ").append(e.pods()).append(", \"podsOverSlo\": ").append(e.podsOverSlo())
          .append(", \"maxWait\": ").append(ms(e.maxWaitMillis())).append(", \"extraPodsNeeded\": ")
          .append(e.peakPending()).append(", \"bufferReplicas\": ").append(e.bufferReplicas())
          .append(", \"nodesAdded\": ").append(e.nodesAdded()).append(", \"workloads\": [");
      for (int i = 0; i < e.workloads().size(); i++) {
        Episodes.Share w = e.workloads().get(i);
        b.append(i == 0 ? "\n" : ",\n").append("          {\"workload\": ").append(quote(w.workload()))
            .append(", \"pods\": ").append(w.pods()).append(", \"podsOverSlo\": ").append(w.podsOverSlo())
            .append(", \"maxWait\": ").append(ms(w.maxWaitMillis())).append(", \"extraPodsNeeded\": ")
            .append(w.peakPending()).append(", \"buffers\": [")
            .append(String.join(", ", w.buffers().stream().map(SummaryJson::quote).toList())).append("]")
            .append(", \"bufferReplicas\": ").append(w.bufferReplicas());
        if (buffers && !w.covered()) {
          b.append(", \"coverage\": ").append(quote(Episodes.NOT_COVERED));
        }
        b.append('}');
      }
      b.append(e.workloads().isEmpty() ? "]}" : "\n        ]}");
    }
    return b.append(firstOne ? "]}" : "\n      ]}").toString();
  }

  private static String interval(Bootstrap.Estimate e) {
    return "[" + ms(e.low()) + ", " + ms(e.high()) + "]";
  }

  private static String ms(long millis) {
    return Numbers.plain(millis / 1000.0, 3);
  }

  /** A JSON string literal. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
