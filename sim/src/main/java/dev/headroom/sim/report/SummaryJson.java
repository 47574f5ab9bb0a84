package dev.headroom.sim.report;

import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;

/**
 * The machine-readable summary ({@code -o json} and {@code summary.json}):
 * {@code {"scenario", "seed", "strategies": [{"name", "podWait": {"p50", "p95", "p99", "max"}, "podsOverSlo",
 * "nodeHours", "cost", "peakNodes", "meanUtilization"}]}}. Waits are in seconds. Written by hand with fixed
 * precision so that equal runs produce byte-identical text.
 */
public final class SummaryJson {

  private SummaryJson() {}

  /** The summary as pretty-printed JSON, ending with a newline. */
  public static String render(SimulationReport report) {
    StringBuilder b = new StringBuilder();
    b.append("{\n");
    b.append("  \"scenario\": ").append(quote(report.scenario())).append(",\n");
    b.append("  \"seed\": ").append(report.seed()).append(",\n");
    b.append("  \"durationSeconds\": ").append(report.durationSeconds()).append(",\n");
    b.append("  \"sloSeconds\": ").append(Numbers.plain(report.sloSeconds(), 3)).append(",\n");
    b.append("  \"strategies\": [");
    for (int i = 0; i < report.strategies().size(); i++) {
      StrategyResult s = report.strategies().get(i);
      b.append(i == 0 ? "\n" : ",\n");
      b.append("    {\n");
      b.append("      \"name\": ").append(quote(s.name())).append(",\n");
      b.append("      \"type\": ").append(quote(s.type())).append(",\n");
      b.append("      \"podWait\": {\"p50\": ").append(Numbers.plain(s.podWait().p50(), 3))
          .append(", \"p95\": ").append(Numbers.plain(s.podWait().p95(), 3))
          .append(", \"p99\": ").append(Numbers.plain(s.podWait().p99(), 3))
          .append(", \"max\": ").append(Numbers.plain(s.podWait().max(), 3)).append("},\n");
      b.append("      \"pods\": ").append(s.pods()).append(",\n");
      b.append("      \"podsOverSlo\": ").append(s.podsOverSlo()).append(",\n");
      b.append("      \"preemptedPods\": ").append(s.preemptedPods()).append(",\n");
      b.append("      \"nodeHours\": ").append(Numbers.plain(s.nodeHours(), 3)).append(",\n");
      b.append("      \"cost\": ").append(Numbers.plain(s.cost(), 4)).append(",\n");
      b.append("      \"peakNodes\": ").append(s.peakNodes()).append(",\n");
      b.append("      \"meanUtilization\": ").append(Numbers.plain(s.meanUtilization(), 4)).append(",\n");
      b.append("      \"nodesAdded\": ").append(s.nodesAdded()).append(",\n");
      b.append("      \"nodesRemoved\": ").append(s.nodesRemoved()).append("\n");
      b.append("    }");
    }
    b.append("\n  ]\n}\n");
    return b.toString();
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
