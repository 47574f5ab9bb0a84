package dev.headroom.api.validation;

import dev.headroom.api.validation.FieldError.ErrorType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Interprets one version's {@code openAPIV3Schema} the way kube-apiserver does for a custom resource: pruning, null
 * dropping and defaulting, then the kube-openapi schema validators, the list-map key check and finally the
 * {@code x-kubernetes-validations} rules. Supports the schema keywords the CapacityBuffer CRD uses and fails fast on
 * any other, so the CRD cannot outgrow the validator unnoticed.
 */
final class SchemaValidation {
  private static final String IN = "body";
  private static final String BLOCKED = "some validation rules were not checked because the object was invalid; "
      + "correct the existing errors to complete validation";
  private static final java.util.Set<String> KNOWN_KEYWORDS = java.util.Set.of("type", "format", "description",
      "properties", "required", "additionalProperties", "items", "minimum", "minLength", "maxLength", "pattern",
      "enum", "anyOf", "default", "x-kubernetes-int-or-string", "x-kubernetes-validations", "x-kubernetes-list-type",
      "x-kubernetes-list-map-keys");
  private static final Pattern DATE_TIME = Pattern.compile(
      "(\\d{4})-(\\d{2})-(\\d{2})[tT](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?([zZ]|[+-]\\d{2}:\\d{2})");

  private final JsonNode schema;
  private final Map<String, Pattern> patterns = new HashMap<>();
  private final Map<String, CelRule> rules = new HashMap<>();

  SchemaValidation(JsonNode schema) {
    this.schema = schema;
    check(schema, "openAPIV3Schema");
  }

  private void check(JsonNode s, String where) {
    for (String key : s.propertyNames()) {
      if (!KNOWN_KEYWORDS.contains(key)) {
        throw new IllegalStateException("unsupported schema keyword " + key + " at " + where);
      }
    }
    if (s.has("pattern")) {
      patterns.put(s.get("pattern").asString(), goRegex(s.get("pattern").asString()));
    }
    for (JsonNode rule : s.path("x-kubernetes-validations")) {
      String source = rule.path("rule").asString();
      rules.put(source, CelRule.compile(source));
    }
    for (Map.Entry<String, JsonNode> p : s.path("properties").properties()) {
      check(p.getValue(), where + ".properties." + p.getKey());
    }
    if (s.path("additionalProperties").isObject()) {
      check(s.get("additionalProperties"), where + ".additionalProperties");
    }
    if (s.path("items").isObject()) {
      check(s.get("items"), where + ".items");
    }
    for (JsonNode sub : s.path("anyOf")) {
      check(sub, where + ".anyOf");
    }
  }

  /** Go's RE2 {@code $} matches only at the end of the text; Java's also before a final line break. */
  private static Pattern goRegex(String pattern) {
    String p = pattern.endsWith("$") && !pattern.endsWith("\\$") ? pattern.substring(0, pattern.length() - 1) + "\\z"
        : pattern;
    return Pattern.compile(p);
  }

  /** Adds to {@code out} the path of every field of {@code value} the schema does not declare (what pruning drops). */
  void unknownFields(Object value, String path, List<String> out) {
    unknownFields(schema, value, path, out);
  }

  private static void unknownFields(JsonNode s, Object value, String path, List<String> out) {
    if (value instanceof Map<?, ?> map) {
      JsonNode props = s.get("properties");
      JsonNode additional = s.get("additionalProperties");
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = String.valueOf(e.getKey());
        String child = path.isEmpty() ? key : path + "." + key;
        if (props != null && props.has(key)) {
          unknownFields(props.get(key), e.getValue(), child, out);
        } else if (additional != null && additional.isObject()) {
          unknownFields(additional, e.getValue(), child, out);
        } else if (props != null && e.getValue() != null) {
          out.add(child);
        }
      }
    } else if (value instanceof List<?> list && s.has("items")) {
      for (int i = 0; i < list.size(); i++) {
        unknownFields(s.get("items"), list.get(i), path + "[" + i + "]", out);
      }
    }
  }

  /** Prunes unknown fields, drops nulls and applies defaults, in place; returns the (possibly replaced) value. */
  Object prepare(Object value) {
    return prepare(schema, value);
  }

  private Object prepare(JsonNode s, Object value) {
    if (value instanceof Map<?, ?> raw) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) raw;
      JsonNode props = s.get("properties");
      JsonNode additional = s.get("additionalProperties");
      if (props != null) {
        map.keySet().removeIf(k -> !props.has(k));
      }
      map.values().removeIf(Objects::isNull);
      for (Map.Entry<String, Object> e : map.entrySet()) {
        JsonNode sub = props != null && props.has(e.getKey()) ? props.get(e.getKey())
            : additional != null && additional.isObject() ? additional : null;
        if (sub != null) {
          e.setValue(prepare(sub, e.getValue()));
        }
      }
      if (props != null) {
        for (Map.Entry<String, JsonNode> p : props.properties()) {
          if (!map.containsKey(p.getKey()) && p.getValue().has("default")) {
            map.put(p.getKey(), RawTree.of(p.getValue().get("default")));
          }
        }
      }
    } else if (value instanceof List<?> raw && s.has("items")) {
      @SuppressWarnings("unchecked")
      List<Object> list = (List<Object>) raw;
      list.replaceAll(item -> prepare(s.get("items"), item));
    }
    return value;
  }

  /** Validates a prepared tree; the errors are in the order kube-apiserver reports them. */
  List<FieldError> validate(Object root) {
    return validate(root, errors -> { });
  }

  /**
   * Validates a prepared tree; {@code afterSchema} adds the errors kube-apiserver's CR validator reports after the
   * schema's and before the list-map and CEL checks (the scale subresource's replica checks).
   */
  List<FieldError> validate(Object root, java.util.function.Consumer<List<FieldError>> afterSchema) {
    List<FieldError> errors = new ArrayList<>();
    validate(schema, root, "", List.of(), errors);
    afterSchema.accept(errors);
    listMaps(schema, root, "", List.of(), errors);
    boolean blocking = errors.stream().anyMatch(e -> e.type().blocksCel());
    if (blocking) {
      errors.add(new FieldError("<nil>", List.of(), ErrorType.INVALID, null, BLOCKED));
    } else {
      cel(schema, root, "", List.of(), errors);
    }
    return errors;
  }

  // ---- kube-openapi SchemaValidator ------------------------------------------------------------------------------

  private void validate(JsonNode s, Object data, String path, List<String> loc, List<FieldError> errors) {
    typeCheck(s, data, path, loc, errors);
    if (data == null) {
      enumCheck(s, data, path, loc, errors);
      return;
    }
    anyOf(s, data, path, loc, errors);
    if (data instanceof String str) {
      stringCheck(s, str, path, loc, errors);
      formatCheck(s, str, path, loc, errors);
    }
    if (data instanceof Long || data instanceof Double) {
      numberCheck(s, (Number) data, path, loc, errors);
    }
    if (data instanceof List<?> list && s.has("items")) {
      for (int i = 0; i < list.size(); i++) {
        validate(s.get("items"), list.get(i), path + "[" + i + "]", append(loc, Integer.toString(i)), errors);
      }
    }
    enumCheck(s, data, path, loc, errors);
    if (data instanceof Map<?, ?> map) {
      objectCheck(s, map, path, loc, errors);
    }
  }

  private static List<String> types(JsonNode s) {
    List<String> types = new ArrayList<>();
    if (s.path("x-kubernetes-int-or-string").asBoolean(false)) {
      types.add("integer");
      types.add("string");
    } else if (s.has("type")) {
      types.add(s.get("type").asString());
    }
    return types;
  }

  private static String schType(Object data) {
    if (data instanceof String) {
      return "string";
    }
    if (data instanceof Boolean) {
      return "boolean";
    }
    if (data instanceof Long) {
      return "integer";
    }
    if (data instanceof Double) {
      return "number";
    }
    if (data instanceof List) {
      return "array";
    }
    return "object";
  }

  private static String dataFormat(Object data) {
    if (data instanceof Long) {
      return "int64";
    }
    if (data instanceof Double) {
      return "float64";
    }
    return "";
  }

  private void typeCheck(JsonNode s, Object data, String path, List<String> loc, List<FieldError> errors) {
    List<String> types = types(s);
    String format = s.path("format").asString("");
    if (types.isEmpty() && format.isEmpty()) {
      return;
    }
    if (data == null) {
      if (!types.isEmpty()) {
        errors.add(typeError(path, loc, String.join(",", types), "null"));
      }
      return;
    }
    String schType = schType(data);
    String dataFormat = dataFormat(data);
    boolean isFloatInt = data instanceof Double d && !d.isInfinite() && d == Math.rint(d) && types.contains("integer");
    boolean isIntFloat = data instanceof Long && types.contains("number");
    boolean isLowerInt = format.equals("int64") && dataFormat.equals("int32");
    boolean stringOrSlice = data instanceof String || data instanceof List;
    if (!stringOrSlice && !format.isEmpty()
        && !(types.contains(schType) || dataFormat.equals(format) || isFloatInt || isIntFloat || isLowerInt)) {
      errors.add(typeError(path, loc, format, dataFormat));
      return;
    }
    if (!(types.contains("number") || types.contains("integer")) && !format.isEmpty() && stringOrSlice) {
      return;
    }
    if (!(types.contains(schType) || isFloatInt || isIntFloat)) {
      errors.add(typeError(path, loc, String.join(",", types), schType));
    }
  }

  private static FieldError typeError(String path, List<String> loc, String typeName, String value) {
    return new FieldError(field(path), loc, ErrorType.TYPE_INVALID, value,
        path + " in " + IN + " must be of type " + typeName + ": " + GoFormat.quote(value));
  }

  private void anyOf(JsonNode s, Object data, String path, List<String> loc, List<FieldError> errors) {
    JsonNode anyOf = s.get("anyOf");
    if (anyOf == null || anyOf.isEmpty()) {
      return;
    }
    List<FieldError> best = null;
    for (JsonNode sub : anyOf) {
      List<FieldError> result = new ArrayList<>();
      validate(sub, data, path, loc, result);
      if (result.isEmpty()) {
        return;
      }
      if (best == null) {
        best = result; // equal match counts for the int-or-string alternatives: the first failure is kept
      }
    }
    errors.add(new FieldError("<nil>", loc, ErrorType.INVALID, "",
        GoFormat.quote(path) + " must validate at least one schema (anyOf)"));
    errors.addAll(best);
  }

  private void stringCheck(JsonNode s, String data, String path, List<String> loc, List<FieldError> errors) {
    int length = data.codePointCount(0, data.length());
    if (s.has("maxLength") && length > s.get("maxLength").asLong()) {
      long max = s.get("maxLength").asLong();
      errors.add(new FieldError(field(path), loc, ErrorType.TOO_LONG, data,
          "may not be more than " + max + (max == 1 ? " byte" : " bytes")));
      return;
    }
    if (s.has("minLength") && length < s.get("minLength").asLong()) {
      errors.add(new FieldError(field(path), loc, ErrorType.INVALID, data,
          path + " in " + IN + " should be at least " + s.get("minLength").asLong() + " chars long"));
      return;
    }
    if (s.has("pattern")) {
      String pattern = s.get("pattern").asString();
      if (!patterns.get(pattern).matcher(data).find()) {
        errors.add(new FieldError(field(path), loc, ErrorType.INVALID, data,
            path + " in " + IN + " should match '" + pattern + "'"));
      }
    }
  }

  private static void formatCheck(JsonNode s, String data, String path, List<String> loc, List<FieldError> errors) {
    String format = s.path("format").asString("");
    if (format.equals("date-time") && !isDateTime(data)) {
      errors.add(new FieldError(field(path), loc, ErrorType.TYPE_INVALID, data,
          path + " in " + IN + " must be of type " + format + ": " + GoFormat.quote(data)));
    }
  }

  private static boolean isDateTime(String value) {
    var m = DATE_TIME.matcher(value);
    if (!m.matches()) {
      return false;
    }
    int month = Integer.parseInt(m.group(2));
    int day = Integer.parseInt(m.group(3));
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 && Integer.parseInt(m.group(4)) <= 23
        && Integer.parseInt(m.group(5)) <= 59 && Integer.parseInt(m.group(6)) <= 59;
  }

  private static void numberCheck(JsonNode s, Number data, String path, List<String> loc, List<FieldError> errors) {
    rangeCheck(s, data, path, loc, errors);
    if (!s.has("minimum")) {
      return;
    }
    JsonNode min = s.get("minimum");
    boolean below = data instanceof Long l && min.isIntegralNumber() ? l < min.asLong()
        : data.doubleValue() < min.asDouble();
    if (below) {
      String bound = min.isIntegralNumber() ? Long.toString(min.asLong()) : GoFormat.floatV(min.asDouble());
      errors.add(new FieldError(field(path), loc, ErrorType.INVALID, data,
          path + " in " + IN + " should be greater than or equal to " + bound));
    }
  }

  /**
   * kube-openapi's {@code IsValueValidAgainstRange} ("Checked"): a number under a schema of exactly one type
   * {@code integer} (format int32, int64 or none) or {@code number} (float) must convert to that type without loss,
   * judged on its decimal text (so 2.0 is an int32, 1.5 and 3000000000 are not). Not a blocking error.
   */
  private static void rangeCheck(JsonNode s, Number data, String path, List<String> loc, List<FieldError> errors) {
    String type = s.path("type").isString() ? s.get("type").asString() : "";
    String format = s.path("format").asString("");
    String shownFormat;
    boolean fits;
    String text = data instanceof Long l ? Long.toString(l)
        : new java.math.BigDecimal(Double.toString(data.doubleValue())).stripTrailingZeros().toPlainString();
    if (type.equals("integer")) {
      shownFormat = format.equals("int32") || format.equals("int64") ? format : "";
      long min = shownFormat.equals("int32") ? Integer.MIN_VALUE : Long.MIN_VALUE;
      long max = shownFormat.equals("int32") ? Integer.MAX_VALUE : Long.MAX_VALUE;
      long v;
      try {
        v = Long.parseLong(text);
        fits = v >= min && v <= max;
      } catch (NumberFormatException e) {
        fits = false;
      }
    } else if (type.equals("number") && format.equals("float")) {
      shownFormat = format;
      fits = Math.abs(data.doubleValue()) <= Float.MAX_VALUE;
    } else {
      return;
    }
    if (!fits) {
      errors.add(new FieldError("<nil>", loc, ErrorType.INVALID, "", "Checked value must be of type " + type
          + (shownFormat.isEmpty() ? " (default format)" : " with format " + shownFormat) + " in " + path));
    }
  }

  private static void enumCheck(JsonNode s, Object data, String path, List<String> loc, List<FieldError> errors) {
    JsonNode values = s.get("enum");
    if (values == null || values.isEmpty()) {
      return;
    }
    List<String> allowed = new ArrayList<>();
    for (JsonNode v : values) {
      if (v.isString() && v.asString().equals(data)) {
        return;
      }
      allowed.add(v.isString() ? v.asString() : v.toString());
    }
    StringBuilder detail = new StringBuilder("supported values: ");
    for (int i = 0; i < allowed.size(); i++) {
      detail.append(i == 0 ? "" : ", ").append(GoFormat.quote(allowed.get(i)));
    }
    errors.add(new FieldError(field(path), loc, ErrorType.NOT_SUPPORTED, data, detail.toString()));
  }

  private void objectCheck(JsonNode s, Map<?, ?> map, String path, List<String> loc, List<FieldError> errors) {
    JsonNode props = s.get("properties");
    JsonNode additional = s.get("additionalProperties");
    if (additional != null && additional.isObject()) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = (String) e.getKey();
        if (props == null || !props.has(key)) {
          validate(additional, e.getValue(), path + "." + key, append(loc, key), errors);
        }
      }
    }
    if (props != null) {
      for (Map.Entry<String, JsonNode> p : props.properties()) {
        if (map.containsKey(p.getKey())) {
          String child = path.isEmpty() ? p.getKey() : path + "." + p.getKey();
          validate(p.getValue(), map.get(p.getKey()), child, append(loc, p.getKey()), errors);
        }
      }
    }
    for (JsonNode required : s.path("required")) {
      String key = required.asString();
      if (!map.containsKey(key)) {
        errors.add(new FieldError(field(path + "." + key), append(loc, key), ErrorType.REQUIRED, null, ""));
      }
    }
  }

  // ---- x-kubernetes-list-type: map ----------------------------------------------------------------------------

  private void listMaps(JsonNode s, Object data, String path, List<String> loc, List<FieldError> errors) {
    if (data instanceof Map<?, ?> map) {
      JsonNode props = s.get("properties");
      JsonNode additional = s.get("additionalProperties");
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = (String) e.getKey();
        JsonNode sub = props != null && props.has(key) ? props.get(key)
            : additional != null && additional.isObject() ? additional : null;
        if (sub != null) {
          listMaps(sub, e.getValue(), path.isEmpty() ? key : path + "." + key, append(loc, key), errors);
        }
      }
    } else if (data instanceof List<?> list && s.has("items")) {
      if ("map".equals(s.path("x-kubernetes-list-type").asString(""))) {
        duplicateKeys(s, list, path, loc, errors);
      }
      for (int i = 0; i < list.size(); i++) {
        listMaps(s.get("items"), list.get(i), path + "[" + i + "]", append(loc, Integer.toString(i)), errors);
      }
    }
  }

  private static void duplicateKeys(JsonNode s, List<?> list, String path, List<String> loc, List<FieldError> errors) {
    List<String> keyNames = new ArrayList<>();
    s.path("x-kubernetes-list-map-keys").forEach(k -> keyNames.add(k.asString()));
    Map<List<Object>, Integer> seen = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Map<?, ?> item)) {
        continue;
      }
      List<Object> key = new ArrayList<>();
      Map<String, Object> shown = new LinkedHashMap<>();
      for (String name : keyNames) {
        key.add(item.get(name));
        shown.put(name, item.get(name));
      }
      if (seen.putIfAbsent(key, i) != null) {
        errors.add(new FieldError(path + "[" + i + "]", append(loc, Integer.toString(i)), ErrorType.DUPLICATE,
            new GoFormat.GoMap(shown), ""));
      }
    }
  }

  // ---- x-kubernetes-validations --------------------------------------------------------------------------------

  private void cel(JsonNode s, Object data, String path, List<String> loc, List<FieldError> errors) {
    if (!(data instanceof Map<?, ?> raw)) {
      if (data instanceof List<?> list && s.has("items")) {
        for (int i = 0; i < list.size(); i++) {
          cel(s.get("items"), list.get(i), path + "[" + i + "]", append(loc, Integer.toString(i)), errors);
        }
      }
      return;
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> map = (Map<String, ?>) raw;
    for (JsonNode rule : s.path("x-kubernetes-validations")) {
      if (!rules.get(rule.path("rule").asString()).evaluate(map)) {
        String message = rule.path("message").asString("");
        if (message.isEmpty()) {
          message = "failed rule: " + rule.path("rule").asString();
        }
        errors.add(new FieldError(path.isEmpty() ? "<nil>" : path, loc, ErrorType.RULE, null, message));
      }
    }
    JsonNode props = s.get("properties");
    JsonNode additional = s.get("additionalProperties");
    for (Map.Entry<String, ?> e : map.entrySet()) {
      JsonNode sub = props != null && props.has(e.getKey()) ? props.get(e.getKey())
          : additional != null && additional.isObject() ? additional : null;
      if (sub != null) {
        String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        cel(sub, e.getValue(), child, append(loc, e.getKey()), errors);
      }
    }
  }

  // ---- helpers ------------------------------------------------------------------------------------------------

  /** kube-apiserver's field path for a kube-openapi name: the leading dot trimmed, "<nil>" when empty. */
  private static String field(String name) {
    String trimmed = name.startsWith(".") ? name.substring(1) : name;
    return trimmed.isEmpty() ? "<nil>" : trimmed;
  }

  private static List<String> append(List<String> loc, String segment) {
    List<String> out = new ArrayList<>(loc.size() + 1);
    out.addAll(loc);
    out.add(segment);
    return List.copyOf(out);
  }
}
