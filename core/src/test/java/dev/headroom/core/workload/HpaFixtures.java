package dev.headroom.core.workload;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pods and samples for the HPA-mode vectors: every pod Running, Ready and started long ago unless stated. */
final class HpaFixtures {

  static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  static final Instant LONG_AGO = NOW.minus(Duration.ofHours(1));

  private HpaFixtures() {}

  /** A cool, ready pod {@code p<i>} with one container requesting {@code cpuMilli}. */
  static PodInfo cool(int i, long cpuMilli) {
    return PodInfo.running("p" + i, cpuMilli, LONG_AGO, LONG_AGO.plusSeconds(5));
  }

  /** Pods p0.. with the given per-pod CPU requests. */
  static List<PodInfo> pods(long... requests) {
    List<PodInfo> out = new ArrayList<>();
    for (int i = 0; i < requests.length; i++) {
      out.add(cool(i, requests[i]));
    }
    return out;
  }

  /** {@code n} pods requesting {@code request} each. */
  static List<PodInfo> uniform(int n, long request) {
    long[] r = new long[n];
    java.util.Arrays.fill(r, request);
    return pods(r);
  }

  /** Ready=False since it started long ago: it never became ready. */
  static PodInfo unready(PodInfo p) {
    return p.withReady(false, LONG_AGO);
  }

  /** Started a minute ago, Ready for 30 s: inside the CPU initialization period, its sample predates a window. */
  static PodInfo hot(PodInfo p) {
    return p.withStartTime(NOW.minusSeconds(60)).withReady(true, NOW.minusSeconds(30));
  }

  /** Replaces pod i in a list. */
  static List<PodInfo> with(List<PodInfo> pods, int i, java.util.function.UnaryOperator<PodInfo> f) {
    List<PodInfo> out = new ArrayList<>(pods);
    out.set(i, f.apply(out.get(i)));
    return out;
  }

  /** Samples p0, p1, … taken now; a null entry means no sample for that pod. */
  static MetricReading.PodSamples sparse(Long... values) {
    Map<String, PodSample> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        m.put("p" + i, PodSample.of(values[i], NOW));
      }
    }
    return new MetricReading.PodSamples(m);
  }

  static MetricReading.PodSamples samples(long... values) {
    Long[] boxed = new Long[values.length];
    for (int i = 0; i < values.length; i++) {
      boxed[i] = values[i];
    }
    return sparse(boxed);
  }
}
