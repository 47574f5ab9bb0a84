package dev.headroom.core.workload;

/** Why a seed-mode {@link SeedScaler} chose its count. */
public enum DecisionReason {
  /** At zero, but zero is not allowed ({@code min >= 1}): back to the minimum. */
  RESTORED_TO_MIN("zero is not allowed, so back to the minimum"),
  /** At zero and work above the activation threshold arrived: wake one replica. */
  WOKE("work arrived, so one replica wakes"),
  /** At zero and no work above the activation threshold: stay at zero. */
  STAYED_AT_ZERO("no work, so it stays at zero"),
  /** The formula says zero but the idle streak is still inside the cooldown: hold one replica. */
  COOLDOWN_HOLD("no work, but still inside the cooldown, so one replica is kept"),
  /** No work for longer than the cooldown: drop to zero. */
  SCALED_TO_ZERO("no work for longer than the cooldown, so it drops to zero"),
  /** The deciding metric is above its target. */
  SCALE_UP("is above its target"),
  /** The deciding metric has headroom. */
  SCALE_DOWN("has headroom"),
  /** The formula answers the current count. */
  NO_CHANGE("unchanged");

  private final String description;

  DecisionReason(String description) {
    this.description = description;
  }

  /** A short human-readable explanation. */
  public String description() {
    return description;
  }
}
