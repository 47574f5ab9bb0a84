package dev.headroom.sim.run;

import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.LoopTrigger;
import dev.headroom.sim.engine.EventQueue;
import dev.headroom.sim.engine.EventQueue.Phase;
import java.util.function.Supplier;

/**
 * When the simulated autoscaler loop runs, by core's {@link LoopTrigger} rule, as {@code headroom run}'s loop
 * ({@code controller} {@code AutoscalerLoop}) times its iterations: every scan interval at a fixed rate, and between
 * scans at the instant a trigger names (new pending demand, once its new-pod cooldown has passed). Triggers coalesce
 * into one iteration at the earliest of their instants; after an iteration that scaled up or down they wait for the
 * next regular scan; an iteration restarts the fixed rate (the next regular scan one interval after it began).
 * Nothing after {@code end} runs. One pending event at a time: a rescheduled one leaves its predecessor stale (a
 * generation number), so the queue stays small however many pods trigger.
 */
final class LoopSchedule {
  private final EventQueue events;
  private final long end;
  private final Supplier<IterationResult> iteration;
  private final LoopTrigger.Schedule schedule;
  private long generation;
  private long scheduledAt = Long.MIN_VALUE;

  /**
   * @param iteration runs one iteration and returns its result (null for a skipped, idle one)
   */
  LoopSchedule(EventQueue events, long intervalMillis, long endMillis, Supplier<IterationResult> iteration) {
    this.events = events;
    this.end = endMillis;
    this.iteration = iteration;
    this.schedule = new LoopTrigger.Schedule(intervalMillis, 0);
    reschedule();
  }

  /** Asks for an iteration at {@code atMillis} (at once when it has passed). */
  void trigger(long atMillis) {
    if (schedule.trigger(Math.max(atMillis, events.clock().millis()))) {
      reschedule();
    }
  }

  private void reschedule() {
    long due = schedule.due();
    if (due == scheduledAt) {
      return;
    }
    long mine = ++generation;
    if (due > end) {
      scheduledAt = Long.MIN_VALUE;
      return;
    }
    scheduledAt = due;
    events.at(due, Phase.AUTOSCALER, () -> {
      if (mine == generation) {
        run();
      }
    });
  }

  private void run() {
    scheduledAt = Long.MIN_VALUE;
    schedule.began(events.clock().millis());
    schedule.finished(iteration.get());
    reschedule();
  }
}
