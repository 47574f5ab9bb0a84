package dev.headroom.core.workload;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One per-pod metric sample, as the resource or custom metrics API returns it.
 *
 * @param value milli-units (cpu in millicores, a custom metric ×1000)
 * @param timestamp when the sample was taken
 * @param window the collection window the sample covers
 */
public record PodSample(long value, Instant timestamp, Duration window) {

  /** The metrics-server default window. */
  public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

  public PodSample {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(window, "window");
  }

  /** A sample with the default window. */
  public static PodSample of(long value, Instant timestamp) {
    return new PodSample(value, timestamp, DEFAULT_WINDOW);
  }
}
