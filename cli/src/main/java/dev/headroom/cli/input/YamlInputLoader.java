package dev.headroom.cli.input;

import java.io.IOException;
import java.io.Reader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.dataformat.yaml.YAMLFactory;

/**
 * Reads Kubernetes YAML files: one or more documents separated by {@code ---}, each an object or a {@code List}
 * ({@code kind: List} or any {@code *List} kind with {@code items}) whose items are objects. Every object comes
 * back as an {@link InputDocument} with the {@code FILE:LINE} where it starts, whatever its kind: callers pick the
 * kinds they understand and report or ignore the rest. Empty documents are skipped.
 *
 * <p>Errors are {@link InputException}s with a one-line {@code FILE:LINE: message}; no stack traces.
 *
 * <p>The loader also remembers the line of every mapping key it read, so that a command that validates a document's
 * fields can report the line of the offending field ({@link #lineOf}).
 */
public final class YamlInputLoader {

  private static final YAMLFactory YAML = YAMLFactory.builder().build();

  /** Every mapping read by this loader → its keys' lines. */
  private final Map<Object, Map<String, Integer>> keyLines = new IdentityHashMap<>();
  /** Every sequence read by this loader → its items' lines. */
  private final Map<Object, List<Integer>> listLines = new IdentityHashMap<>();

  /** Loads every object of every file, in order. Stops at the first malformed file. */
  public List<InputDocument> load(List<Path> files) throws InputException {
    List<InputDocument> out = new ArrayList<>();
    for (Path f : files) {
      out.addAll(load(f));
    }
    return out;
  }

  /** Loads every object of one file, in order. */
  public List<InputDocument> load(Path file) throws InputException {
    String name = file.toString();
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InputException(new Position(name, 0), "no such file");
    } catch (IOException e) {
      throw new InputException(new Position(name, 0), "cannot read: " + e.getMessage());
    }
    return parse(name, new java.io.StringReader(text));
  }

  /** Parses YAML text named {@code file} (used for messages). */
  public List<InputDocument> parse(String file, Reader text) throws InputException {
    List<InputDocument> out = new ArrayList<>();
    try (JsonParser p = YAML.createParser(text)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        int line = p.currentTokenLocation().getLineNr();
        Map<Object, Integer> lines = new IdentityHashMap<>();
        Object doc = read(p, t, lines);
        if (doc == null) {
          continue;
        }
        Position at = new Position(file, line);
        if (!(doc instanceof Map<?, ?>)) {
          throw new InputException(at, "a document must be a Kubernetes object (a mapping), found " + describe(doc));
        }
        addObject(out, at, cast(doc), lines);
      }
    } catch (JacksonException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new InputException(new Position(file, Math.max(line, 0)), oneLine(e));
    }
    return out;
  }

  private void addObject(List<InputDocument> out, Position at, Map<String, Object> object, Map<Object, Integer> lines) throws InputException {
    Object kind = object.get("kind");
    if (!(kind instanceof String k) || k.isEmpty()) {
      throw new InputException(at, "object has no kind");
    }
    if (!(object.get("apiVersion") instanceof String v) || v.isEmpty()) {
      throw new InputException(at, "object of kind " + k + " has no apiVersion");
    }
    if (k.endsWith("List") && object.containsKey("items")) {
      if (!(object.get("items") instanceof List<?> items)) {
        if (object.get("items") == null) {
          return;
        }
        throw new InputException(at, k + ".items must be a list");
      }
      for (Object item : items) {
        Position itemAt = new Position(at.file(), lines.getOrDefault(item, at.line()));
        if (!(item instanceof Map<?, ?>)) {
          throw new InputException(itemAt, "a " + k + " item must be a Kubernetes object (a mapping), found " + describe(item));
        }
        addObject(out, itemAt, cast(item), lines);
      }
      return;
    }
    out.add(new InputDocument(at, object));
  }

  /**
   * The line of the field at {@code path} in a document this loader read: a dotted path with {@code [i]} for list
   * items, as validators name fields ({@code spec.maxSize}, {@code spec.template.spec.taints[0].effect}); keys that
   * contain dots ({@code metadata.annotations.headroom.dev/unneeded-since}) are matched as a whole. When the path goes
   * deeper than the document (a missing field), the line of the deepest field that exists is returned; the document's
   * own line when not even the first segment exists.
   */
  public int lineOf(InputDocument doc, String path) {
    int line = doc.position().line();
    Object node = doc.raw();
    String rest = path == null ? "" : path;
    while (!rest.isEmpty() && node != null) {
      if (rest.startsWith("[")) {
        int close = rest.indexOf(']');
        List<Integer> items = listLines.get(node);
        if (close < 0 || !(node instanceof List<?> list) || items == null) {
          break;
        }
        int i;
        try {
          i = Integer.parseInt(rest.substring(1, close));
        } catch (NumberFormatException e) {
          break;
        }
        if (i < 0 || i >= list.size()) {
          break;
        }
        line = items.get(i);
        node = list.get(i);
        rest = strip(rest.substring(close + 1));
        continue;
      }
      Map<String, Integer> keys = keyLines.get(node);
      if (keys == null || !(node instanceof Map<?, ?> map)) {
        break;
      }
      String best = null;
      for (String k : keys.keySet()) {
        if ((rest.equals(k) || rest.startsWith(k + ".") || rest.startsWith(k + "[")) && (best == null || k.length() > best.length())) {
          best = k;
        }
      }
      if (best == null) {
        break;
      }
      line = keys.get(best);
      node = map.get(best);
      rest = strip(rest.substring(best.length()));
    }
    return line;
  }

  private static String strip(String rest) {
    return rest.startsWith(".") ? rest.substring(1) : rest;
  }

  private Object read(JsonParser p, JsonToken t, Map<Object, Integer> lines) {
    switch (t) {
      case START_OBJECT -> {
        int line = p.currentTokenLocation().getLineNr();
        Map<String, Object> map = new LinkedHashMap<>();
        Map<String, Integer> keys = new java.util.HashMap<>();
        JsonToken n;
        while ((n = p.nextToken()) != JsonToken.END_OBJECT) {
          String key = p.currentName();
          keys.put(key, p.currentTokenLocation().getLineNr());
          map.put(key, read(p, p.nextToken(), lines));
        }
        lines.put(map, line);
        keyLines.put(map, keys);
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        int line = p.currentTokenLocation().getLineNr();
        JsonToken n;
        while ((n = p.nextToken()) != JsonToken.END_ARRAY) {
          int itemLine = p.currentTokenLocation().getLineNr();
          Object item = read(p, n, lines);
          list.add(item);
          listLines.computeIfAbsent(list, k -> new ArrayList<>()).add(itemLine);
        }
        lines.put(list, line);
        return list;
      }
      case VALUE_STRING -> {
        return p.getString();
      }
      case VALUE_NUMBER_INT -> {
        BigInteger b = p.getBigIntegerValue();
        return b.bitLength() < 64 ? (Object) b.longValue() : b;
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> {
        return p.getString();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Object o) {
    return (Map<String, Object>) o;
  }

  private static String describe(Object o) {
    if (o instanceof List<?>) {
      return "a list";
    }
    return "the scalar \"" + o + "\"";
  }

  /** The first line of an exception's own message, without Jackson's location suffix. */
  static String oneLine(Throwable e) {
    String m = e instanceof JacksonException j && j.getOriginalMessage() != null ? j.getOriginalMessage() : String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return (nl >= 0 ? m.substring(0, nl) : m).trim();
  }
}
