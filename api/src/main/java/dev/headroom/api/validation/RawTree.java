package dev.headroom.api.validation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Converts object trees into the plain form the API server validates (Go's unstructured JSON): {@code Map} with
 * String keys in input order, {@code List}, {@code String}, {@code Long} for integers that fit 64 bits, {@code Double}
 * for other numbers, {@code Boolean} and {@code null}.
 */
final class RawTree {
  private RawTree() {}

  static Object of(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        map.put(e.getKey(), of(e.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(n -> list.add(of(n)));
      return list;
    }
    if (node.isString()) {
      return node.asString();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : (Object) node.doubleValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node.asString();
  }

  static Object of(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof JsonNode node) {
      return of(node);
    }
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> map = new LinkedHashMap<>();
      m.forEach((k, v) -> map.put(String.valueOf(k), of(v)));
      return map;
    }
    if (value instanceof Iterable<?> it) {
      List<Object> list = new ArrayList<>();
      it.forEach(v -> list.add(of(v)));
      return list;
    }
    if (value instanceof Object[] array) {
      List<Object> list = new ArrayList<>();
      for (Object v : array) {
        list.add(of(v));
      }
      return list;
    }
    if (value instanceof String || value instanceof Boolean || value instanceof Long || value instanceof Double) {
      return value;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger b) {
      return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
    }
    if (value instanceof BigDecimal || value instanceof Float) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof Date d) {
      return DateTimeFormatter.ISO_INSTANT.format(d.toInstant());
    }
    if (value instanceof Character || value instanceof CharSequence || value instanceof Enum<?>) {
      return value.toString();
    }
    return String.valueOf(value);
  }
}
