package dev.headroom.cli.input;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kubectl's strict field validation for the built-in kinds the commands read, driven by the fabric8 model classes'
 * declared JSON fields: an undeclared field is {@code unknown field "PATH"} (fabric8 would quietly keep it aside),
 * a scalar of the wrong type is "expected an integer" and so on (Jackson would coerce {@code "3"} to 3, the API server
 * refuses it), a quantity must parse, and resource quantities may not be negative. Nulls are skipped, as the API
 * server drops them.
 */
public final class StrictFields {

  /** One problem: the dotted field path and what is wrong. */
  public record Problem(String path, String message) {}

  private static final Map<Class<?>, Map<String, Field>> FIELDS = new ConcurrentHashMap<>();

  private StrictFields() {}

  /** The problems of a raw object read as {@code type}, in document order. */
  public static List<Problem> check(Map<String, Object> raw, Class<?> type) {
    return check(raw, type, "");
  }

  /** The problems of a raw value at {@code path} read as {@code type}. */
  public static List<Problem> check(Object raw, Class<?> type, String path) {
    List<Problem> out = new java.util.ArrayList<>();
    walk(raw, type, path, out);
    return out;
  }

  private static void walk(Object raw, Type type, String path, List<Problem> out) {
    if (raw == null) {
      return;
    }
    Class<?> c = rawClass(type);
    if (c == null || c == Object.class) {
      return;
    }
    if (c == String.class) {
      if (!(raw instanceof String)) {
        out.add(new Problem(path, "expected a string, not " + describe(raw)));
      }
      return;
    }
    if (c == Integer.class || c == int.class || c == Long.class || c == long.class) {
      boolean isInt = c == Integer.class || c == int.class;
      if (!(raw instanceof Long l) || (isInt && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE))) {
        out.add(new Problem(path, raw instanceof Long || raw instanceof BigInteger ? "integer out of range: " + raw
            : "expected an integer, not " + describe(raw)));
      }
      return;
    }
    if (c == Double.class || c == double.class || c == Float.class || c == float.class) {
      if (!(raw instanceof Long) && !(raw instanceof Double)) {
        out.add(new Problem(path, "expected a number, not " + describe(raw)));
      }
      return;
    }
    if (c == Boolean.class || c == boolean.class) {
      if (!(raw instanceof Boolean)) {
        out.add(new Problem(path, "expected true or false, not " + describe(raw)));
      }
      return;
    }
    if (c == IntOrString.class) {
      // an int32 or a string, as the API server has it (kubectl prints a port or maxSurge as a number)
      if (raw instanceof Long l && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) || raw instanceof BigInteger) {
        out.add(new Problem(path, "integer out of range: " + raw));
      } else if (!(raw instanceof Long) && !(raw instanceof String)) {
        out.add(new Problem(path, "expected an integer or a string, not " + describe(raw)));
      }
      return;
    }
    if (c == Quantity.class) {
      quantity(raw, path, out);
      return;
    }
    if (Collection.class.isAssignableFrom(c)) {
      if (!(raw instanceof List<?> list)) {
        out.add(new Problem(path, "expected a list, not " + describe(raw)));
        return;
      }
      Type item = typeArgument(type, 0);
      for (int i = 0; i < list.size(); i++) {
        walk(list.get(i), item, path + "[" + i + "]", out);
      }
      return;
    }
    if (Map.class.isAssignableFrom(c)) {
      if (!(raw instanceof Map<?, ?> map)) {
        out.add(new Problem(path, "expected a mapping, not " + describe(raw)));
        return;
      }
      Type value = typeArgument(type, 1);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        walk(e.getValue(), value, child(path, String.valueOf(e.getKey())), out);
      }
      return;
    }
    Map<String, Field> fields = fields(c);
    if (fields.isEmpty()) {
      return;
    }
    if (!(raw instanceof Map<?, ?> map)) {
      out.add(new Problem(path, "expected a mapping, not " + describe(raw)));
      return;
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      Field f = fields.get(key);
      String p = child(path, key);
      if (f == null) {
        if (e.getValue() != null) {
          out.add(new Problem(p, "unknown field \"" + p + "\""));
        }
        continue;
      }
      walk(e.getValue(), f.getGenericType(), p, out);
    }
  }

  private static void quantity(Object raw, String path, List<Problem> out) {
    if (!(raw instanceof String) && !(raw instanceof Long) && !(raw instanceof Double)) {
      out.add(new Problem(path, "expected a quantity such as 500m or 1Gi, not " + describe(raw)));
      return;
    }
    String text = String.valueOf(raw).trim();
    if (!Quantities.isValid(text)) {
      out.add(new Problem(path, "\"" + text + "\" is not a quantity (such as 500m, 2 or 1Gi)"));
    } else if (Quantities.value(text).signum() < 0) {
      out.add(new Problem(path, "invalid value \"" + text + "\": must be greater than or equal to 0"));
    }
  }

  private static Map<String, Field> fields(Class<?> c) {
    return FIELDS.computeIfAbsent(c, k -> {
      Map<String, Field> out = new HashMap<>();
      for (Class<?> x = k; x != null && x != Object.class; x = x.getSuperclass()) {
        if (!x.getName().startsWith("io.fabric8.")) {
          continue;
        }
        for (Field f : x.getDeclaredFields()) {
          JsonProperty p = f.getAnnotation(JsonProperty.class);
          if (p != null) {
            out.putIfAbsent(p.value().isEmpty() ? f.getName() : p.value(), f);
          }
        }
      }
      return out;
    });
  }

  private static Class<?> rawClass(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
      return c;
    }
    return null;
  }

  private static Type typeArgument(Type t, int i) {
    if (t instanceof ParameterizedType p && p.getActualTypeArguments().length > i) {
      return p.getActualTypeArguments()[i];
    }
    return Object.class;
  }

  private static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  static String describe(Object raw) {
    if (raw instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (raw instanceof List<?>) {
      return "a list";
    }
    if (raw instanceof String s) {
      return "the string \"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\"";
    }
    return String.valueOf(raw);
  }
}
