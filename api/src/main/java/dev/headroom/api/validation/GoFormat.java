package dev.headroom.api.validation;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Renders values the way Go's {@code fmt} does inside Kubernetes' {@code field.Error.ErrorBody()}: strings with
 * {@code %q}, integers, floats and booleans with {@code %v}, and a missing value as {@code null}.
 */
final class GoFormat {
  private GoFormat() {}

  /** The rendering of a bad value. */
  static String value(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return quote(s);
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
        || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      return floatV(((Number) value).doubleValue());
    }
    if (value instanceof Boolean b) {
      return b.toString();
    }
    if (value instanceof GoMap m) {
      return m.toString();
    }
    return quote(String.valueOf(value));
  }

  /**
   * A {@code map[string]interface{}} bad value as kube-apiserver (v1.36) prints it: as JSON, keys sorted
   * ({@code {"type":"A"}}).
   */
  record GoMap(java.util.Map<String, Object> entries) {
    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("{");
      boolean first = true;
      for (var e : new java.util.TreeMap<>(entries).entrySet()) {
        b.append(first ? "" : ",").append(quote(e.getKey())).append(':').append(json(e.getValue()));
        first = false;
      }
      return b.append('}').toString();
    }

    private static String json(Object v) {
      return v == null ? "null" : goSyntax(v);
    }

    private static String goSyntax(Object v) {
      if (v == null) {
        return "interface {}(nil)";
      }
      if (v instanceof String s) {
        return quote(s);
      }
      if (v instanceof Long l) {
        return l.toString();
      }
      if (v instanceof Double d) {
        return floatV(d);
      }
      if (v instanceof Boolean b) {
        return b.toString();
      }
      return quote(String.valueOf(v));
    }
  }

  /** Go's {@code strconv.Quote}: double quotes, Go escapes, printable Unicode kept as is. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      switch (cp) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case 0x07 -> b.append("\\a");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case 0x0b -> b.append("\\v");
        default -> {
          if (cp >= 0xD800 && cp <= 0xDFFF) {
            b.append("\\ufffd"); // a lone surrogate is invalid UTF-8; Go would print the replacement escape
          } else if (isPrint(cp)) {
            b.appendCodePoint(cp);
          } else if (cp < 0x80) {
            b.append(String.format("\\x%02x", cp));
          } else if (cp < 0x10000) {
            b.append(String.format("\\u%04x", cp));
          } else {
            b.append(String.format("\\U%08x", cp));
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static boolean isPrint(int cp) {
    if (cp < 0x20 || cp == 0x7f) {
      return false;
    }
    if (cp < 0x7f) {
      return true;
    }
    if (cp == 0x00a0 || cp == 0x00ad) {
      return false;
    }
    int type = Character.getType(cp);
    return type != Character.CONTROL && type != Character.FORMAT && type != Character.UNASSIGNED
        && type != Character.PRIVATE_USE && type != Character.SURROGATE
        && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR
        && (type != Character.SPACE_SEPARATOR || cp == ' ');
  }

  /**
   * Go's {@code %v} of a value decoded from JSON into {@code interface{}} (as in apimachinery's accessor errors):
   * strings bare, int64 and float64 as numbers, {@code [a b]} for lists, {@code map[k:v]} (keys sorted) for maps,
   * {@code <nil>} for null.
   */
  static String plainV(Object v) {
    if (v == null) {
      return "<nil>";
    }
    if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
      return floatV(((Number) v).doubleValue());
    }
    if (v instanceof java.util.List<?> list) {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < list.size(); i++) {
        b.append(i == 0 ? "" : " ").append(plainV(list.get(i)));
      }
      return b.append(']').toString();
    }
    if (v instanceof java.util.Map<?, ?> map) {
      StringBuilder b = new StringBuilder("map[");
      boolean first = true;
      for (var e : new java.util.TreeMap<>(map).entrySet()) {
        b.append(first ? "" : " ").append(e.getKey()).append(':').append(plainV(e.getValue()));
        first = false;
      }
      return b.append(']').toString();
    }
    return String.valueOf(v);
  }

  /** Go's {@code %T} of a value decoded from JSON into {@code interface{}}. */
  static String goType(Object v) {
    if (v == null) {
      return "<nil>";
    }
    if (v instanceof String) {
      return "string";
    }
    if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
      return "float64";
    }
    if (v instanceof Number) {
      return "int64";
    }
    if (v instanceof Boolean) {
      return "bool";
    }
    if (v instanceof java.util.List<?>) {
      return "[]interface {}";
    }
    if (v instanceof java.util.Map<?, ?>) {
      return "map[string]interface {}";
    }
    return v.getClass().getSimpleName();
  }

  /** Go's {@code %v} for a float64: shortest digits, exponent form below 1e-4 or from 1e+06 (per {@code %g}). */
  static String floatV(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "+Inf" : "-Inf";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
    String digits = shortest.unscaledValue().toString();
    int exp = digits.length() - 1 - shortest.scale(); // decimal exponent of the first digit
    String sign = d < 0 ? "-" : "";
    if (exp < -4 || exp >= 6) {
      String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String e = String.format("%02d", Math.abs(exp));
      return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + e;
    }
    return sign + shortest.toPlainString();
  }
}
