package dev.headroom.sim.report;

import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.stats.Bootstrap;
import java.util.ArrayList;
import java.util.List;

/** The side-by-side terminal comparison of the strategies, pooled over every seed, with the verdict. */
public final class TextTable {

  private TextTable() {}

  /** Column headers, in order ({@code costLabel} names the cost's unit). */
  public static List<String> headers(String costLabel) {
    return List.of("strategy", "pods", "wait p50", "p95 [95% CI]", "p99 [95% CI]", "max", "over SLO", "node-hours",
        costLabel, "peak nodes", "utilization");
  }

  /** The report as text: a title line, the verdict, the table, and a legend. */
  public static String render(SimulationReport report) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(headers(report.costLabel()));
    for (PooledResult s : report.pooled()) {
      rows.add(List.of(s.name(), Integer.toString(s.pods()), secs(s.p50().value() / 1000.0), interval(s.p95()),
          interval(s.p99()), secs(s.maxMillis() / 1000.0), s.podsOverSlo() + "/" + s.pods(),
          Numbers.fixed(s.nodeHours(), 2), Numbers.fixed(s.cost(), 2), Integer.toString(s.peakNodes()),
          Numbers.fixed(100 * s.meanUtilization(), 1) + "%"));
    }
    StringBuilder b = new StringBuilder();
    b.append("Scenario ").append(report.scenario()).append(": ").append(duration(report.durationSeconds()))
        .append(" simulated, ").append(seeds(report.seeds())).append(", SLO pod wait <= ")
        .append(secs(report.sloSeconds())).append('\n');
    if (!report.description().isEmpty()) {
      b.append(report.description()).append('\n');
    }
    Verdict.Result v = Verdict.of(report);
    b.append('\n').append(v.sentence()).append('\n').append('\n');
    aligned(b, rows);
    b.append('\n');
    for (Verdict.Change c : v.changes()) {
      if (!c.note().isEmpty()) {
        b.append("note: ").append(c.name()).append(' ').append(c.note()).append('\n');
      }
    }
    b.append("pod wait: creation to binding of real pods (balloons excluded), pooled over ").append(seeds(report.seeds()))
        .append("; pods: pod starts behind each figure; [95% CI]: ").append(legend())
        .append("; over SLO: pods that waited longer than the SLO / all pods; node-hours, cost: mean per seed;")
        .append(" utilization: mean requested share of Ready nodes' allocatable.\n");
    b.append(BatchSection.text(report));
    return b.toString();
  }

  /** How the intervals are computed, in words. */
  public static String legend() {
    return Math.round(Bootstrap.CONFIDENCE * 100) + "% bootstrap percentile interval, " + Bootstrap.RESAMPLES
        + " resamples of seeds, then of pods within each";
  }

  /** {@code 42} or {@code seeds 42..51 (10)}. */
  public static String seeds(List<Long> seeds) {
    if (seeds.size() == 1) {
      return "seed " + seeds.get(0);
    }
    return "seeds " + seeds.get(0) + ".." + seeds.get(seeds.size() - 1) + " (" + seeds.size() + ")";
  }

  static String interval(Bootstrap.Estimate e) {
    return secs(e.value() / 1000.0) + " [" + Numbers.fixed(e.low() / 1000.0, 1) + "-" + Numbers.fixed(e.high() / 1000.0, 1) + "]";
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

  /**
   * Appends {@code rows} (the first is the header) as an aligned table: the first column left-aligned, the others
   * right-aligned, two spaces apart, a dashed line under the header.
   */
  static void aligned(StringBuilder b, List<List<String>> rows) {
    int[] width = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
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
  }
}
