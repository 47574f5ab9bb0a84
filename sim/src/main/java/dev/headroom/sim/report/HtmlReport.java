package dev.headroom.sim.report;

import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.run.TickSample;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.function.ToDoubleFunction;

/**
 * {@code report.html}: one self-contained page (no network access needed) with the summary table and
 * time-series charts of every strategy — nodes, pending pods, pod wait and replicas per workload, plus the
 * load. The charting library, uPlot, comes from its Maven Central webjar and is inlined with its licence.
 */
public final class HtmlReport {

  /** Largest number of points per series in the page; longer runs are reduced to per-bucket maxima. */
  public static final int MAX_POINTS = 2000;

  private static final String WEBJAR_PROPS = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";
  private static final String[] COLORS = {"#d62728", "#9467bd", "#1f77b4", "#2ca02c", "#ff7f0e", "#8c564b", "#e377c2",
      "#17becf", "#7f7f7f", "#bcbd22"};

  private HtmlReport() {}

  /** The page. */
  public static String render(SimulationReport report) {
    String version = uplotVersion();
    String base = "/META-INF/resources/webjars/uplot/" + version;
    String js = resource(base + "/dist/uPlot.iife.min.js");
    String css = resource(base + "/dist/uPlot.min.css");
    String license = resource(base + "/LICENSE");
    boolean hours = report.durationSeconds() > 6 * 3600;
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Headroom simulation: ")
        .append(esc(report.scenario())).append("</title>\n<style>\n").append(css).append('\n').append(PAGE_CSS)
        .append("</style>\n</head>\n<body>\n");
    b.append("<h1>Headroom simulation: ").append(esc(report.scenario())).append("</h1>\n");
    b.append("<p class=\"meta\">").append(esc(report.description())).append("<br>")
        .append(TextTable.duration(report.durationSeconds())).append(" simulated, seed ").append(report.seed())
        .append(", SLO pod wait &le; ").append(TextTable.secs(report.sloSeconds())).append(", tick ")
        .append(report.tickSeconds()).append(" s</p>\n");
    b.append(summaryTable(report));
    b.append("<div id=\"charts\"></div>\n");
    b.append("<p class=\"meta\">Pod wait: creation to binding of real pods. Charts show per-tick values")
        .append(" (reduced to bucket maxima beyond ").append(MAX_POINTS).append(" points). Charts drawn with uPlot ")
        .append(esc(version)).append(" (MIT licence, inlined below).</p>\n");
    b.append("<script>\n/*\n").append(license.replace("*/", "* /")).append("\n*/\n").append(js).append("\n</script>\n");
    b.append("<script>\nconst DATA = ").append(data(report, hours)).append(";\n").append(CHART_JS).append("</script>\n");
    b.append("</body>\n</html>\n");
    return b.toString();
  }

  private static String summaryTable(SimulationReport r) {
    StringBuilder b = new StringBuilder("<table>\n<tr>");
    for (String h : TextTable.HEADERS) {
      b.append("<th>").append(esc(h)).append("</th>");
    }
    b.append("</tr>\n");
    int i = 0;
    for (StrategyResult s : r.strategies()) {
      b.append("<tr><td><span class=\"swatch\" style=\"background:").append(COLORS[i++ % COLORS.length])
          .append("\"></span>").append(esc(s.name())).append("</td><td>").append(TextTable.secs(s.podWait().p50()))
          .append("</td><td>").append(TextTable.secs(s.podWait().p95())).append("</td><td>")
          .append(TextTable.secs(s.podWait().p99())).append("</td><td>").append(TextTable.secs(s.podWait().max()))
          .append("</td><td>").append(s.podsOverSlo()).append('/').append(s.pods()).append("</td><td>")
          .append(Numbers.fixed(s.nodeHours(), 2)).append("</td><td>").append(Numbers.fixed(s.cost(), 2))
          .append("</td><td>").append(s.peakNodes()).append("</td><td>")
          .append(Numbers.fixed(100 * s.meanUtilization(), 1)).append("%</td></tr>\n");
    }
    return b.append("</table>\n").toString();
  }

  private static String data(SimulationReport r, boolean hours) {
    StringBuilder b = new StringBuilder("{\n");
    b.append("\"xLabel\": ").append(SummaryJson.quote(hours ? "hours" : "minutes")).append(",\n");
    b.append("\"strategies\": [");
    for (int i = 0; i < r.strategies().size(); i++) {
      b.append(i == 0 ? "" : ", ").append(SummaryJson.quote(r.strategies().get(i).name()));
    }
    b.append("],\n\"colors\": [");
    for (int i = 0; i < r.strategies().size(); i++) {
      b.append(i == 0 ? "" : ", ").append(SummaryJson.quote(COLORS[i % COLORS.length]));
    }
    b.append("],\n");
    List<TickSample> first = r.strategies().get(0).ticks();
    int n = first.size();
    int bucket = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
    b.append("\"x\": ").append(series(first, bucket, t -> hours ? t.seconds() / 3600.0 : t.seconds() / 60.0, true)).append(",\n");
    b.append("\"charts\": [\n");
    chart(b, "Nodes (provisioning included)", "nodes", r, bucket, t -> t.nodes(), false);
    chart(b, "Pending pods (real pods waiting to be bound)", "pods", r, bucket, t -> t.pendingPods(), false);
    chart(b, "Pod wait: age of the oldest pending pod", "seconds", r, bucket, TickSample::oldestPendingSeconds, false);
    chart(b, "Pod wait: longest wait of the pods bound in the tick", "seconds", r, bucket, TickSample::maxWaitSeconds, false);
    for (int w = 0; w < r.workloads().size(); w++) {
      int k = w;
      chart(b, "Replicas of " + r.workloads().get(w) + " (desired)", "replicas", r, bucket,
          t -> t.workloads().get(k).replicas(), false);
    }
    chart(b, "Requested utilisation of Ready nodes by real pods", "%", r, bucket, t -> 100 * t.utilization(), false);
    for (int w = 0; w < r.workloads().size(); w++) {
      int k = w;
      chart(b, "Load on " + r.workloads().get(w) + " (arrivals per second)", "per second", r, bucket,
          t -> t.workloads().get(k).rate(), true);
    }
    b.setLength(b.length() - 2);
    b.append("\n]\n}");
    return b.toString();
  }

  private static void chart(StringBuilder b, String title, String unit, SimulationReport r, int bucket,
      ToDoubleFunction<TickSample> f, boolean firstOnly) {
    b.append("{\"title\": ").append(SummaryJson.quote(title)).append(", \"unit\": ").append(SummaryJson.quote(unit))
        .append(", \"single\": ").append(firstOnly).append(", \"ys\": [");
    List<StrategyResult> list = firstOnly ? r.strategies().subList(0, 1) : r.strategies();
    for (int i = 0; i < list.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(series(list.get(i).ticks(), bucket, f, false));
    }
    b.append("]},\n");
  }

  private static String series(List<TickSample> ticks, int bucket, ToDoubleFunction<TickSample> f, boolean first) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < ticks.size(); i += bucket) {
      double v = f.applyAsDouble(ticks.get(i));
      if (!first) {
        for (int j = i + 1; j < Math.min(ticks.size(), i + bucket); j++) {
          v = Math.max(v, f.applyAsDouble(ticks.get(j)));
        }
      }
      b.append(i == 0 ? "" : ",").append(Numbers.plain(v, 3));
    }
    return b.append(']').toString();
  }

  private static String uplotVersion() {
    try (InputStream in = HtmlReport.class.getResourceAsStream(WEBJAR_PROPS)) {
      if (in == null) {
        throw new IllegalStateException("the uPlot webjar is not on the classpath (" + WEBJAR_PROPS + ")");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String resource(String path) {
    try (InputStream in = HtmlReport.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  private static final String PAGE_CSS = """
      body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #222; }
      h1 { font-size: 22px; margin: 0 0 4px 0; }
      .meta { color: #555; font-size: 13px; }
      table { border-collapse: collapse; margin: 12px 0 20px 0; font-size: 13px; }
      th, td { border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: right; }
      th:first-child, td:first-child { text-align: left; }
      th { background: #f4f4f4; }
      .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; border-radius: 2px; }
      #charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 18px; }
      .chart h2 { font-size: 14px; margin: 0 0 4px 0; font-weight: 600; }
      """;

  private static final String CHART_JS = """
      (function () {
        const root = document.getElementById('charts');
        for (const c of DATA.charts) {
          const box = document.createElement('div');
          box.className = 'chart';
          const h = document.createElement('h2');
          h.textContent = c.title;
          box.appendChild(h);
          root.appendChild(box);
          const names = c.single ? ['load'] : DATA.strategies;
          const series = [{label: DATA.xLabel}];
          names.forEach((name, i) => series.push({
            label: name, stroke: c.single ? '#444' : DATA.colors[i], width: 1.5,
            value: (u, v) => v == null ? '-' : (Math.round(v * 100) / 100).toString()
          }));
          const opts = {
            width: 560, height: 240, series: series,
            scales: {x: {time: false}},
            axes: [{label: DATA.xLabel}, {label: c.unit}],
            legend: {live: true}
          };
          new uPlot(opts, [DATA.x].concat(c.ys), box);
        }
      })();
      """;
}
