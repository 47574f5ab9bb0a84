package dev.headroom.core.workload;

/**
 * How a metric's target is expressed, which decides how a reading turns into a replica count.
 *
 * <ul>
 *   <li>{@link #UTILIZATION}: a percentage <em>per replica</em> (100 = every replica fully busy), such as CPU.
 *   <li>{@link #AVERAGE_VALUE}: an absolute amount each replica may carry; the reading is the <em>total</em>.
 *   <li>{@link #VALUE}: an absolute whole-system amount; the reading is the total.
 * </ul>
 */
public enum TargetKind {
  UTILIZATION("Utilization"),
  AVERAGE_VALUE("AverageValue"),
  VALUE("Value");

  private final String displayName;

  TargetKind(String displayName) {
    this.displayName = displayName;
  }

  /** The name the Kubernetes API and the seed use: {@code Utilization}, {@code AverageValue}, {@code Value}. */
  public String displayName() {
    return displayName;
  }

  @Override
  public String toString() {
    return displayName;
  }
}
