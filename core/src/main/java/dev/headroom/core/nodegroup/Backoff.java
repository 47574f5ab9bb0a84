package dev.headroom.core.nodegroup;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Exponential per-group scale-up backoff (CA {@code exponential_backoff.go}): the first failure backs off for
 * the initial duration, a failure after the backoff expired doubles it (capped), a failure while still backed
 * off restarts the current duration, and an entry is forgotten after the reset timeout without failures.
 */
public final class Backoff {

  /** One group's backoff state. */
  public record Entry(Duration duration, Instant backoffUntil, Instant lastFailure, String reason) {}

  private final Duration initial;
  private final Duration max;
  private final Duration resetTimeout;
  private final Map<String, Entry> entries = new HashMap<>();

  public Backoff(Duration initial, Duration max, Duration resetTimeout) {
    this.initial = initial;
    this.max = max;
    this.resetTimeout = resetTimeout;
  }

  /** Records a failed scale-up of {@code group} at {@code now}; returns the new backoff end. */
  public Instant fail(String group, String reason, Instant now) {
    Entry old = entries.get(group);
    Duration d = initial;
    if (old != null && !old.lastFailure().plus(resetTimeout).isBefore(now)) {
      if (now.isBefore(old.backoffUntil())) {
        d = old.duration();
      } else {
        d = old.duration().multipliedBy(2);
        if (d.compareTo(max) > 0) {
          d = max;
        }
      }
    }
    Entry e = new Entry(d, now.plus(d), now, reason);
    entries.put(group, e);
    return e.backoffUntil();
  }

  /** True while {@code group} is backed off at {@code now}. */
  public boolean isBackedOff(String group, Instant now) {
    Entry e = entries.get(group);
    return e != null && now.isBefore(e.backoffUntil());
  }

  /** The entry of a group, if any. */
  public Optional<Entry> entry(String group) {
    return Optional.ofNullable(entries.get(group));
  }

  /** Forgets a group's backoff after a successful scale-up. */
  public void reset(String group) {
    entries.remove(group);
  }

  /** Drops entries whose last failure is older than the reset timeout. */
  public void removeStale(Instant now) {
    entries.values().removeIf(e -> e.lastFailure().plus(resetTimeout).isBefore(now));
  }
}
