package dev.headroom.sim.run;

import java.util.Arrays;

/**
 * Exact order statistics of pod waits (no sketches): every wait is kept, in milliseconds, and percentiles use
 * the nearest-rank definition (the smallest wait with at least p% of waits at or below it).
 */
public final class WaitStats {

  private long[] waits = new long[1024];
  private int size;
  private boolean sorted = true;

  /** Adds one wait. */
  public void add(long millis) {
    if (size == waits.length) {
      waits = Arrays.copyOf(waits, size * 2);
    }
    if (size > 0 && millis < waits[size - 1]) {
      sorted = false;
    }
    waits[size++] = millis;
  }

  /** Number of waits. */
  public int count() {
    return size;
  }

  /** Nearest-rank percentile in milliseconds (0 when empty). */
  public long percentile(double p) {
    if (size == 0) {
      return 0;
    }
    sort();
    int rank = (int) Math.ceil(p / 100.0 * size);
    return waits[Math.min(size, Math.max(1, rank)) - 1];
  }

  /** Largest wait (0 when empty). */
  public long max() {
    if (size == 0) {
      return 0;
    }
    sort();
    return waits[size - 1];
  }

  /** Number of waits strictly longer than {@code limitMillis}. */
  public int over(long limitMillis) {
    int n = 0;
    for (int i = 0; i < size; i++) {
      if (waits[i] > limitMillis) {
        n++;
      }
    }
    return n;
  }

  private void sort() {
    if (!sorted) {
      Arrays.sort(waits, 0, size);
      sorted = true;
    }
  }
}
