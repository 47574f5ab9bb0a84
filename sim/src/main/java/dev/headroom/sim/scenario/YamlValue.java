package dev.headroom.sim.scenario;

import dev.headroom.core.input.YamlLoader;
import dev.headroom.core.nodegroup.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * A value of a YAML document that remembers where it came from (file, line and field path), so every
 * reader error can be reported as {@code FILE:LINE: path: what is wrong}. Typed accessors validate the
 * shape; {@link #plain()} hands a subtree to model parsers that take generic maps.
 */
public final class YamlValue {

  private final String file;
  private final String path;
  private final Node node;
  private final int keyLine;

  YamlValue(String file, String path, Node node, int keyLine) {
    this.file = file;
    this.path = path;
    this.node = node;
    this.keyLine = keyLine;
  }

  /** The field path from the document root, e.g. {@code spec.workloads[0].name}. */
  public String path() {
    return path;
  }

  /** The file label. */
  public String file() {
    return file;
  }

  /** The 1-based line where the value starts (for null values, the line of the key). */
  public int line() {
    if (node instanceof ScalarNode s && isNull(s) && keyLine > 0) {
      return keyLine;
    }
    return node.getStartMark().map(m -> m.getLine() + 1).orElse(Math.max(keyLine, 1));
  }

  /** An error located at this value. */
  public ScenarioException error(String problem) {
    return new ScenarioException(file, line(), path.isEmpty() ? problem : path + ": " + problem);
  }

  /** True for an explicit or implicit YAML null. */
  public boolean isNull() {
    return node instanceof ScalarNode s && isNull(s);
  }

  /** True for a mapping. */
  public boolean isMap() {
    return node instanceof MappingNode;
  }

  /** True for a sequence. */
  public boolean isList() {
    return node instanceof SequenceNode;
  }

  /** The entries of a mapping, in file order; duplicate keys are an error. */
  public Map<String, YamlValue> entries() {
    if (!(node instanceof MappingNode m)) {
      throw error("must be a mapping");
    }
    Map<String, YamlValue> out = new LinkedHashMap<>();
    for (NodeTuple t : m.getValue()) {
      if (!(t.getKeyNode() instanceof ScalarNode k)) {
        throw new YamlValue(file, path, t.getKeyNode(), 0).error("mapping keys must be plain strings");
      }
      String key = k.getValue();
      int kl = k.getStartMark().map(mk -> mk.getLine() + 1).orElse(0);
      if (out.containsKey(key)) {
        throw new ScenarioException(file, kl, child(key) + ": duplicate key");
      }
      out.put(key, new YamlValue(file, child(key), t.getValueNode(), kl));
    }
    return out;
  }

  /** Fails on any key outside {@code allowed} (strict parsing). */
  public YamlValue allowOnly(Collection<String> allowed) {
    Map<String, YamlValue> e = entries();
    for (Map.Entry<String, YamlValue> entry : e.entrySet()) {
      if (!allowed.contains(entry.getKey())) {
        throw new ScenarioException(file, entry.getValue().keyLine > 0 ? entry.getValue().keyLine : entry.getValue().line(),
            entry.getValue().path + ": unknown field (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")");
      }
    }
    return this;
  }

  /** A field of a mapping, or null when absent or null. */
  public YamlValue get(String key) {
    YamlValue v = entries().get(key);
    return v == null || v.isNull() ? null : v;
  }

  /** A field that must be present. */
  public YamlValue required(String key) {
    YamlValue v = get(key);
    if (v == null) {
      throw new ScenarioException(file, line(), child(key) + " is required");
    }
    return v;
  }

  /** The items of a sequence. */
  public List<YamlValue> list() {
    if (!(node instanceof SequenceNode s)) {
      throw error("must be a list");
    }
    List<YamlValue> out = new ArrayList<>();
    List<Node> items = s.getValue();
    for (int i = 0; i < items.size(); i++) {
      out.add(new YamlValue(file, path + "[" + i + "]", items.get(i), 0));
    }
    return out;
  }

  /** A scalar as text. */
  public String string() {
    if (!(node instanceof ScalarNode s) || isNull(s)) {
      throw error("must be a string");
    }
    return s.getValue();
  }

  /** An integer scalar. */
  public long longValue() {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.INT)) {
      if (YamlLoader.scalar(s) instanceof Long l) {
        return l;
      }
      throw error("integer out of range: " + s.getValue());
    }
    throw error("must be an integer, not " + describe());
  }

  /** An int scalar within [min, max]. */
  public int intValue(int min, int max) {
    long v = longValue();
    if (v < min || v > max) {
      throw error("must be between " + min + " and " + max + ", not " + v);
    }
    return (int) v;
  }

  /** A number (integer or decimal) scalar; quoted numbers are accepted too. */
  public double number() {
    if (node instanceof ScalarNode s && !isNull(s) && !s.getTag().equals(Tag.BOOL)) {
      String text = s.getValue().trim();
      try {
        double d = Double.parseDouble(text);
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error("must be a number, not " + describe());
  }

  /** A non-negative number. */
  public double nonNegative() {
    double d = number();
    if (d < 0) {
      throw error("must be >= 0, not " + s());
    }
    return d;
  }

  /** A boolean scalar. */
  public boolean bool() {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.BOOL)) {
      return Boolean.parseBoolean(s.getValue().toLowerCase());
    }
    throw error("must be true or false, not " + describe());
  }

  /** A Go-style duration ({@code 90s}, {@code 2m30s}, {@code 1.5h}); a bare 0 is allowed. */
  public Duration duration() {
    if (!(node instanceof ScalarNode s) || isNull(s)) {
      throw error("must be a duration such as 90s, 2m30s, 1.5h or 7d");
    }
    try {
      return GoDuration.parseWithDays(s.getValue().trim());
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage() + " (use a duration such as 90s, 2m30s, 1.5h or 7d)");
    }
  }

  /** A percentage written as {@code 10%} or as a plain number. */
  public double percentage() {
    if (node instanceof ScalarNode s && !isNull(s)) {
      String t = s.getValue().trim();
      if (t.endsWith("%")) {
        t = t.substring(0, t.length() - 1).trim();
      }
      try {
        double d = Double.parseDouble(t);
        if (Double.isFinite(d) && d >= 0) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error("must be a percentage such as 10% or 10, not " + describe());
  }

  /**
   * The subtree as plain Java values (LinkedHashMap, ArrayList, String, Long/BigInteger, Double, Boolean,
   * null), following the YAML 1.2 core schema for plain scalars.
   */
  public Object plain() {
    return plain(node);
  }

  /**
   * The value at a relative field path such as {@code spec.template.status.capacity} or
   * {@code taints[0].effect}; returns the deepest existing value on the way, so a located error can point
   * at the nearest line.
   */
  public YamlValue locate(String relative) {
    YamlValue cur = this;
    if (relative == null || relative.isEmpty()) {
      return cur;
    }
    for (String part : relative.split("\\.")) {
      String name = part;
      List<Integer> indexes = new ArrayList<>();
      int b = part.indexOf('[');
      if (b >= 0) {
        name = part.substring(0, b);
        for (String ix : part.substring(b + 1).split("\\]\\[?")) {
          if (!ix.isEmpty()) {
            try {
              indexes.add(Integer.parseInt(ix.replace("]", "")));
            } catch (NumberFormatException e) {
              return cur;
            }
          }
        }
      }
      if (!name.isEmpty()) {
        if (!cur.isMap()) {
          return cur;
        }
        YamlValue next = cur.entries().get(name);
        if (next == null) {
          return cur;
        }
        cur = next;
      }
      for (int ix : indexes) {
        if (!cur.isList() || ix >= cur.list().size()) {
          return cur;
        }
        cur = cur.list().get(ix);
      }
    }
    return cur;
  }

  private String s() {
    return node instanceof ScalarNode sc ? sc.getValue() : describe();
  }

  private String describe() {
    if (node instanceof MappingNode) {
      return "a mapping";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    ScalarNode s = (ScalarNode) node;
    return isNull(s) ? "nothing" : "\"" + s.getValue() + "\"";
  }

  private String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static boolean isNull(ScalarNode s) {
    return YamlLoader.isNull(s);
  }

  private static Object plain(Node n) {
    return YamlLoader.plain(n, null);
  }
}
