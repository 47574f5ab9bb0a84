package dev.headroom.core.workload;

import java.util.Objects;

/**
 * One seed-mode decision.
 *
 * @param replicas the count to run
 * @param by the metric that decided it; empty for the zero-boundary decisions and when no metric had a reading
 * @param reason why
 */
public record Decision(int replicas, String by, DecisionReason reason) {

  public Decision {
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(reason, "reason");
  }

  /** A one-line explanation, for example {@code "queue is above its target"}. */
  public String message() {
    return switch (reason) {
      case SCALE_UP, SCALE_DOWN -> (by.isEmpty() ? "no metric" : by) + " " + reason.description();
      default -> reason.description();
    };
  }
}
