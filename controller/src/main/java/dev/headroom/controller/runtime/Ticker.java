package dev.headroom.controller.runtime;

/** A monotonic nanosecond source; the system one in production, a manual one in tests. */
@FunctionalInterface
public interface Ticker {
  /** The system's monotonic clock. */
  Ticker SYSTEM = System::nanoTime;

  /** Current reading in nanoseconds; only differences between readings are meaningful. */
  long nanoTime();
}
