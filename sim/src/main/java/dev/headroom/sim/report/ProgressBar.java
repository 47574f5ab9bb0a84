package dev.headroom.sim.report;

import java.io.PrintStream;
import java.util.function.DoubleConsumer;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar for long runs: silent for the first second (short runs print nothing), then redrawn
 * in place at most ten times a second. Only used when the output is a terminal.
 */
public final class ProgressBar implements DoubleConsumer {

  private static final int WIDTH = 30;
  private static final long QUIET_NANOS = 1_000_000_000L;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintStream out;
  private final LongSupplier nanoTime;
  private final String label;
  private final long started;
  private long lastDraw;
  private boolean drawn;

  /** A bar on {@code out}, timed by {@code nanoTime} (a wall clock: progress display only, never results). */
  public ProgressBar(PrintStream out, LongSupplier nanoTime, String label) {
    this.out = out;
    this.nanoTime = nanoTime;
    this.label = label;
    this.started = nanoTime.getAsLong();
  }

  @Override
  public synchronized void accept(double fraction) {
    long now = nanoTime.getAsLong();
    if (now - started < QUIET_NANOS || (drawn && now - lastDraw < REDRAW_NANOS && fraction < 1)) {
      return;
    }
    lastDraw = now;
    drawn = true;
    int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * WIDTH);
    out.print("\r" + label + " [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] "
        + String.format("%3d%%", Math.round(100 * Math.max(0, Math.min(1, fraction)))));
    out.flush();
  }

  /** Clears the bar's line if it was drawn. */
  public synchronized void finish() {
    if (drawn) {
      out.print("\r" + " ".repeat(label.length() + WIDTH + 8) + "\r");
      out.flush();
    }
  }

  /** True when a bar was shown. */
  public synchronized boolean shown() {
    return drawn;
  }
}
