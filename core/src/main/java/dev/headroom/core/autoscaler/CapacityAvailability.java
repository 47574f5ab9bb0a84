package dev.headroom.core.autoscaler;

import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Condition;

/**
 * The {@code CapacityAvailable} condition [H-EXT] (capacitybuffer spec §8.1): where a buffer's virtual pods
 * ended in the last simulation.
 */
public final class CapacityAvailability {

  public static final String MESSAGE_NOT_EVALUATED = "Virtual pods were not injected in the last autoscaler loop";
  public static final String MESSAGE_INFEASIBLE = "No node group can fit a single virtual pod of this buffer";
  public static final String MESSAGE_FITS = "All %d virtual pods fit on existing capacity";
  public static final String MESSAGE_REQUIRES = "%d/%d virtual pods required new capacity, %d failed";
  public static final String MESSAGE_GANG_DOES_NOT_FIT = "The virtual pods of this gang buffer do not fit as one group: ";

  private CapacityAvailability() {}

  /** The buffer was not injected this loop. */
  public static Condition notEvaluated(long generation) {
    return BufferConditions.condition(BufferConditions.CAPACITY_AVAILABLE, BufferConditions.UNKNOWN,
        BufferConditions.REASON_NOT_EVALUATED, MESSAGE_NOT_EVALUATED, generation);
  }

  /**
   * The decision table of §8.1.
   *
   * @param n virtual pods injected
   * @param e placed on existing Ready capacity
   * @param u placed on upcoming or new nodes
   * @param f placed nowhere
   * @param infeasible one chunk fits no Ready node and no template
   * @param summary optional detail appended to the infeasible message (null for none)
   */
  public static Condition evaluate(int n, int e, int u, int f, boolean infeasible, String summary, long generation) {
    if (infeasible) {
      String msg = summary == null || summary.isEmpty() ? MESSAGE_INFEASIBLE : MESSAGE_INFEASIBLE + ": " + summary;
      return BufferConditions.condition(BufferConditions.CAPACITY_AVAILABLE, BufferConditions.FALSE,
          BufferConditions.REASON_INFEASIBLE, msg, generation);
    }
    if (e == n) {
      return BufferConditions.condition(BufferConditions.CAPACITY_AVAILABLE, BufferConditions.TRUE,
          BufferConditions.REASON_FITS_EXISTING_CAPACITY, fill(MESSAGE_FITS, n), generation);
    }
    return BufferConditions.condition(BufferConditions.CAPACITY_AVAILABLE, BufferConditions.FALSE,
        BufferConditions.REASON_REQUIRES_NEW_CAPACITY, fill(MESSAGE_REQUIRES, u, n, f), generation);
  }

  /** A gang buffer ({@code headroom.dev/gang: "true"}) whose group got no capacity; {@code why} is the group's message. */
  public static Condition gangDoesNotFit(String why, long generation) {
    return BufferConditions.condition(BufferConditions.CAPACITY_AVAILABLE, BufferConditions.FALSE,
        BufferConditions.REASON_GANG_DOES_NOT_FIT, MESSAGE_GANG_DOES_NOT_FIT + why, generation);
  }

  /**
   * {@code template} with each {@code %d} replaced by the next value in ASCII digits: what {@code String.format}
   * gives in a root locale, without parsing the format every loop for every buffer.
   */
  static String fill(String template, int... values) {
    StringBuilder b = new StringBuilder(template.length() + 8 * values.length);
    int v = 0;
    int from = 0;
    for (int at = template.indexOf("%d"); at >= 0 && v < values.length; at = template.indexOf("%d", from)) {
      b.append(template, from, at).append(values[v++]);
      from = at + 2;
    }
    return b.append(template, from, template.length()).toString();
  }
}
