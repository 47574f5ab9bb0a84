package dev.headroom.sim.load;

import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.scenario.Scenario;

/**
 * Fluid queue model of one workload, advanced once per tick: arrivals come from the load profile (with
 * optional seeded noise), Ready replicas serve up to their capacity, the rest waits in a backlog. It
 * produces the two signals the workload autoscaler reads: CPU utilisation (work done ÷ capacity, the seed
 * chapter's definition) and queue length (end-of-tick backlog).
 */
public final class LoadModel {

  private final Scenario.Load load;
  private final SimRandom noise;
  private final MetricsHistory history;
  private double backlog;
  private double arrivedTotal;
  private double servedTotal;
  private double lastRate;
  private double lastUtilization;

  /** A model for one workload's load, recording into {@code history}. */
  public LoadModel(Scenario.Load load, SimRandom noise, MetricsHistory history) {
    this.load = load;
    this.noise = noise;
    this.history = history;
    this.lastRate = load.profile().rateAt(0);
  }

  /**
   * Advances one tick ending at {@code endSeconds}, lasting {@code dtSeconds}, with {@code readyReplicas}
   * serving, and records the resulting sample.
   */
  public void step(long endMillis, double dtSeconds, int readyReplicas) {
    double t = endMillis / 1000.0 - dtSeconds;
    double rate = load.profile().rateAt(t);
    if (load.noise() > 0) {
      double g = 0;
      for (int i = 0; i < 12; i++) {
        g += noise.nextDouble();
      }
      rate = Math.max(0, rate * (1 + load.noise() * (g - 6)));
    }
    double arrivals = rate * dtSeconds;
    double capacity = readyReplicas * load.perReplicaCapacity() * dtSeconds;
    double processed = Math.min(capacity, backlog + arrivals);
    backlog = backlog + arrivals - processed;
    if (backlog < 1e-9) {
      backlog = 0;
    }
    double utilization = capacity > 0 ? 100.0 * processed / capacity : 0.0;
    arrivedTotal += arrivals;
    servedTotal += processed;
    lastRate = rate;
    lastUtilization = utilization;
    history.record(endMillis, utilization, backlog, readyReplicas);
  }

  /** Items waiting at the end of the last tick. */
  public double backlog() {
    return backlog;
  }

  /** Arrival rate of the last tick. */
  public double lastRate() {
    return lastRate;
  }

  /** Utilisation of the last tick (percent). */
  public double lastUtilization() {
    return lastUtilization;
  }

  /** Items arrived so far. */
  public double arrivedTotal() {
    return arrivedTotal;
  }

  /** Items served so far. */
  public double servedTotal() {
    return servedTotal;
  }
}
