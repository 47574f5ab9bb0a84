package dev.headroom.cli.input;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * Turns a library exception into one line of plain words: the field path it names ({@code spec.replicas}) and what
 * was expected ("expected an integer"), never a Java type or library class name.
 */
public final class PlainMessages {

  private static final Pattern TYPE = Pattern.compile("`([\\w.$\\[\\]<>, ]+)`");
  private static final Pattern FROM = Pattern.compile("from (String|Object value|Array value|Boolean value|Integer value|Floating-point value) ?(\"[^\"]*\")?");

  private PlainMessages() {}

  /** The first line of {@code e}'s message in plain words, prefixed with the field path when it has one. */
  public static String of(Throwable e) {
    String path = "";
    String m = e.getMessage();
    if (e instanceof JacksonException j) {
      m = j.getOriginalMessage() != null ? j.getOriginalMessage() : m;
      path = path(j);
    }
    String text = describe(firstLine(String.valueOf(m)));
    return path.isEmpty() ? text : path + ": " + text;
  }

  static String path(JacksonException j) {
    StringBuilder sb = new StringBuilder();
    for (JacksonException.Reference r : j.getPath()) {
      if (r.getPropertyName() != null) {
        if (sb.length() > 0) {
          sb.append('.');
        }
        sb.append(r.getPropertyName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  private static String firstLine(String m) {
    int nl = m.indexOf('\n');
    String s = (nl >= 0 ? m.substring(0, nl) : m).trim();
    int ref = s.indexOf(" (through reference chain");
    return ref >= 0 ? s.substring(0, ref) : s;
  }

  private static String describe(String m) {
    Matcher type = TYPE.matcher(m);
    if (m.startsWith("Cannot deserialize") || m.startsWith("Cannot construct") || m.startsWith("Unexpected token")
        || m.contains("not a valid")) {
      String expected = type.find() ? expected(type.group(1)) : "a value of another type";
      Matcher from = FROM.matcher(m);
      String found = "";
      if (from.find()) {
        found = switch (from.group(1)) {
          case "String" -> from.group(2) == null ? " (found a string)" : ", not " + from.group(2);
          case "Object value" -> " (found a mapping)";
          case "Array value" -> " (found a list)";
          case "Boolean value" -> " (found true or false)";
          case "Integer value" -> " (found an integer)";
          default -> " (found a number)";
        };
      }
      return "expected " + expected + found;
    }
    if (m.startsWith("Numeric value") && m.contains("out of range")) {
      return "number out of range";
    }
    // anything else: keep the words, drop type names
    return type.replaceAll(r -> expected(r.group(1)));
  }

  private static String expected(String javaType) {
    String t = javaType.replaceAll("<.*>", "");
    String simple = t.substring(t.lastIndexOf('.') + 1);
    return switch (simple) {
      case "Integer", "int", "Long", "long", "Short", "short", "BigInteger" -> "an integer";
      case "Double", "double", "Float", "float", "BigDecimal", "Number" -> "a number";
      case "Boolean", "boolean" -> "true or false";
      case "String" -> "a string";
      case "List", "ArrayList", "Collection", "Set" -> "a list";
      case "Map", "LinkedHashMap", "HashMap" -> "a mapping";
      case "Quantity" -> "a quantity such as 500m or 1Gi";
      case "IntOrString" -> "an integer or a string";
      default -> "a mapping (" + simple.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT) + ")";
    };
  }
}
