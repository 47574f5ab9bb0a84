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
  private final long interval;
  private final long end;
  private final Supplier<IterationResult> iteration;
  private long next;
  private long triggerAt = Long.MAX_VALUE;
  private boolean hold;
  private long generation;
  private long scheduledAt = Long.MIN_VALUE;

  /**
   * @param iteration runs one iteration and returns its result (null for a skipped, idle one)
   */
  LoopSchedule(EventQueue events, long intervalMillis, long endMillis, Supplier<IterationResult> iteration) {
    this.events = events;
    this.interval = intervalMillis;
    this.end = endMillis;
    this.iteration = iteration;
    this.next = intervalMillis;
    reschedule();
  }

  /** Asks for an iteration at {@code atMillis} (at once when it has passed). */
  void trigger(long atMillis) {
    long at = Math.max(atMillis, events.clock().millis());
    if (at < triggerAt) {
      triggerAt = at;
      reschedule();
    }
  }

  /** The instant of the next iteration as things stand. */
  private long due() {
    return hold ? next : Math.min(next, triggerAt);
  }

  private void reschedule() {
    long due = due();
    if (due == scheduledAt || due > end) {
      if (due > end) {
        generation++;
        scheduledAt = Long.MIN_VALUE;
      }
      return;
    }
    long mine = ++generation;
    scheduledAt = due;
    events.at(due, Phase.AUTOSCALER, () -> {
      if (mine == generation) {
        run();
      }
    });
  }

  private void run() {
    long began = events.clock().millis();
    scheduledAt = Long.MIN_VALUE;
    if (triggerAt <= began) {
      triggerAt = Long.MAX_VALUE; // served by this iteration; a later one stays pending
    }
    IterationResult r = iteration.get();
    next = began + interval;
    hold = LoopTrigger.holdsTriggers(r);
    reschedule();
  }
}
