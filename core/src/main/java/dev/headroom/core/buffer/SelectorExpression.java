package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A parsed label selector in the string syntax of Kubernetes ({@code a=b,c!=d,e in (x,y),f notin (z),g,!h}),
 * as served in {@code /scale status.selector}. The empty selector matches everything.
 */
public final class SelectorExpression {

  /** One requirement of a selector. */
  public record Requirement(String key, Operator operator, List<String> values) {
    /** Canonical immutable copy. */
    public Requirement {
      values = operator == Operator.IN || operator == Operator.NOT_IN ? List.copyOf(new TreeSet<>(values)) : List.copyOf(values);
    }

    /** True iff the label set satisfies this requirement. */
    public boolean matches(Map<String, String> labels) {
      boolean has = labels.containsKey(key);
      String value = labels.get(key);
      return switch (operator) {
        case EQUALS, IN -> has && values.contains(value);
        case NOT_EQUALS, NOT_IN -> !has || !values.contains(value);
        case EXISTS -> has;
        case DOES_NOT_EXIST -> !has;
      };
    }

    @Override
    public String toString() {
      return switch (operator) {
        case EQUALS -> key + "=" + values.get(0);
        case NOT_EQUALS -> key + "!=" + values.get(0);
        case IN -> key + " in (" + String.join(",", values) + ")";
        case NOT_IN -> key + " notin (" + String.join(",", values) + ")";
        case EXISTS -> key;
        case DOES_NOT_EXIST -> "!" + key;
      };
    }
  }

  /** Selector operators. */
  public enum Operator { EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, DOES_NOT_EXIST }

  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)");
  private static final Pattern PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

  private final List<Requirement> requirements;

  private SelectorExpression(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  /** The selector matching every label set. */
  public static SelectorExpression everything() {
    return new SelectorExpression(List.of());
  }

  /** The requirements, in canonical order (sorted by key, as Kubernetes prints them). */
  public List<Requirement> requirements() {
    return requirements;
  }

  /** True iff every requirement matches; a null label map is empty. */
  public boolean matches(Map<String, String> labels) {
    Map<String, String> l = labels == null ? Map.of() : labels;
    return requirements.stream().allMatch(r -> r.matches(l));
  }

  /** Converts a structured selector ({@code matchLabels} and {@code matchExpressions}); null matches everything. */
  public static SelectorExpression of(LabelSelector selector) {
    List<Requirement> out = new ArrayList<>();
    if (selector != null) {
      if (selector.getMatchLabels() != null) {
        new TreeMap<>(selector.getMatchLabels()).forEach((k, v) -> out.add(new Requirement(k, Operator.EQUALS, List.of(v))));
      }
      if (selector.getMatchExpressions() != null) {
        for (LabelSelectorRequirement e : selector.getMatchExpressions()) {
          List<String> values = e.getValues() == null ? List.of() : e.getValues();
          Operator op = switch (String.valueOf(e.getOperator())) {
            case "In" -> Operator.IN;
            case "NotIn" -> Operator.NOT_IN;
            case "Exists" -> Operator.EXISTS;
            case "DoesNotExist" -> Operator.DOES_NOT_EXIST;
            default -> throw new IllegalArgumentException("\"" + e.getOperator() + "\" is not a valid label selector operator");
          };
          out.add(new Requirement(e.getKey(), op, op == Operator.EXISTS || op == Operator.DOES_NOT_EXIST ? List.of() : values));
        }
      }
    }
    return new SelectorExpression(sorted(out));
  }

  /**
   * Parses the string form.
   *
   * @throws IllegalArgumentException with a Kubernetes-like message when the text is not a selector
   */
  public static SelectorExpression parse(String text) {
    if (text == null || text.isBlank()) {
      return everything();
    }
    List<Requirement> out = new ArrayList<>();
    for (String term : splitTopLevel(text)) {
      out.add(parseTerm(term.trim()));
    }
    return new SelectorExpression(sorted(out));
  }

  private static List<Requirement> sorted(List<Requirement> in) {
    List<Requirement> out = new ArrayList<>(in);
    out.sort((a, b) -> a.key().compareTo(b.key()));
    return out;
  }

  private static List<String> splitTopLevel(String text) {
    List<String> terms = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        terms.add(text.substring(start, i));
        start = i + 1;
      }
    }
    terms.add(text.substring(start));
    return terms;
  }

  private static Requirement parseTerm(String term) {
    if (term.isEmpty()) {
      throw new IllegalArgumentException("found ',', expected: identifier");
    }
    if (term.startsWith("!")) {
      return new Requirement(key(term.substring(1).trim()), Operator.DOES_NOT_EXIST, List.of());
    }
    int ne = term.indexOf("!=");
    if (ne > 0) {
      return new Requirement(key(term.substring(0, ne).trim()), Operator.NOT_EQUALS, List.of(value(term.substring(ne + 2).trim())));
    }
    int eq = term.indexOf('=');
    if (eq > 0) {
      int valueStart = term.startsWith("==", eq) ? eq + 2 : eq + 1;
      return new Requirement(key(term.substring(0, eq).trim()), Operator.EQUALS, List.of(value(term.substring(valueStart).trim())));
    }
    String[] parts = term.split("\\s+", 2);
    if (parts.length == 2) {
      String rest = parts[1].trim();
      Operator op;
      String list;
      if (rest.startsWith("notin")) {
        op = Operator.NOT_IN;
        list = rest.substring(5).trim();
      } else if (rest.startsWith("in")) {
        op = Operator.IN;
        list = rest.substring(2).trim();
      } else {
        throw new IllegalArgumentException("unable to parse requirement: found '" + rest + "', expected: in, notin, =, ==, !=, gt, lt");
      }
      if (!list.startsWith("(") || !list.endsWith(")")) {
        throw new IllegalArgumentException("unable to parse requirement: found '" + list + "', expected: '('");
      }
      List<String> values = new ArrayList<>();
      for (String v : list.substring(1, list.length() - 1).split(",", -1)) {
        values.add(value(v.trim()));
      }
      return new Requirement(key(parts[0]), op, values);
    }
    return new Requirement(key(term), Operator.EXISTS, List.of());
  }

  private static String key(String key) {
    String name = key;
    int slash = key.indexOf('/');
    if (slash >= 0) {
      String prefix = key.substring(0, slash);
      name = key.substring(slash + 1);
      if (prefix.isEmpty() || prefix.length() > 253 || !PREFIX.matcher(prefix).matches()) {
        throw new IllegalArgumentException("unable to parse requirement: invalid label key \"" + key + "\"");
      }
    }
    if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("unable to parse requirement: invalid label key \"" + key + "\"");
    }
    return key;
  }

  private static String value(String value) {
    if (value.length() > 63 || !VALUE.matcher(value).matches()) {
      throw new IllegalArgumentException("unable to parse requirement: invalid label value: \"" + value + "\"");
    }
    return value;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    requirements.forEach(r -> parts.add(r.toString()));
    return String.join(",", parts);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SelectorExpression s && Objects.equals(requirements, s.requirements);
  }

  @Override
  public int hashCode() {
    return requirements.hashCode();
  }
}
