package dev.headroom.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The figures the calibration compares (issue #24, docs/simulator.md "How far to trust it"), for one strategy of
 * one scenario: from {@code headroom simulate}'s {@code summary.json} and {@code ticks.csv}, or from a real run on
 * the bed ({@link CalibrationRun}). Times are in scenario seconds (a real run's are multiplied by its time scale).
 */
final class Calibration {
  private Calibration() {}

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /**
   * @param strategy strategy name
   * @param pods pod starts counted (every real pod created after the start; balloons excluded)
   * @param p50 nearest-rank percentiles and the longest wait, seconds
   * @param overSlo pods that waited longer than the SLO
   * @param nodeHours node-hours (requested or created to deleted, or to the end)
   * @param cost node-hours times each group's price
   * @param nodes node count at every tick, seconds → nodes (provisioning nodes included)
   * @param nodeStartOverhead a real run's median, over the nodes it created, of (created → Ready and without the
   *     not-ready taint) minus the group's provisioning delay: what the bed adds to the delay (0 for the simulator)
   * @param schedulingP95 a real run's p95 wait of its initial replicas, created at once onto nodes with room for
   *     them before the start (not counted in the waits): the bed's own scheduling latency at its load, in scenario
   *     time (0 for the simulator, which binds them at once)
   * @param loopP95 a real run's p95 duration of an autoscaler iteration ({@code headroom_function_duration_seconds},
   *     function {@code main}, the upper bound of its bucket), in scenario time (0 for the simulator, whose loops take no time)
   */
  record Figures(String strategy, int pods, double p50, double p95, double max, int overSlo, double nodeHours, double cost,
      TreeMap<Long, Integer> nodes, double nodeStartOverhead, double schedulingP95, double loopP95) {

    String line() {
      return String.format(java.util.Locale.ROOT, "%-8s pods %3d  p50 %6.1fs  p95 %6.1fs  max %6.1fs  over SLO %3d  node-hours %6.3f  cost %6.4f  peak nodes %d  node start +%.1fs  bed scheduling p95 %.1fs  loop p95 %.1fs",
          strategy, pods, p50, p95, max, overSlo, nodeHours, cost, nodes.values().stream().mapToInt(Integer::intValue).max().orElse(0), nodeStartOverhead, schedulingP95, loopP95);
    }
  }

  /** What the simulator printed: the figures per strategy and each workload's replicas over time. */
  record Simulated(Map<String, Figures> figures, Map<String, Map<String, TreeMap<Long, Integer>>> replicas, double sloSeconds) {}

  /** Reads {@code summary.json} and {@code ticks.csv} of {@code headroom simulate --out DIR}. */
  static Simulated readSimulation(Path dir) throws IOException {
    JsonNode summary = JSON.readTree(Files.readString(dir.resolve("summary.json"), StandardCharsets.UTF_8));
    Map<String, TreeMap<Long, Integer>> nodes = new LinkedHashMap<>();
    Map<String, Map<String, TreeMap<Long, Integer>>> replicas = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(dir.resolve("ticks.csv"), StandardCharsets.UTF_8);
    String[] header = lines.get(0).split(",");
    List<Integer> replicaColumns = new ArrayList<>();
    for (int i = 0; i < header.length; i++) {
      if (header[i].endsWith("_replicas") && !header[i].equals("buffer_replicas")) {
        replicaColumns.add(i);
      }
    }
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      String strategy = f[0];
      long t = Long.parseLong(f[1]);
      nodes.computeIfAbsent(strategy, s -> new TreeMap<>()).put(t, Integer.parseInt(f[2]));
      Map<String, TreeMap<Long, Integer>> perWorkload = replicas.computeIfAbsent(strategy, s -> new LinkedHashMap<>());
      for (int c : replicaColumns) {
        String w = header[c].substring(0, header[c].length() - "_replicas".length());
        TreeMap<Long, Integer> series = perWorkload.computeIfAbsent(w, x -> new TreeMap<>());
        int r = Integer.parseInt(f[c]);
        if (series.isEmpty() || series.lastEntry().getValue() != r) {
          series.put(t, r);
        }
      }
    }
    Map<String, Figures> figures = new LinkedHashMap<>();
    for (JsonNode s : summary.get("strategies")) {
      String name = s.get("name").asString();
      JsonNode w = s.get("podWait");
      figures.put(name, new Figures(name, s.get("pods").asInt(), w.get("p50").asDouble(), w.get("p95").asDouble(),
          w.get("max").asDouble(), s.get("podsOverSlo").asInt(), s.get("nodeHours").asDouble(), s.get("cost").asDouble(),
          nodes.getOrDefault(name, new TreeMap<>()), 0, 0, 0));
    }
    return new Simulated(figures, replicas, summary.get("sloSeconds").asDouble());
  }

  /**
   * The q-quantile of a Prometheus histogram in {@code metrics} (the upper bound of the first bucket holding it), in
   * seconds; 0 when the series is absent.
   */
  static double histogramQuantile(String metrics, String name, String label, double q) {
    TreeMap<Double, Double> buckets = new TreeMap<>();
    for (String line : metrics.split("\n")) {
      if (line.startsWith(name + "_bucket{") && line.contains(label)) {
        int le = line.indexOf("le=\"");
        String bound = line.substring(le + 4, line.indexOf('"', le + 4));
        double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        buckets.put(bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound), v);
      }
    }
    if (buckets.isEmpty() || buckets.lastEntry().getValue() == 0) {
      return 0;
    }
    double total = buckets.lastEntry().getValue();
    for (Map.Entry<Double, Double> b : buckets.entrySet()) {
      if (b.getValue() >= q * total) {
        return b.getKey().isInfinite() ? buckets.lowerKey(b.getKey()) : b.getKey();
      }
    }
    return 0;
  }

  /** Nearest-rank percentile (as the simulator's), of seconds. */
  static double percentile(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
