package dev.headroom.sim.cluster;

/**
 * Node-hours and cost, accumulated exactly from state transitions (not sampled): a running or provisioning
 * node costs its group price from request to deletion; a stopped warm-pool instance costs the pool's fraction.
 */
public final class CostLedger {

  private double runningNodeMillis;
  private double stoppedNodeMillis;
  private double cost;

  /** Adds a span of a running (requested, not stopped) node at {@code pricePerHour}. */
  public void running(long fromMillis, long toMillis, double pricePerHour) {
    long d = Math.max(0, toMillis - fromMillis);
    runningNodeMillis += d;
    cost += pricePerHour * d / 3_600_000.0;
  }

  /** Adds a span of a stopped warm-pool instance at {@code pricePerHour × fraction}. */
  public void stopped(long fromMillis, long toMillis, double pricePerHour, double fraction) {
    long d = Math.max(0, toMillis - fromMillis);
    stoppedNodeMillis += d;
    cost += pricePerHour * fraction * d / 3_600_000.0;
  }

  /** Node-hours of running (requested, not stopped) nodes. */
  public double nodeHours() {
    return runningNodeMillis / 3_600_000.0;
  }

  /** Hours of stopped warm-pool instances. */
  public double stoppedHours() {
    return stoppedNodeMillis / 3_600_000.0;
  }

  /** Total cost. */
  public double cost() {
    return cost;
  }
}
