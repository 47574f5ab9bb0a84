package dev.headroom.sim.stats;

import dev.headroom.sim.engine.SimRandom;
import java.util.Arrays;
import java.util.List;

/**
 * Percentile confidence intervals of pooled pod waits by a seeded two-stage bootstrap: each resample draws as
 * many runs (seeds) as there are, with replacement, and from every drawn run as many of its waits as it has,
 * with replacement. Resampling whole runs first keeps the correlation inside a run (one slow scale-up makes
 * several pods wait alike), so the interval does not pretend that 300 waits of one run are 300 independent
 * observations; with one seed it is the ordinary bootstrap over pods. The interval is the percentile method:
 * the {@code (1 - CONFIDENCE) / 2} and {@code (1 + CONFIDENCE) / 2} nearest-rank quantiles of the
 * {@link #RESAMPLES} resampled statistics. Each statistic is the nearest-rank percentile, as everywhere else.
 */
public final class Bootstrap {

  /** Resamples per interval. */
  public static final int RESAMPLES = 1000;
  /** Confidence level of the intervals. */
  public static final double CONFIDENCE = 0.95;

  /** A percentile of the pooled waits and its interval, in milliseconds. */
  public record Estimate(long value, long low, long high) {}

  private Bootstrap() {}

  /**
   * The percentiles {@code ps} (0..100) of the waits of every run pooled, with their intervals.
   *
   * @param runs each run's waits, in any order
   * @param seed seed of the resampling (derive it from the runs' seeds: {@link #seedOf})
   */
  public static Estimate[] percentiles(List<long[]> runs, double[] ps, long seed) {
    int n = 0;
    for (long[] r : runs) {
      n += r.length;
    }
    long[] pooled = new long[n];
    int k = 0;
    for (long[] r : runs) {
      System.arraycopy(r, 0, pooled, k, r.length);
      k += r.length;
    }
    Arrays.sort(pooled);
    Estimate[] out = new Estimate[ps.length];
    if (n == 0) {
      Arrays.fill(out, new Estimate(0, 0, 0));
      return out;
    }
    // each wait as the first position of its value in the pooled order: counting draws per position then
    // gives a resample's order statistics in one pass, without sorting it
    int[][] positions = new int[runs.size()][];
    for (int i = 0; i < runs.size(); i++) {
      long[] r = runs.get(i);
      int[] pos = new int[r.length];
      for (int j = 0; j < r.length; j++) {
        pos[j] = lowerBound(pooled, r[j]);
      }
      positions[i] = pos;
    }
    SimRandom random = new SimRandom(seed);
    long[][] stats = new long[ps.length][RESAMPLES];
    int[] counts = new int[n];
    for (int b = 0; b < RESAMPLES; b++) {
      Arrays.fill(counts, 0);
      int m = 0;
      for (int s = 0; s < positions.length; s++) {
        int[] pos = positions[random.nextInt(positions.length)];
        for (int j = 0; j < pos.length; j++) {
          counts[pos[random.nextInt(pos.length)]]++;
        }
        m += pos.length;
      }
      if (m == 0) {
        continue;
      }
      // nearest ranks of this resample, walked in increasing order
      Integer[] order = new Integer[ps.length];
      for (int q = 0; q < ps.length; q++) {
        order[q] = q;
      }
      Arrays.sort(order, (x, y) -> Double.compare(ps[x], ps[y]));
      int next = 0;
      long cumulative = 0;
      for (int i = 0; i < n && next < ps.length; i++) {
        cumulative += counts[i];
        while (next < ps.length && cumulative >= rank(ps[order[next]], m)) {
          stats[order[next]][b] = pooled[i];
          next++;
        }
      }
    }
    for (int q = 0; q < ps.length; q++) {
      long[] st = stats[q];
      Arrays.sort(st);
      double tail = (1 - CONFIDENCE) / 2 * 100;
      out[q] = new Estimate(pooled[rank(ps[q], n) - 1], st[rank(tail, RESAMPLES) - 1], st[rank(100 - tail, RESAMPLES) - 1]);
    }
    return out;
  }

  /** A resampling seed derived from a run's seeds and what is resampled (a strategy name). */
  public static long seedOf(List<Long> seeds, String what) {
    long h = 0x2545F4914F6CDD1DL;
    for (long s : seeds) {
      h = (h ^ s) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 31;
    }
    return new SimRandom(h).stream("bootstrap/" + what).seed();
  }

  /** The nearest rank (1-based) of percentile {@code p} among {@code n} values (as {@code WaitStats}). */
  static int rank(double p, int n) {
    int r = (int) Math.ceil(p / 100.0 * n);
    return Math.min(n, Math.max(1, r));
  }

  private static int lowerBound(long[] a, long v) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
