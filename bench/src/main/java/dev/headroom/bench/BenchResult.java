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
 */
public record BenchResult(
    String benchmark, int pods, int nodes, double seconds, double podsPerSecond, long peakHeapBytes, int cores, String jvm, double cpuSeconds) {

  /** The JSON object on one line, keys in the documented order. */
  public String toJson() {
    return String.format(
        Locale.ROOT,
        "{\"benchmark\":%s,\"pods\":%d,\"nodes\":%d,\"seconds\":%.6f,\"podsPerSecond\":%.1f,\"peakHeapBytes\":%d,\"cores\":%d,\"jvm\":%s,\"cpuSeconds\":%.6f}",
        quote(benchmark), pods, nodes, seconds, podsPerSecond, peakHeapBytes, cores, quote(jvm), cpuSeconds);
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
