package dev.headroom.cli.input;

import dev.headroom.api.Models;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One Kubernetes object read from an input file: its position and its raw tree (maps in input key order, lists,
 * strings, {@code Long}/{@code BigInteger} integers, {@code Double} floats, booleans, nulls). Callers decide which
 * kinds they understand; {@link #as} converts to a fabric8 model class.
 *
 * @param position where the document, or the {@code List} item, starts
 * @param raw the object as parsed (never null; callers must not mutate it, use {@link #copyOfRaw()})
 * @param lines where the fields of {@code raw} are, for {@link YamlInputLoader#lineOf} (null: not known)
 */
public record InputDocument(Position position, Map<String, Object> raw, Lines lines) {

  /** The lines of a document's fields, as the loader that read it keeps them. */
  public interface Lines {}

  /** A document whose fields' lines are not known (each is reported at the document's own line). */
  public InputDocument(Position position, Map<String, Object> raw) {
    this(position, raw, null);
  }


  /** {@code apiVersion}, or {@code ""} when absent or not a string. */
  public String apiVersion() {
    return raw.get("apiVersion") instanceof String s ? s : "";
  }

  /** {@code kind}, or {@code ""} when absent or not a string. */
  public String kind() {
    return raw.get("kind") instanceof String s ? s : "";
  }

  /** {@code metadata.name}, or {@code ""}. */
  public String name() {
    return metadata("name");
  }

  /** {@code metadata.namespace}, or {@code ""}. */
  public String namespace() {
    return metadata("namespace");
  }

  /** True iff {@code apiVersion} and {@code kind} equal the given values. */
  public boolean is(String apiVersion, String kind) {
    return apiVersion().equals(apiVersion) && kind().equals(kind);
  }

  /** A deep, mutable copy of the raw tree. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> copyOfRaw() {
    return (Map<String, Object>) deepCopy(raw);
  }

  /**
   * Converts the tree into a fabric8 model object.
   *
   * @throws InputException at this document's position when the tree does not fit the type
   */
  public <T> T as(Class<T> type) throws InputException {
    try {
      return Models.fromTree(raw, type);
    } catch (RuntimeException e) {
      throw new InputException(position, "invalid " + kind() + ": " + YamlInputLoader.oneLine(e));
    }
  }

  private String metadata(String key) {
    return raw.get("metadata") instanceof Map<?, ?> m && m.get(key) instanceof String s ? s : "";
  }

  private static Object deepCopy(Object node) {
    if (node instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), deepCopy(v)));
      return out;
    }
    if (node instanceof java.util.List<?> l) {
      java.util.List<Object> out = new java.util.ArrayList<>();
      l.forEach(v -> out.add(deepCopy(v)));
      return out;
    }
    return node;
  }
}
