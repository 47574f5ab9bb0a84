package dev.headroom.sim.report;

import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import java.util.ArrayList;
import java.util.List;

/** The side-by-side terminal comparison of the strategies. */
public final class TextTable {

  /** Column headers, in order. */
  public static final List<String> HEADERS = List.of("strategy", "wait p50", "p95", "p99", "max", "over SLO",
      "node-hours", "cost", "peak nodes", "utilization");

  private TextTable() {}

  /** The report as text: a title line, the table, and a legend line. */
  public static String render(SimulationReport report) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADERS);
    for (StrategyResult s : report.strategies()) {
      rows.add(List.of(s.name(), secs(s.podWait().p50()), secs(s.podWait().p95()), secs(s.podWait().p99()),
          secs(s.podWait().max()), s.podsOverSlo() + "/" + s.pods(), Numbers.fixed(s.nodeHours(), 2),
          Numbers.fixed(s.cost(), 2), Integer.toString(s.peakNodes()),
          Numbers.fixed(100 * s.meanUtilization(), 1) + "%"));
    }
    int[] width = new int[HEADERS.size()];
    for (List<String> r : rows) {
      for (int i = 0; i < r.size(); i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    StringBuilder b = new StringBuilder();
    b.append("Scenario ").append(report.scenario()).append(": ").append(duration(report.durationSeconds()))
        .append(" simulated, seed ").append(report.seed()).append(", SLO pod wait <= ")
        .append(secs(report.sloSeconds())).append('\n');
    if (!report.description().isEmpty()) {
      b.append(report.description()).append('\n');
    }
    b.append('\n');
    for (int r = 0; r < rows.size(); r++) {
      List<String> row = rows.get(r);
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        if (i == 0) {
          b.append(cell).append(" ".repeat(width[i] - cell.length()));
        } else {
          b.append("  ").append(" ".repeat(width[i] - cell.length())).append(cell);
        }
      }
      b.append('\n');
      if (r == 0) {
        int total = 0;
        for (int w : width) {
          total += w + 2;
        }
        b.append("-".repeat(total - 2)).append('\n');
      }
    }
    b.append('\n').append("pod wait: creation to binding of real pods (balloons excluded); over SLO: pods that waited longer"
        + " than the SLO / all pods; utilization: mean requested share of Ready nodes' allocatable.\n");
    return b.toString();
  }

  static String secs(double s) {
    return Numbers.fixed(s, 1) + "s";
  }

  static String duration(long seconds) {
    if (seconds % 86400 == 0) {
      return seconds / 86400 + "d";
    }
    if (seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    if (seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }
}
