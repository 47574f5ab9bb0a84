package dev.headroom.sim.report;

import dev.headroom.sim.run.BatchResult;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's batch sections, from the first seed's runs: gang jobs per strategy (jobs, start delay, rendezvous
 * timeouts, GPU-hours held idle by partial placements, cost) and, per buffer, the fragmentation of the free room
 * for its chunk shape (figures of the autoscaler core's {@code chunkRoom}). Each section is left out when no strategy
 * has anything to show in it, so scenarios without gang jobs or buffers print what they printed before.
 */
public final class BatchSection {

  private BatchSection() {}

  /** Gang job table headers ({@code costLabel} names the cost's unit). */
  static List<String> gangHeaders(String costLabel) {
    return List.of("strategy", "jobs", "started", "start delay p50", "p95", "max", "timeouts", "restarts",
        "idle GPU-hours", "idle worker-hours", costLabel);
  }

  /** Fragmentation table headers. */
  static List<String> fragmentationHeaders() {
    return List.of("strategy", "buffer", "chunk", "free chunks (pooled)", "on single nodes", "fragmented", "max",
        "loops fragmented");
  }

  static boolean hasGangJobs(SimulationReport r) {
    return r.strategies().stream().anyMatch(s -> s.batch().gangJobs().specs() > 0);
  }

  static boolean hasFragmentation(SimulationReport r) {
    return r.strategies().stream().anyMatch(s -> !s.batch().fragmentation().isEmpty());
  }

  static List<List<String>> gangRows(SimulationReport r) {
    List<List<String>> rows = new ArrayList<>();
    for (StrategyResult s : r.strategies()) {
      BatchResult.GangJobs g = s.batch().gangJobs();
      rows.add(List.of(s.name(), Integer.toString(g.jobs()), Integer.toString(g.started()),
          TextTable.secs(g.startDelayP50()), TextTable.secs(g.startDelayP95()), TextTable.secs(g.startDelayMax()),
          Integer.toString(g.timeouts()), Integer.toString(g.restarts()), Numbers.fixed(g.idleGpuHours(), 2),
          Numbers.fixed(g.idleWorkerHours(), 2), Numbers.fixed(s.cost(), 2)));
    }
    return rows;
  }

  static List<List<String>> fragmentationRows(SimulationReport r) {
    List<List<String>> rows = new ArrayList<>();
    for (StrategyResult s : r.strategies()) {
      for (BatchResult.Fragmentation f : s.batch().fragmentation()) {
        rows.add(List.of(s.name(), f.buffer(), f.shape(), Numbers.fixed(f.meanPooled(), 2),
            Numbers.fixed(f.meanOnNodes(), 2), Numbers.fixed(f.meanFragmented(), 2), Long.toString(f.maxFragmented()),
            Numbers.fixed(100 * f.fragmentedShare(), 1) + "%"));
      }
    }
    return rows;
  }

  /** The sections as text (empty when there is nothing to show), each preceded by a blank line. */
  public static String text(SimulationReport r) {
    StringBuilder b = new StringBuilder();
    if (hasGangJobs(r)) {
      b.append("\nGang jobs (seed ").append(r.seed()).append("): a job starts when all its workers are bound\n\n");
      table(b, gangHeaders(r.costLabel()), gangRows(r));
      b.append("start delay: arrival to the start (a job not started by the end counts with its wait so far);")
          .append(" timeouts: attempts given up at the rendezvous timeout; restarts: running attempts failed by a lost")
          .append(" worker; idle GPU-hours, idle worker-hours: held by bound workers while their job did not run.\n");
    }
    if (hasFragmentation(r)) {
      b.append("\nFragmentation (seed ").append(r.seed())
          .append("): free room of the Ready nodes for each buffer's chunk, mean over the autoscaler loops\n\n");
      table(b, fragmentationHeaders(), fragmentationRows(r));
      b.append("free chunks (pooled): chunks the free room would hold as one node; on single nodes: chunks it holds;")
          .append(" fragmented: free in total but on no single node (the autoscaler core's figures).\n");
    }
    return b.toString();
  }

  /** The sections as JSON members ({@code ,\n  "gangJobs": [...]}), or empty when there is nothing to show. */
  public static String json(SimulationReport r) {
    StringBuilder b = new StringBuilder();
    if (hasGangJobs(r)) {
      b.append(",\n  \"gangJobs\": [");
      boolean first = true;
      for (StrategyResult s : r.strategies()) {
        BatchResult.GangJobs g = s.batch().gangJobs();
        b.append(first ? "\n" : ",\n");
        first = false;
        b.append("    {\"strategy\": ").append(SummaryJson.quote(s.name())).append(", \"jobs\": ").append(g.jobs())
            .append(", \"started\": ").append(g.started()).append(", \"completed\": ").append(g.completed())
            .append(", \"startDelay\": {\"p50\": ").append(Numbers.plain(g.startDelayP50(), 3)).append(", \"p95\": ")
            .append(Numbers.plain(g.startDelayP95(), 3)).append(", \"max\": ").append(Numbers.plain(g.startDelayMax(), 3))
            .append("}, \"timeouts\": ").append(g.timeouts()).append(", \"restarts\": ").append(g.restarts())
            .append(", \"idleGpuHours\": ").append(Numbers.plain(g.idleGpuHours(), 4))
            .append(", \"idleWorkerHours\": ").append(Numbers.plain(g.idleWorkerHours(), 4))
            .append(", \"cost\": ").append(Numbers.plain(s.cost(), 4)).append('}');
      }
      b.append("\n  ]");
    }
    if (hasFragmentation(r)) {
      b.append(",\n  \"fragmentation\": [");
      boolean first = true;
      for (StrategyResult s : r.strategies()) {
        for (BatchResult.Fragmentation f : s.batch().fragmentation()) {
          b.append(first ? "\n" : ",\n");
          first = false;
          b.append("    {\"strategy\": ").append(SummaryJson.quote(s.name())).append(", \"buffer\": ")
              .append(SummaryJson.quote(f.buffer())).append(", \"shape\": ").append(SummaryJson.quote(f.shape()))
              .append(", \"loops\": ").append(f.loops()).append(", \"meanPooled\": ")
              .append(Numbers.plain(f.meanPooled(), 4)).append(", \"meanOnNodes\": ").append(Numbers.plain(f.meanOnNodes(), 4))
              .append(", \"meanFragmented\": ").append(Numbers.plain(f.meanFragmented(), 4))
              .append(", \"maxFragmented\": ").append(f.maxFragmented()).append(", \"fragmentedShare\": ")
              .append(Numbers.plain(f.fragmentedShare(), 4)).append('}');
        }
      }
      b.append("\n  ]");
    }
    return b.toString();
  }

  /** The sections as HTML (empty when there is nothing to show). */
  public static String html(SimulationReport r) {
    StringBuilder b = new StringBuilder();
    if (hasGangJobs(r)) {
      b.append("<h2>Gang jobs (").append(esc("seed " + r.seed())).append(")</h2>\n");
      htmlTable(b, gangHeaders(r.costLabel()), gangRows(r));
      b.append("<p class=\"meta\">A job starts when all its workers are bound. Start delay: arrival to the start (a job")
          .append(" not started by the end counts with its wait so far). Idle GPU-hours: held by bound workers while")
          .append(" their job did not run (partial placements).</p>\n");
    }
    if (hasFragmentation(r)) {
      b.append("<h2>Fragmentation (").append(esc("seed " + r.seed())).append(")</h2>\n");
      htmlTable(b, fragmentationHeaders(), fragmentationRows(r));
      b.append("<p class=\"meta\">Free room of the Ready nodes for each buffer's chunk, mean over the autoscaler loops:")
          .append(" chunks it would hold as one node, chunks it holds, and the difference, free in total but on no")
          .append(" single node.</p>\n");
    }
    return b.toString();
  }

  private static void table(StringBuilder b, List<String> headers, List<List<String>> body) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(headers);
    rows.addAll(body);
    TextTable.aligned(b, rows);
    b.append('\n');
  }

  private static void htmlTable(StringBuilder b, List<String> headers, List<List<String>> body) {
    b.append("<table>\n<tr>");
    for (String h : headers) {
      b.append("<th>").append(esc(h)).append("</th>");
    }
    b.append("</tr>\n");
    for (List<String> row : body) {
      b.append("<tr>");
      for (String c : row) {
        b.append("<td>").append(esc(c)).append("</td>");
      }
      b.append("</tr>\n");
    }
    b.append("</table>\n");
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
