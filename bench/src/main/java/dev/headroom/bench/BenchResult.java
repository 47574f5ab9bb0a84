package dev.headroom.bench;

import java.util.Locale;

/**
 * One measured result, printed as the JSON line of {@code headroom bench}.
 *
 * @param benchmark scenario name
 * @param pods pods handled
 * @param nodes nodes in the result
 * @param seconds wall time of the measured run (median of the measured iterations)
 * @param podsPerSecond {@code pods / seconds}
 * @param peakHeapBytes peak heap use during the measured runs (sum of the heap pools' peaks)
 * @param cores processors available to the JVM
 * @param jvm JVM vendor, name and version
 * @param cpuSeconds CPU time of the measuring thread for the median run (wall time inflates when the
 *     machine is shared; this does not)
 * @param coldSeconds wall time of the first run in this JVM (the first warm-up, or the first measured run)
 * @param coldCpuSeconds CPU time of the measuring thread for that run
 * @param provisionedPerRequestedCpu CPU capacity of the new nodes over the pods' CPU requests (NaN: no new nodes)
 * @param podsPerZone pods on new nodes by zone (empty when the scenario has no zones)
 * @param metrics the scenario's further figures of the last measured run (a {@code metrics} object at the end of
 *     the line, left out when empty)
 */
public record BenchResult(
    String benchmark, int pods, int nodes, double seconds, double podsPerSecond, long peakHeapBytes, int cores, String jvm,
    double cpuSeconds, double coldSeconds, double coldCpuSeconds, double provisionedPerRequestedCpu,
    java.util.SortedMap<String, Integer> podsPerZone, java.util.SortedMap<String, Double> metrics) {

  /** A result without further metrics. */
  public BenchResult(
      String benchmark, int pods, int nodes, double seconds, double podsPerSecond, long peakHeapBytes, int cores, String jvm,
      double cpuSeconds, double coldSeconds, double coldCpuSeconds, double provisionedPerRequestedCpu,
      java.util.SortedMap<String, Integer> podsPerZone) {
    this(benchmark, pods, nodes, seconds, podsPerSecond, peakHeapBytes, cores, jvm, cpuSeconds, coldSeconds, coldCpuSeconds,
        provisionedPerRequestedCpu, podsPerZone, new java.util.TreeMap<>());
  }

  /** The JSON object on one line, keys in the documented order. */
  public String toJson() {
    StringBuilder zones = new StringBuilder("{");
    for (java.util.Map.Entry<String, Integer> e : podsPerZone.entrySet()) {
      zones.append(zones.length() > 1 ? "," : "").append(quote(e.getKey())).append(':').append(e.getValue());
    }
    zones.append('}');
    StringBuilder more = new StringBuilder();
    if (!metrics.isEmpty()) {
      more.append(",\"metrics\":{");
      for (java.util.Map.Entry<String, Double> e : metrics.entrySet()) {
        more.append(more.charAt(more.length() - 1) == '{' ? "" : ",").append(quote(e.getKey())).append(':')
            .append(String.format(Locale.ROOT, "%.6f", e.getValue()));
      }
      more.append('}');
    }
    return String.format(
        Locale.ROOT,
        "{\"benchmark\":%s,\"pods\":%d,\"nodes\":%d,\"seconds\":%.6f,\"podsPerSecond\":%.1f,\"peakHeapBytes\":%d,\"cores\":%d,\"jvm\":%s,\"cpuSeconds\":%.6f,"
            + "\"coldSeconds\":%.6f,\"coldCpuSeconds\":%.6f,\"provisionedPerRequestedCpu\":%s,\"podsPerZone\":%s%s}",
        quote(benchmark), pods, nodes, seconds, podsPerSecond, peakHeapBytes, cores, quote(jvm), cpuSeconds, coldSeconds,
        coldCpuSeconds, Double.isNaN(provisionedPerRequestedCpu) ? "null" : String.format(Locale.ROOT, "%.4f", provisionedPerRequestedCpu),
        zones, more);
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
