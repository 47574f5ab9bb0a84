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

  /** Loop counter (seeds the loop's random source). */
  long nextLoop() {
    return loops++;
  }
}
