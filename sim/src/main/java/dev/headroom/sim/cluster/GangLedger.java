package dev.headroom.sim.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * What the gang job controllers of one run measured: per job its start delay (arrival to all workers bound), and
 * over all jobs the rendezvous timeouts, restarts, completions and the GPU time held idle by partial placements
 * (workers bound while their job waited for the rest).
 */
public final class GangLedger {

  /** Resource name of GPUs (the NVIDIA device plugin's extended resource). */
  public static final String GPU = "nvidia.com/gpu";

  private final List<Long> startDelays = new ArrayList<>();
  private final List<Long> arrivals = new ArrayList<>();
  private int started;
  private int timeouts;
  private int restarts;
  private int completed;

  private double idleGpuMillis;
  private double idleWorkerMillis;

  void arrived(long at) {
    arrivals.add(at);
  }

  void started(long delayMillis) {
    started++;
    startDelays.add(delayMillis);
  }

  /** A job that had not started when the run ended: it counts with the time it waited so far. */
  void notStarted(long waitedMillis) {
    startDelays.add(waitedMillis);
  }

  void timedOut() {
    timeouts++;
  }

  void restarted() {
    restarts++;
  }

  void complete() {
    completed++;
  }

  /** A worker that held {@code gpus} GPUs for {@code millis} while its job did not run. */
  void idle(double gpus, long millis) {
    idleGpuMillis += gpus * millis;
    idleWorkerMillis += millis;
  }

  /** Jobs that arrived. */
  public int jobs() {
    return arrivals.size();
  }

  /** Jobs that started (all workers bound) at least once. */
  public int started() {
    return started;
  }

  /**
   * Start delays, in ms: of every job that started (its first start, in start order), then of every job that had not
   * started when the run ended (the time it waited so far).
   */
  public List<Long> startDelays() {
    return List.copyOf(startDelays);
  }

  /** Rendezvous timeouts (attempts given up before every worker was bound). */
  public int timeouts() {
    return timeouts;
  }

  /** Started attempts that failed because a worker was lost. */
  public int restarts() {
    return restarts;
  }

  /** Jobs that ran to completion. */
  public int completed() {
    return completed;
  }

  /** GPU-hours held by bound workers whose job was not running. */
  public double idleGpuHours() {
    return idleGpuMillis / 3_600_000.0;
  }

  /** Worker-hours (pod-hours) bound while their job was not running. */
  public double idleWorkerHours() {
    return idleWorkerMillis / 3_600_000.0;
  }
}
