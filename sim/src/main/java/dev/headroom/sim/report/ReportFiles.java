package dev.headroom.sim.report;

import dev.headroom.sim.run.SimulationReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes a run's files into an output directory: {@code report.html}, {@code summary.json}, {@code ticks.csv}. */
public final class ReportFiles {

  /** The HTML report's file name. */
  public static final String HTML = "report.html";
  /** The summary's file name. */
  public static final String SUMMARY = "summary.json";
  /** The per-tick CSV's file name. */
  public static final String TICKS = "ticks.csv";

  private ReportFiles() {}

  /** Writes the three files (creating the directory) and returns their paths. */
  public static List<Path> write(SimulationReport report, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path html = dir.resolve(HTML);
    Path summary = dir.resolve(SUMMARY);
    Path ticks = dir.resolve(TICKS);
    Files.writeString(html, HtmlReport.render(report), StandardCharsets.UTF_8);
    Files.writeString(summary, SummaryJson.render(report), StandardCharsets.UTF_8);
    Files.writeString(ticks, TickCsv.render(report), StandardCharsets.UTF_8);
    return List.of(html, summary, ticks);
  }
}
