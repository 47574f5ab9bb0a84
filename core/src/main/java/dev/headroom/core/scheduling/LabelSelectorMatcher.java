package dev.headroom.core.scheduling;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled pod label selector ({@code matchLabels} and {@code matchExpressions}, AND-ed).
 *
 * <p>{@link #NOTHING} is the selector of a missing {@code labelSelector} (Kubernetes: a nil selector in
 * an affinity term or spread constraint matches no pod); an empty requirement list matches every pod.
 */
public record LabelSelectorMatcher(List<Requirement> requirements, boolean matchesNothing) {

  /** Matches no label set. */
  public static final LabelSelectorMatcher NOTHING = new LabelSelectorMatcher(List.of(), true);
  /** Matches every label set. */
  public static final LabelSelectorMatcher EVERYTHING = new LabelSelectorMatcher(List.of(), false);

  public LabelSelectorMatcher {
    requirements = List.copyOf(requirements);
  }

  /** Selector operators of {@code metav1.LabelSelectorRequirement}. */
  public enum Op {
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST
  }

  /** One requirement; {@code values} is empty for EXISTS / DOES_NOT_EXIST. */
  public record Requirement(String key, Op op, Set<String> values) {
    public Requirement {
      values = Set.copyOf(values);
    }

    /** True when {@code labels} satisfy this requirement. */
    public boolean matches(Map<String, String> labels) {
      String v = labels.get(key);
      return switch (op) {
        case IN -> v != null && values.contains(v);
        case NOT_IN -> v == null || !values.contains(v);
        case EXISTS -> v != null;
        case DOES_NOT_EXIST -> v == null;
      };
    }
  }

  /** True when {@code labels} satisfy every requirement. */
  public boolean matches(Map<String, String> labels) {
    if (matchesNothing) {
      return false;
    }
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }
}
