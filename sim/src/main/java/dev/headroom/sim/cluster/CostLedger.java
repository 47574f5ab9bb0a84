package dev.headroom.sim.cluster;

/**
 * Node-hours and cost, accumulated exactly from state transitions (not sampled): a running or provisioning
 * node costs its group price from request to deletion; a standby instance (docs/simulator.md, "Standby capacity")
 * costs its group's standby price from launch until it is resumed or dropped.
 */
public final class CostLedger {

  private double runningNodeMillis;
  private double standbyNodeMillis;
  private double cost;

  /** Adds a span of a running (requested, not standby) node at {@code pricePerHour}. */
  public void running(long fromMillis, long toMillis, double pricePerHour) {
    long d = Math.max(0, toMillis - fromMillis);
    runningNodeMillis += d;
    cost += pricePerHour * d / 3_600_000.0;
  }

  /** Adds a span of a standby instance (preparing or suspended) at the group's standby {@code pricePerHour}. */
  public void standby(long fromMillis, long toMillis, double pricePerHour) {
    long d = Math.max(0, toMillis - fromMillis);
    standbyNodeMillis += d;
    cost += pricePerHour * d / 3_600_000.0;
  }

  /** Node-hours of running (requested, not standby) nodes. */
  public double nodeHours() {
    return runningNodeMillis / 3_600_000.0;
  }

  /** Hours of standby instances. */
  public double standbyHours() {
    return standbyNodeMillis / 3_600_000.0;
  }

  /** Total cost. */
  public double cost() {
    return cost;
  }
}
