package dev.headroom.core.autoscaler.expander;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code priority}: configuration {@code priorities: {<int>: [regex, ...]}} (the upstream ConfigMap format);
 * a group matches a priority if any regex finds a match in its id (unanchored); the options at the highest
 * matching priority are kept. When nothing matches, or the configuration is empty or invalid, every option
 * passes through.
 */
public final class PriorityExpander implements Expander {
  private final TreeMap<Integer, List<Pattern>> priorities = new TreeMap<>();
  private final boolean valid;

  public PriorityExpander(Map<Integer, List<String>> config) {
    boolean ok = true;
    try {
      for (Map.Entry<Integer, List<String>> e : config.entrySet()) {
        List<Pattern> ps = new ArrayList<>();
        for (String r : e.getValue()) {
          ps.add(Pattern.compile(r));
        }
        priorities.put(e.getKey(), ps);
      }
    } catch (PatternSyntaxException | NullPointerException ex) {
      ok = false;
    }
    valid = ok;
  }

  @Override
  public String name() {
    return Expanders.PRIORITY;
  }

  @Override
  public List<ExpansionOption> bestOptions(List<ExpansionOption> options) {
    if (!valid || priorities.isEmpty()) {
      return options;
    }
    Integer best = null;
    List<ExpansionOption> out = new ArrayList<>();
    for (ExpansionOption o : options) {
      Integer p = priorityOf(o.group().id());
      if (p == null) {
        continue;
      }
      if (best == null || p > best) {
        best = p;
        out.clear();
        out.add(o);
      } else if (p.equals(best)) {
        out.add(o);
      }
    }
    return out.isEmpty() ? options : out;
  }

  /**
   * The priority of a group: the highest configured priority with a regex that finds a match in its id; null when
   * none does or the configuration is empty or invalid (the expander then passes every option through).
   */
  public Integer priorityOf(String id) {
    if (!valid) {
      return null;
    }
    for (Map.Entry<Integer, List<Pattern>> e : priorities.descendingMap().entrySet()) {
      for (Pattern p : e.getValue()) {
        if (p.matcher(id).find()) {
          return e.getKey();
        }
      }
    }
    return null;
  }

  /**
   * Parses the upstream ConfigMap value ({@code priorities} key): lines {@code <int>:} followed by
   * {@code - <regex>} items.
   *
   * @throws IllegalArgumentException on malformed text
   */
  public static Map<Integer, List<String>> parseConfig(String text) {
    Map<Integer, List<String>> out = new TreeMap<>();
    List<String> current = null;
    int lineNo = 0;
    for (String raw : text.split("\n")) {
      lineNo++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("- ") || line.equals("-")) {
        if (current == null) {
          throw new IllegalArgumentException("line " + lineNo + ": list item before any priority");
        }
        current.add(unquote(line.substring(1).strip()));
      } else if (line.endsWith(":")) {
        try {
          int p = Integer.parseInt(line.substring(0, line.length() - 1).strip());
          current = out.computeIfAbsent(p, k -> new ArrayList<>());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("line " + lineNo + ": priority must be an integer");
        }
      } else {
        throw new IllegalArgumentException("line " + lineNo + ": expected '<priority>:' or '- <regex>'");
      }
    }
    return out;
  }

  private static String unquote(String s) {
    if (s.length() >= 2 && ((s.startsWith("\"") && s.endsWith("\"")) || (s.startsWith("'") && s.endsWith("'")))) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }
}
