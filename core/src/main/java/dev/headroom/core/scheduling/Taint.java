package dev.headroom.core.scheduling;

/** A node taint as the filter sees it; {@code value} is "" when absent. */
public record Taint(String key, String value, String effect) {

  /** Effect that blocks new pods. */
  public static final String NO_SCHEDULE = "NoSchedule";
  /** Effect that blocks and evicts pods. */
  public static final String NO_EXECUTE = "NoExecute";
  /** Effect the filter ignores. */
  public static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";

  public Taint {
    value = value == null ? "" : value;
  }

  /** True for {@code NoSchedule} and {@code NoExecute}, the effects TaintToleration filters on. */
  public boolean filters() {
    return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
  }
}
