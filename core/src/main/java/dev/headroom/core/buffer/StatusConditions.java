package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code meta.SetStatusCondition} equivalent (spec §4.2): conditions merge by type, keep their position,
 * and {@code lastTransitionTime} changes only when the status flips. Reusable by every component that writes
 * conditions (controller, autoscaler).
 */
public final class StatusConditions {

  /** Longest message the schema admits; longer ones are cut ([H-FIX]). */
  public static final int MAX_MESSAGE_LENGTH = 32768;

  private StatusConditions() {}

  /**
   * Merges {@code update} into {@code conditions} (mutated in place).
   *
   * @return true iff any field changed
   */
  public static boolean set(List<Condition> conditions, Condition update, Instant now) {
    String message = update.getMessage() == null ? "" : update.getMessage();
    if (message.length() > MAX_MESSAGE_LENGTH) {
      message = message.substring(0, MAX_MESSAGE_LENGTH);
    }
    Long generation = update.getObservedGeneration() != null && update.getObservedGeneration() == 0 ? null : update.getObservedGeneration();
    for (Condition existing : conditions) {
      if (Objects.equals(existing.getType(), update.getType())) {
        boolean changed = false;
        if (!Objects.equals(existing.getStatus(), update.getStatus())) {
          existing.setStatus(update.getStatus());
          existing.setLastTransitionTime(update.getLastTransitionTime() != null ? update.getLastTransitionTime() : format(now));
          changed = true;
        }
        if (!Objects.equals(existing.getReason(), update.getReason())) {
          existing.setReason(update.getReason());
          changed = true;
        }
        if (!Objects.equals(existing.getMessage(), message)) {
          existing.setMessage(message);
          changed = true;
        }
        if (!Objects.equals(normalise(existing.getObservedGeneration()), generation)) {
          existing.setObservedGeneration(generation);
          changed = true;
        }
        return changed;
      }
    }
    Condition added = new Condition();
    added.setType(update.getType());
    added.setStatus(update.getStatus());
    added.setReason(update.getReason());
    added.setMessage(message);
    added.setObservedGeneration(generation);
    added.setLastTransitionTime(update.getLastTransitionTime() != null ? update.getLastTransitionTime() : format(now));
    conditions.add(added);
    return true;
  }

  /** Removes the condition of {@code type}, keeping the order of the others; true iff one was removed. */
  public static boolean remove(List<Condition> conditions, String type) {
    for (Iterator<Condition> it = conditions.iterator(); it.hasNext(); ) {
      if (Objects.equals(it.next().getType(), type)) {
        it.remove();
        return true;
      }
    }
    return false;
  }

  /** The condition of {@code type}, if present; a null list counts as empty. */
  public static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> Objects.equals(c.getType(), type)).findFirst();
  }

  /** True iff a condition of {@code type} has {@code status}. */
  public static boolean isStatus(List<Condition> conditions, String type, String status) {
    return find(conditions, type).map(c -> Objects.equals(c.getStatus(), status)).orElse(false);
  }

  /** An instant as a condition timestamp: RFC 3339 in UTC at second precision ({@code 2026-03-02T08:30:00Z}). */
  public static String format(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** Deep copy of a condition list (null stays null). */
  public static List<Condition> copy(List<Condition> conditions) {
    if (conditions == null) {
      return null;
    }
    List<Condition> out = new ArrayList<>(conditions.size());
    for (Condition c : conditions) {
      out.add(new Condition(c.getLastTransitionTime(), c.getMessage(), c.getObservedGeneration(), c.getReason(), c.getStatus(), c.getType()));
    }
    return out;
  }

  /**
   * Equality of two condition lists as the status write rule sees them (§6.4 H1): same order, same fields,
   * {@code lastTransitionTime} compared at second precision, null and empty lists and 0/null generations equal.
   */
  public static boolean semanticallyEqual(List<Condition> a, List<Condition> b) {
    List<Condition> x = a == null ? List.of() : a;
    List<Condition> y = b == null ? List.of() : b;
    if (x.size() != y.size()) {
      return false;
    }
    for (int i = 0; i < x.size(); i++) {
      Condition p = x.get(i);
      Condition q = y.get(i);
      if (!Objects.equals(p.getType(), q.getType())
          || !Objects.equals(p.getStatus(), q.getStatus())
          || !Objects.equals(p.getReason(), q.getReason())
          || !Objects.equals(emptyIfNull(p.getMessage()), emptyIfNull(q.getMessage()))
          || !Objects.equals(normalise(p.getObservedGeneration()), normalise(q.getObservedGeneration()))
          || !sameSecond(p.getLastTransitionTime(), q.getLastTransitionTime())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameSecond(String a, String b) {
    if (Objects.equals(a, b)) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    try {
      return Instant.parse(a).truncatedTo(ChronoUnit.SECONDS).equals(Instant.parse(b).truncatedTo(ChronoUnit.SECONDS));
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static String emptyIfNull(String s) {
    return s == null ? "" : s;
  }

  private static Long normalise(Long generation) {
    return generation == null || generation == 0 ? null : generation;
  }
}
