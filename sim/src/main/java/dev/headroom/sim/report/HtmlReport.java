package dev.headroom.sim.report;

import dev.headroom.sim.run.Episodes;
import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.run.TickSample;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
  /** Points of the pod-wait CDF. */
  static final int CDF_POINTS = 200;
  /** Over-SLO episodes listed per strategy. */
  static final int EPISODES_PER_STRATEGY = 5;
  /** Busy windows offered as zoom buttons, and the time shown around each. */
  static final int ZOOM_WINDOWS = 4;
  static final long ZOOM_PAD_MILLIS = 5 * 60_000;

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
    Verdict.Result verdict = Verdict.of(report);
    b.append("<p class=\"verdict\">").append(esc(verdict.sentence())).append("</p>\n");
    b.append("<p class=\"meta\">").append(esc(report.description())).append("<br>")
        .append(TextTable.duration(report.durationSeconds())).append(" simulated, ")
        .append(esc(TextTable.seeds(report.seeds())))
        .append(", SLO pod wait &le; ").append(TextTable.secs(report.sloSeconds())).append(", tick ")
        .append(report.tickSeconds()).append(" s</p>\n");
    b.append("<h2>Change against ").append(esc(verdict.baseline())).append("</h2>\n").append(changeTable(report, verdict));
    b.append("<h2>Every strategy, pooled over ").append(esc(TextTable.seeds(report.seeds()))).append("</h2>\n");
    b.append(summaryTable(report));
    b.append("<p class=\"meta\">[95% CI]: ").append(esc(TextTable.legend()))
        .append(". Pods: the pod starts behind each figure. Cost in ").append(esc(report.currency().isEmpty()
            ? "the unit of the node groups' price per node-hour (the scenario names no currency)" : report.currency()))
        .append(", mean per seed.</p>\n");
    b.append("<div id=\"decision\" class=\"grid\"></div>\n");
    b.append(BatchSection.html(report));
    b.append("<h2>Wait attribution: the scale-up episodes behind the waits over the SLO, per workload (").append(esc("seed " + report.seed()))
        .append(")</h2>\n").append(episodeTable(report));
    b.append("<h2>Over time (").append(esc("seed " + report.seed())).append(")</h2>\n<p id=\"zoom\"></p>\n");
    b.append("<div id=\"charts\" class=\"grid\"></div>\n");
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
    for (String h : TextTable.headers(r.costLabel())) {
      b.append("<th>").append(esc(h)).append("</th>");
    }
    b.append("</tr>\n");
    int i = 0;
    for (PooledResult s : r.pooled()) {
      b.append("<tr><td><span class=\"swatch\" style=\"background:").append(COLORS[i++ % COLORS.length])
          .append("\"></span>").append(esc(s.name())).append("</td><td>").append(s.pods()).append("</td><td>")
          .append(TextTable.secs(s.p50().value() / 1000.0)).append("</td><td>").append(TextTable.interval(s.p95()))
          .append("</td><td>").append(TextTable.interval(s.p99())).append("</td><td>")
          .append(TextTable.secs(s.maxMillis() / 1000.0)).append("</td><td>").append(s.podsOverSlo()).append('/')
          .append(s.pods()).append("</td><td>").append(Numbers.fixed(s.nodeHours(), 2)).append("</td><td>")
          .append(Numbers.fixed(s.cost(), 2)).append("</td><td>").append(s.peakNodes()).append("</td><td>")
          .append(Numbers.fixed(100 * s.meanUtilization(), 1)).append("%</td></tr>\n");
    }
    return b.append("</table>\n").toString();
  }

  private static String changeTable(SimulationReport r, Verdict.Result v) {
    StringBuilder b = new StringBuilder("<table>\n<tr><th>strategy</th><th>meets SLO (p99 upper bound)</th><th>")
        .append(esc(r.costLabel())).append(" change</th><th>node-hours change</th><th>p99 change</th>")
        .append("<th>pods over SLO change</th><th>note</th></tr>\n");
    for (Verdict.Change c : v.changes()) {
      boolean base = c.name().equals(v.baseline());
      b.append("<tr").append(c.note().isEmpty() ? "" : " class=\"flag\"").append("><td>").append(esc(c.name()))
          .append(base ? " (baseline)" : "").append("</td><td>").append(c.meetsSlo() ? "yes" : "no").append("</td><td>")
          .append(base ? "" : Verdict.percent(c.costChange())).append("</td><td>")
          .append(base ? "" : Verdict.percent(c.nodeHoursChange())).append("</td><td>")
          .append(base ? "" : signed(c.p99ChangeSeconds()) + " s").append("</td><td>")
          .append(base ? "" : (c.overSloChange() > 0 ? "+" : "") + c.overSloChange()).append("</td><td>")
          .append(esc(c.note())).append("</td></tr>\n");
    }
    return b.append("</table>\n").toString();
  }

  private static String episodeTable(SimulationReport r) {
    StringBuilder b = new StringBuilder("<table>\n<tr><th>strategy</th><th>scale-up at</th><th>workload</th>")
        .append("<th>pods waiting</th><th>over SLO</th><th>longest wait</th>")
        .append("<th>extra pods needed (most waiting at once)</th><th>its buffers then (replicas)</th>")
        .append("<th>nodes added</th></tr>\n");
    int rows = 0;
    for (StrategyResult s : r.strategies()) {
      List<Episodes.Episode> over = s.episodes().stream().filter(e -> e.podsOverSlo() > 0)
          .sorted(java.util.Comparator.comparingInt(Episodes.Episode::podsOverSlo).reversed()
              .thenComparingLong(Episodes.Episode::startMillis))
          .limit(EPISODES_PER_STRATEGY).toList();
      long more = s.episodes().stream().filter(e -> e.podsOverSlo() > 0).count() - over.size();
      boolean buffer = "buffer".equals(s.type());
      for (Episodes.Episode e : over) {
        // one row per workload that waited in the episode; the episode's own figures on its first row
        for (Episodes.Share w : e.workloads()) {
          boolean lead = w == e.workloads().get(0);
          b.append("<tr").append(buffer && !w.covered() && w.podsOverSlo() > 0 ? " class=\"flag\"" : "").append("><td>")
              .append(esc(s.name())).append("</td><td>")
              .append(Verdict.clock(e.startMillis(), r.durationSeconds())).append("</td><td>").append(esc(w.workload()))
              .append("</td><td>").append(w.pods()).append("</td><td>").append(w.podsOverSlo()).append("</td><td>")
              .append(TextTable.secs(w.maxWaitMillis() / 1000.0)).append("</td><td>").append(w.peakPending())
              .append("</td><td>").append(!buffer ? "" : w.covered()
                  ? esc(String.join(", ", w.buffers())) + ": " + w.bufferReplicas() : Episodes.NOT_COVERED)
              .append("</td><td>").append(lead ? Integer.toString(e.nodesAdded()) : "").append("</td></tr>\n");
        }
        rows++;
      }
      if (more > 0) {
        b.append("<tr><td>").append(esc(s.name())).append("</td><td colspan=\"8\">and ").append(more)
            .append(" more episode").append(more == 1 ? "" : "s").append(" over the SLO (summary.json lists all)</td></tr>\n");
      }
    }
    if (rows == 0) {
      b.append("<tr><td colspan=\"9\">No pod waited longer than the SLO.</td></tr>\n");
    }
    return b.append("</table>\n").toString();
  }

  private static String signed(double v) {
    return (v > 0 ? "+" : "") + Numbers.fixed(v, 1);
  }

  /** Cost against p99 (with the interval) per strategy, cheapest first, and the Pareto frontier. */
  private static String decision(SimulationReport r) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < r.pooled().size(); i++) {
      order.add(i);
    }
    order.sort(java.util.Comparator.comparingDouble((Integer i) -> r.pooled().get(i).cost())
        .thenComparingLong(i -> r.pooled().get(i).p99().value()));
    StringBuilder b = new StringBuilder("{\"names\": [");
    StringBuilder cost = new StringBuilder("[");
    StringBuilder p99 = new StringBuilder("[");
    StringBuilder lo = new StringBuilder("[");
    StringBuilder hi = new StringBuilder("[");
    StringBuilder front = new StringBuilder("[");
    StringBuilder colors = new StringBuilder("[");
    long bestSoFar = Long.MAX_VALUE;
    for (int k = 0; k < order.size(); k++) {
      PooledResult p = r.pooled().get(order.get(k));
      String sep = k == 0 ? "" : ",";
      b.append(sep).append(SummaryJson.quote(p.name()));
      colors.append(sep).append(SummaryJson.quote(COLORS[order.get(k) % COLORS.length]));
      cost.append(sep).append(Numbers.plain(p.cost(), 4));
      p99.append(sep).append(Numbers.plain(p.p99().value() / 1000.0, 3));
      lo.append(sep).append(Numbers.plain(p.p99().low() / 1000.0, 3));
      hi.append(sep).append(Numbers.plain(p.p99().high() / 1000.0, 3));
      boolean onFrontier = p.p99().value() < bestSoFar;
      bestSoFar = Math.min(bestSoFar, p.p99().value());
      front.append(sep).append(onFrontier ? Numbers.plain(p.p99().value() / 1000.0, 3) : "null");
    }
    b.append("], \"cost\": ").append(cost).append("], \"p99\": ").append(p99).append("], \"lo\": ").append(lo)
        .append("], \"hi\": ").append(hi).append("], \"frontier\": ").append(front).append("], \"colors\": ")
        .append(colors).append("], \"slo\": ").append(Numbers.plain(r.sloSeconds(), 3)).append(", \"costLabel\": ")
        .append(SummaryJson.quote(r.costLabel()));
    // the pooled pod-wait CDF of every strategy on one grid of waits
    long max = 1;
    for (PooledResult p : r.pooled()) {
      max = Math.max(max, p.maxMillis());
    }
    b.append(", \"cdfX\": [");
    for (int g = 0; g <= CDF_POINTS; g++) {
      b.append(g == 0 ? "" : ",").append(Numbers.plain(max * (double) g / CDF_POINTS / 1000.0, 3));
    }
    b.append("], \"cdf\": [");
    for (int i = 0; i < r.pooled().size(); i++) {
      long[] w = r.pooled().get(i).sortedWaits();
      b.append(i == 0 ? "[" : ", [");
      int at = 0;
      for (int g = 0; g <= CDF_POINTS; g++) {
        double x = max * (double) g / CDF_POINTS;
        while (at < w.length && w[at] <= x) {
          at++;
        }
        b.append(g == 0 ? "" : ",").append(w.length == 0 ? "1" : Numbers.plain((double) at / w.length, 4));
      }
      b.append(']');
    }
    b.append("]}");
    return b.toString();
  }

  /** Busy windows of the first seed: overlapping over-SLO episodes of every strategy, padded, worst first. */
  private static String windows(SimulationReport r, boolean hours) {
    List<long[]> spans = new ArrayList<>();
    for (StrategyResult s : r.strategies()) {
      for (Episodes.Episode e : s.episodes()) {
        if (e.podsOverSlo() > 0) {
          spans.add(new long[] {Math.max(0, e.startMillis() - ZOOM_PAD_MILLIS), e.endMillis() + ZOOM_PAD_MILLIS, e.podsOverSlo()});
        }
      }
    }
    spans.sort(java.util.Comparator.comparingLong(x -> x[0]));
    List<long[]> merged = new ArrayList<>();
    for (long[] x : spans) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && x[0] <= last[1]) {
        last[1] = Math.max(last[1], x[1]);
        last[2] += x[2];
      } else {
        merged.add(x.clone());
      }
    }
    List<long[]> top = merged.stream().sorted(java.util.Comparator.comparingLong((long[] x) -> -x[2])
        .thenComparingLong(x -> x[0])).limit(ZOOM_WINDOWS).sorted(java.util.Comparator.comparingLong(x -> x[0])).toList();
    StringBuilder b = new StringBuilder("[");
    double unit = hours ? 3_600_000.0 : 60_000.0;
    for (int i = 0; i < top.size(); i++) {
      long[] w = top.get(i);
      b.append(i == 0 ? "" : ", ").append("{\"label\": ").append(SummaryJson.quote(
          Verdict.clock(w[0], r.durationSeconds()) + "-" + Verdict.clock(w[1], r.durationSeconds())))
          .append(", \"min\": ").append(Numbers.plain(w[0] / unit, 4)).append(", \"max\": ")
          .append(Numbers.plain(Math.min(w[1], r.durationSeconds() * 1000) / unit, 4)).append('}');
    }
    return b.append(']').toString();
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
    b.append("\"decision\": ").append(decision(r)).append(",\n");
    b.append("\"windows\": ").append(windows(r, hours)).append(",\n");
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
      .verdict { font-size: 17px; font-weight: 600; margin: 8px 0 12px 0; max-width: 1100px; }
      h2 { font-size: 16px; margin: 22px 0 6px 0; }
      tr.flag td { background: #fff4e0; }
      #zoom button { margin-right: 6px; }
      .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 18px; }
      .chart h2 { font-size: 14px; margin: 0 0 4px 0; font-weight: 600; }
      """;

  private static final String CHART_JS = """
      (function () {
        const dec = DATA.decision;
        const decRoot = document.getElementById('decision');
        function box(parent, title) {
          const b = document.createElement('div');
          b.className = 'chart';
          const h = document.createElement('h2');
          h.textContent = title;
          b.appendChild(h);
          parent.appendChild(b);
          return b;
        }
        const labels = {hooks: {draw: [u => {
          const ctx = u.ctx;
          ctx.save();
          ctx.font = (11 * devicePixelRatio) + 'px sans-serif';
          ctx.fillStyle = '#222';
          dec.names.forEach((n, i) => {
            const x = u.valToPos(dec.cost[i], 'x', true);
            const y = u.valToPos(dec.p99[i], 'y', true);
            ctx.fillText(n, x + 6 * devicePixelRatio, y - 4 * devicePixelRatio);
          });
          ctx.restore();
        }]}};
        new uPlot({
          width: 560, height: 300, plugins: [labels], scales: {x: {time: false}},
          series: [{label: dec.costLabel},
            {label: 'p99 wait', stroke: '#1f77b4', paths: () => null, points: {show: true, size: 8, fill: '#1f77b4'}},
            {label: 'p99 upper bound', stroke: '#aaa', paths: () => null, points: {show: true, size: 5}},
            {label: 'Pareto frontier', stroke: '#2ca02c', width: 2, spanGaps: true, points: {show: false}},
            {label: 'SLO', stroke: '#d62728', dash: [6, 4], points: {show: false}}],
          axes: [{label: dec.costLabel + ', mean per seed'}, {label: 'p99 pod wait (s)'}]
        }, [dec.cost, dec.p99, dec.hi, dec.frontier, dec.cost.map(() => dec.slo)],
          box(decRoot, 'Cost against p99 pod wait, with the Pareto frontier'));
        const cdfSeries = [{label: 'wait (s)'}];
        DATA.strategies.forEach((n, i) => cdfSeries.push({label: n, stroke: DATA.colors[i], width: 1.5, points: {show: false}}));
        new uPlot({
          width: 560, height: 300, series: cdfSeries, scales: {x: {time: false}, y: {range: [0, 1]}},
          axes: [{label: 'pod wait (s)'}, {label: 'share of pods waiting \u2264 x s'}]
        }, [dec.cdfX].concat(dec.cdf), box(decRoot, 'Pod-wait CDF per strategy (all seeds pooled)'));
        const root = document.getElementById('charts');
        const plots = [];
        const zoom = document.getElementById('zoom');
        function button(label, min, max) {
          const b = document.createElement('button');
          b.textContent = label;
          b.onclick = () => plots.forEach(p => p.setScale('x', {min: min, max: max}));
          zoom.appendChild(b);
        }
        button('whole run', DATA.x[0], DATA.x[DATA.x.length - 1]);
        DATA.windows.forEach(w => button('busy: ' + w.label, w.min, w.max));
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
          plots.push(new uPlot(opts, [DATA.x].concat(c.ys), box));
        }
      })();
      """;
}
