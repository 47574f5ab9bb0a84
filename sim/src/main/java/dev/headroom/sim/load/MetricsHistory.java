package dev.headroom.sim.load;

/**
 * Recent metric samples of one workload, read with a delay: {@link #read(long)} returns the newest sample
 * taken at or before {@code now − delay}, as a metrics pipeline (scrape interval plus aggregation window)
 * would. Kept in a ring buffer sized for the delay, so memory is independent of the run length.
 */
public final class MetricsHistory {

  /** One sample: CPU utilisation percent of Ready replicas, queue backlog, Ready replicas. */
  public record Sample(long atMillis, double cpuUtilization, double queue, int readyReplicas) {}

  private final long delayMillis;
  private final Sample[] ring;
  private int head;
  private int size;

  /** A history read {@code delayMillis} late, sampled every {@code tickMillis}. */
  public MetricsHistory(long delayMillis, long tickMillis) {
    this.delayMillis = delayMillis;
    this.ring = new Sample[(int) Math.min(1_000_000, delayMillis / Math.max(1, tickMillis) + 3)];
  }

  void record(long atMillis, double cpu, double queue, int ready) {
    ring[head] = new Sample(atMillis, cpu, queue, ready);
    head = (head + 1) % ring.length;
    size = Math.min(size + 1, ring.length);
  }

  /** The newest sample at or before {@code nowMillis − delay}, or null when there is none yet. */
  public Sample read(long nowMillis) {
    long cutoff = nowMillis - delayMillis;
    for (int i = 1; i <= size; i++) {
      Sample s = ring[(head - i + ring.length) % ring.length];
      if (s.atMillis() <= cutoff) {
        return s;
      }
    }
    return null;
  }

  /** The newest sample regardless of delay, or null. */
  public Sample latest() {
    return size == 0 ? null : ring[(head - 1 + ring.length) % ring.length];
  }
}
