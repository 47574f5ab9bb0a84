package dev.headroom.sim.engine;

import java.util.PriorityQueue;

/**
 * The discrete-event engine: actions scheduled at virtual times, run in (time, phase, insertion) order so that
 * runs are reproducible. Running an action moves the {@link VirtualClock} to its time.
 */
public final class EventQueue {

  /** Order of events that fall on the same millisecond; lower runs first. */
  public enum Phase {
    /** Node and pod lifecycle transitions (a node becomes Ready, a pod finishes starting, a job ends). */
    LIFECYCLE,
    /** Load and metric sampling. */
    METRICS,
    /** The workload autoscaler (HPA/KEDA) writing replicas. */
    WORKLOAD,
    /** Workload controllers: Deployments and Jobs creating and deleting pods. */
    CONTROLLER,
    /** The buffer controller's reconcile. */
    BUFFER,
    /** The scheduler pass, after everything that could change what is pending. */
    SCHEDULER,
    /** The cluster autoscaler iteration, which sees the pods the scheduler could not place. */
    AUTOSCALER,
    /** Recording of per-tick samples, after the state of the tick has settled. */
    RECORD
  }

  private record Scheduled(long time, int phase, long seq, Runnable action) implements Comparable<Scheduled> {
    @Override
    public int compareTo(Scheduled o) {
      int c = Long.compare(time, o.time);
      if (c != 0) {
        return c;
      }
      c = Integer.compare(phase, o.phase);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  private final VirtualClock clock;
  private final PriorityQueue<Scheduled> queue = new PriorityQueue<>();
  private long seq;
  private long processed;

  /** Creates an engine driving the given clock. */
  public EventQueue(VirtualClock clock) {
    this.clock = clock;
  }

  /** The clock this engine drives. */
  public VirtualClock clock() {
    return clock;
  }

  /** Schedules an action at an absolute scenario time (never before now). */
  public void at(long millis, Phase phase, Runnable action) {
    queue.add(new Scheduled(Math.max(millis, clock.millis()), phase.ordinal(), seq++, action));
  }

  /** Schedules an action after a delay from now. */
  public void after(long delayMillis, Phase phase, Runnable action) {
    at(clock.millis() + Math.max(0, delayMillis), phase, action);
  }

  /**
   * Schedules an action at {@code firstMillis} and then every {@code everyMillis} before {@code endMillis}; once
   * when {@code everyMillis} is not positive (a fixed arrival schedule).
   */
  public void every(long firstMillis, long everyMillis, long endMillis, Phase phase, Runnable action) {
    for (long t = firstMillis; t < endMillis; t += everyMillis) {
      at(t, phase, action);
      if (everyMillis <= 0) {
        break;
      }
    }
  }

  /** Runs every action scheduled up to and including {@code endMillis}; later ones stay queued. */
  public void runUntil(long endMillis) {
    while (!queue.isEmpty() && queue.peek().time() <= endMillis) {
      Scheduled next = queue.poll();
      clock.advanceTo(next.time());
      processed++;
      next.action().run();
    }
    if (clock.millis() < endMillis) {
      clock.advanceTo(endMillis);
    }
  }

  /** Number of events processed so far. */
  public long processed() {
    return processed;
  }

  /** Number of events waiting. */
  public int pending() {
    return queue.size();
  }
}
