package dev.headroom.core.workload;

/**
 * One tick of the tick model.
 *
 * @param t the tick
 * @param arrivals items that arrived this tick
 * @param replicas the replicas serving this tick
 * @param processed items served: {@code min(capacity, carried backlog + arrivals)}
 * @param utilization {@code 100 × processed ÷ capacity} (0 with no capacity), unrounded
 * @param queue the backlog at the end of the tick
 */
public record TickRow(int t, long arrivals, int replicas, long processed, double utilization, long queue) {

  /** The utilisation as the seed prints it: floored, so 62.5 shows as 62. */
  public long utilizationFloor() {
    return (long) Math.floor(utilization);
  }
}
