package dev.headroom.sim.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulator's clock: virtual time in milliseconds since the scenario start, mapped onto a fixed epoch so
 * that code taking an {@link Instant} or a {@link Clock} (the core) sees ordinary instants. Only the event
 * engine moves it forward; nothing reads the wall clock.
 */
public final class VirtualClock extends Clock {

  /** Scenario time zero: a Monday at midnight UTC, so diurnal profiles start at the beginning of a day. */
  public static final Instant EPOCH = Instant.parse("2026-01-05T00:00:00Z");

  private long nowMillis;

  /** Milliseconds since the scenario start. */
  public long millis() {
    return nowMillis;
  }

  /** Seconds since the scenario start. */
  public double seconds() {
    return nowMillis / 1000.0;
  }

  /** The current instant. */
  @Override
  public Instant instant() {
    return EPOCH.plusMillis(nowMillis);
  }

  /** The instant of a scenario time. */
  public static Instant at(long millis) {
    return EPOCH.plusMillis(millis);
  }

  /** Scenario time of an instant. */
  public static long millisOf(Instant instant) {
    return Duration.between(EPOCH, instant).toMillis();
  }

  void advanceTo(long millis) {
    if (millis < nowMillis) {
      throw new IllegalStateException("virtual time cannot go backwards: " + millis + " < " + nowMillis);
    }
    nowMillis = millis;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the virtual clock is always UTC");
  }
}
