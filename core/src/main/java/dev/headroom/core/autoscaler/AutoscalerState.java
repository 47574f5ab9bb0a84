package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.Backoff;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything an autoscaler remembers between iterations: the cluster-state registry of scale-up requests,
 * group backoff, unneeded-since timers, recently-unremovable nodes and the scale-down cooldown clocks. One
 * object per autoscaler; the cluster runtime and the simulator keep it across loops, {@code plan} starts
 * with a fresh one.
 */
public final class AutoscalerState {

  private final Map<String, ScaleUpRequest> scaleUpRequests = new TreeMap<>();
  private final Backoff backoff;
  private final Map<String, Instant> unneededSince = new HashMap<>();
  private final Map<String, Instant> unremovableUntil = new HashMap<>();
  private Instant lastScaleUp;
  private Instant lastScaleDownDelete;
  private Instant lastScaleDownFailure;
  private long loops;

  public AutoscalerState(AutoscalerOptions options) {
    this.backoff = new Backoff(options.initialNodeGroupBackoffDuration(), options.maxNodeGroupBackoffDuration(), options.nodeGroupBackoffResetTimeout());
  }

  /** Active scale-up requests by group. */
  public Map<String, ScaleUpRequest> scaleUpRequests() {
    return scaleUpRequests;
  }

  /**
   * Registers {@code increase} more nodes requested from {@code group} at {@code now}; a later request adds
   * to the increase and resets both times.
   */
  public void registerScaleUp(String group, int increase, Instant now, java.time.Duration provisionTime) {
    ScaleUpRequest old = scaleUpRequests.get(group);
    int total = (old == null ? 0 : old.increase()) + increase;
    scaleUpRequests.put(group, new ScaleUpRequest(group, total, now, now.plus(provisionTime)));
  }

  public Backoff backoff() {
    return backoff;
  }

  /** Node name → first loop in which it was found unneeded. */
  public Map<String, Instant> unneededSince() {
    return unneededSince;
  }

  /** Node name → time until which it is not re-examined. */
  public Map<String, Instant> unremovableUntil() {
    return unremovableUntil;
  }

  public Optional<Instant> lastScaleUp() {
    return Optional.ofNullable(lastScaleUp);
  }

  public Optional<Instant> lastScaleDownDelete() {
    return Optional.ofNullable(lastScaleDownDelete);
  }

  public Optional<Instant> lastScaleDownFailure() {
    return Optional.ofNullable(lastScaleDownFailure);
  }

  public void scaledUp(Instant now) {
    lastScaleUp = now;
  }

  public void scaledDownAt(Instant now) {
    lastScaleDownDelete = now;
  }

  public void scaleDownFailedAt(Instant now) {
    lastScaleDownFailure = now;
  }

  /**
   * What an iteration leaves for the next one to read, as a value: scale-up requests, unneeded and unremovable
   * timers and the cooldown clocks (group backoff is left out: only a scale-up reads it, at the time it runs).
   */
  public record Memory(Map<String, ScaleUpRequest> scaleUpRequests, Map<String, Instant> unneededSince,
      Map<String, Instant> unremovableUntil, Instant lastScaleUp, Instant lastScaleDownDelete,
      Instant lastScaleDownFailure) {}

  /** A copy of what this state remembers now (compare two to see whether an iteration changed it). */
  public Memory memory() {
    return new Memory(Map.copyOf(scaleUpRequests), Map.copyOf(unneededSince), Map.copyOf(unremovableUntil), lastScaleUp,
        lastScaleDownDelete, lastScaleDownFailure);
  }

  /** Puts back what {@link #memory()} returned (after a staged trial of a step that may have changed it). */
  void restore(Memory m) {
    scaleUpRequests.clear();
    scaleUpRequests.putAll(m.scaleUpRequests());
    unneededSince.clear();
    unneededSince.putAll(m.unneededSince());
    unremovableUntil.clear();
    unremovableUntil.putAll(m.unremovableUntil());
    lastScaleUp = m.lastScaleUp();
    lastScaleDownDelete = m.lastScaleDownDelete();
    lastScaleDownFailure = m.lastScaleDownFailure();
  }

  /**
   * True when one of this state's clocks is reached between {@code since} (exclusive) and {@code now}
   * (inclusive): an unremovable node's recheck time, an unneeded node's removal time, a scale-up request's
   * expiry or the end of a scale-down cooldown. While no clock is reached, an iteration at {@code now} reads
   * the clocks as one at {@code since} did: on an unchanged cluster, after an iteration that acted on nothing
   * and left the state as it found it, it would decide the same nothing (the simulator skips such loops).
   */
  public boolean clockReached(Instant since, Instant now, AutoscalerOptions options) {
    if (!unneededSince.isEmpty() || !scaleUpRequests.isEmpty()) {
      // their times have per-group overrides: while any is kept, count its clock as running
      return true;
    }
    for (Instant t : unremovableUntil.values()) {
      if (crosses(t, since, now)) {
        return true;
      }
    }
    return lastScaleUp != null && crosses(lastScaleUp.plus(options.scaleDownDelayAfterAdd()), since, now)
        || lastScaleDownDelete != null && crosses(lastScaleDownDelete.plus(options.scaleDownDelayAfterDelete()), since, now)
        || lastScaleDownFailure != null && crosses(lastScaleDownFailure.plus(options.scaleDownDelayAfterFailure()), since, now);
  }

  /** True when a test {@code x.isBefore(t)} gives different answers at {@code since} and {@code now}. */
  private static boolean crosses(Instant t, Instant since, Instant now) {
    return since.isBefore(t) != now.isBefore(t);
  }

  /** Loop counter (seeds the loop's random source). */
  long nextLoop() {
    return loops++;
  }
}
