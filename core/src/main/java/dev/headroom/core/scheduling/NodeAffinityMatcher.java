package dev.headroom.core.scheduling;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod's node constraints: {@code spec.nodeSelector} (every key with exactly that value) AND the required
 * node affinity (OR over terms; inside a term AND over {@code matchExpressions} and {@code matchFields}).
 *
 * <p>{@code terms == null} means no required node affinity. A term without expressions and fields matches
 * nothing. {@code Gt}/{@code Lt} need the label and the single value to parse as int64 (strict comparison);
 * a parse failure is no match. {@code matchFields} supports {@code metadata.name} only (anything else is
 * reported as unsupported at compile time).
 */
public record NodeAffinityMatcher(Map<String, String> nodeSelector, List<Term> terms) {

  /** Matches every node. */
  public static final NodeAffinityMatcher ANY = new NodeAffinityMatcher(Map.of(), null);

  public NodeAffinityMatcher {
    nodeSelector = Map.copyOf(nodeSelector);
    terms = terms == null ? null : List.copyOf(terms);
  }

  /** Node selector operators. */
  public enum Op {
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST,
    GT,
    LT
  }

  /** One requirement on a node label (or, when {@code field}, on the node name). */
  public record Requirement(String key, Op op, Set<String> values, boolean field) {
    public Requirement {
      values = Set.copyOf(values);
    }

    /** True when a node with these labels and name satisfies the requirement. */
    public boolean matches(Map<String, String> labels, String nodeName) {
      String v = field ? nodeName : labels.get(key);
      return switch (op) {
        case IN -> v != null && values.contains(v);
        case NOT_IN -> v == null || !values.contains(v);
        case EXISTS -> v != null;
        case DOES_NOT_EXIST -> v == null;
        case GT, LT -> compare(v);
      };
    }

    private boolean compare(String v) {
      if (v == null || values.size() != 1) {
        return false;
      }
      long label;
      long bound;
      try {
        label = Long.parseLong(v);
        bound = Long.parseLong(values.iterator().next());
      } catch (NumberFormatException e) {
        return false;
      }
      return op == Op.GT ? label > bound : label < bound;
    }
  }

  /** One {@code nodeSelectorTerm}: AND over its requirements; empty matches nothing. */
  public record Term(List<Requirement> requirements) {
    public Term {
      requirements = List.copyOf(requirements);
    }

    /** True when the node satisfies every requirement of the term. */
    public boolean matches(Map<String, String> labels, String nodeName) {
      if (requirements.isEmpty()) {
        return false;
      }
      for (Requirement r : requirements) {
        if (!r.matches(labels, nodeName)) {
          return false;
        }
      }
      return true;
    }
  }

  /** True when this matcher constrains nothing. */
  public boolean isAny() {
    return nodeSelector.isEmpty() && terms == null;
  }

  /** True when the node passes the node selector and the required affinity. */
  public boolean matches(Map<String, String> labels, String nodeName) {
    for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    if (terms == null) {
      return true;
    }
    for (Term t : terms) {
      if (t.matches(labels, nodeName)) {
        return true;
      }
    }
    return false;
  }
}
