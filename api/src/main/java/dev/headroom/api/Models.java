package dev.headroom.api;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep copies and generic trees of fabric8 model objects, with fabric8's own (Jackson 3) serialisation. It lives
 * here, beside the model, so that {@code core} needs no type of {@code kubernetes-client-api} (the build checks that
 * rule: {@code CoreDependencyRuleTest}).
 */
public final class Models {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Models() {}

  /** A deep copy of a fabric8 model object (null stays null). */
  public static <T> T copy(T object) {
    return object == null ? null : SERIALIZATION.clone(object);
  }

  /** The object as a generic JSON-like tree (an empty map for null). */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> tree(Object object) {
    return object == null ? Map.of() : SERIALIZATION.convertValue(object, Map.class);
  }

  /**
   * A generic tree (maps, lists, scalars as a YAML or JSON reader gives them) as a fabric8 model object. Integers in
   * the {@code int} range are handed to Jackson as {@link Integer}: fabric8's {@code IntOrString} takes only an
   * {@code Integer} or a {@code String}, so a {@code Long} there (a probe's {@code port: 8080}, a rolling update's
   * {@code maxSurge: 1}, as kubectl prints them) would otherwise fail the whole object. The tree is not modified.
   *
   * @throws IllegalArgumentException when the tree does not fit the type
   */
  public static <T> T fromTree(Object tree, Class<T> type) {
    return SERIALIZATION.convertValue(narrowInts(tree), type);
  }

  /** The tree with int-range {@code Long}s as {@code Integer}s; the same object where nothing changes. */
  static Object narrowInts(Object node) {
    if (node instanceof Long l) {
      if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
        return Integer.valueOf(l.intValue()); // not a conditional expression: that would box both arms as Long
      }
      return l;
    }
    if (node instanceof Map<?, ?> m) {
      Map<Object, Object> out = null;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        Object v = narrowInts(e.getValue());
        if (v != e.getValue() && out == null) {
          out = new LinkedHashMap<>(m);
        }
        if (out != null) {
          out.put(e.getKey(), v);
        }
      }
      return out == null ? m : out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = null;
      for (int i = 0; i < list.size(); i++) {
        Object v = narrowInts(list.get(i));
        if (v != list.get(i) && out == null) {
          out = new ArrayList<>(list);
        }
        if (out != null) {
          out.set(i, v);
        }
      }
      return out == null ? list : out;
    }
    return node;
  }
}
