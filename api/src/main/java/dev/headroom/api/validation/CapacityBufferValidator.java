package dev.headroom.api.validation;

import dev.headroom.api.Models;
import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.crd.CrdPostProcessor;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.validation.FieldError.ErrorType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Validates a raw CapacityBuffer object tree exactly as kube-apiserver validates a create (or a status write)
 * against the CRD {@code capacitybuffers.autoscaling.x-k8s.io} of a given version, so that {@code headroom explain}
 * and the simulator reject what a cluster would reject, with the same messages.
 *
 * <p>The validator interprets the generated CRD itself (read from the classpath, where the build puts it), so the
 * schema it enforces is the one that is deployed. It takes a raw tree rather than the typed model because type
 * errors ({@code replicas: "three"}) cannot be represented in the model. A raw tree is a {@code Map<String, ?>} of
 * maps, lists, strings, numbers, booleans and nulls (for example as parsed from YAML) or a Jackson 3
 * {@link JsonNode}.
 *
 * <h2>What happens, in the API server's order</h2>
 * <ol>
 *   <li>In {@link Mode#CREATE} the {@code status} is discarded (the status subresource is enabled).</li>
 *   <li>Unknown fields are pruned (not rejected), null values of object fields are dropped, and schema defaults
 *       are applied ({@code spec.provisioningStrategy: buffer.x-k8s.io/active-capacity}).</li>
 *   <li>The structural schema is checked per node in kube-openapi's order: type and format, {@code anyOf},
 *       maxLength / minLength / pattern (only the first failure of a string), date-time format, minimum, list items,
 *       enum, then the object's map values, its properties (in schema order) and its {@code required} list.</li>
 *   <li>The scale subresource's checks (apiextensions-apiserver {@code ValidateScaleSpec}, in a create only, and
 *       {@code ValidateScaleStatus}): the value at {@code specReplicasPath} and {@code statusReplicasPath}, if
 *       present, must be an int64 to Go (so {@code 2.0} fails although the schema admits it) in 0..2147483647; the
 *       field is printed as the CRD writes the path ({@code .spec.replicas}).</li>
 *   <li>{@code x-kubernetes-list-type: map} keys must be unique.</li>
 *   <li>If any error so far is of a blocking type ({@link ErrorType#blocksCel()}: Required, TypeInvalid,
 *       NotSupported, TooLong) the CEL rules are skipped and one more error says so. Otherwise both CEL rules on
 *       {@code spec} run in order, each failure adding one error.</li>
 * </ol>
 *
 * <h2>Message format ({@code field.Error.Error()} of k8s.io/apimachinery)</h2>
 * Each error renders as {@code <field>: <type>[: <value>][: <detail>]}:
 * <ul>
 *   <li>{@code <field>} is the path with dots between object keys and {@code [i]} for list items; map keys are
 *       appended with a dot as they are ({@code spec.limits.nvidia.com/gpu}); {@code <nil>} for errors without a
 *       field;</li>
 *   <li>{@code <type>} is {@code Required value}, {@code Invalid value} (also for type errors),
 *       {@code Unsupported value}, {@code Too long} or {@code Duplicate value};</li>
 *   <li>{@code <value>} is omitted for Required, Too long and failed CEL rules (as kube-apiserver v1.36 does); otherwise strings are printed with Go's {@code %q},
 *       integers and floats with {@code %v}, a missing value as {@code null};</li>
 *   <li>{@code <detail>} is kube-openapi's message, which repeats the path and says {@code in body}.</li>
 * </ul>
 * Examples:
 * <pre>
 * spec: Required value
 * spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
 * spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
 * spec.podTemplateRef.name: Invalid value: "": spec.podTemplateRef.name in body should be at least 1 chars long
 * spec.limits.cpu: Invalid value: "lots": spec.limits.cpu in body should match '^(\+|-)?(([0-9]+...)))?$'
 * spec.limits.cpu: Invalid value: "number": spec.limits.cpu in body must be of type integer,string: "number"
 * &lt;nil&gt;: Invalid value: "": "spec.limits.cpu" must validate at least one schema (anyOf)
 * status.conditions[0].status: Unsupported value: "Yes": supported values: "True", "False", "Unknown"
 * status.conditions[0].message: Too long: may not be more than 32768 bytes
 * spec: Invalid value: If X is set, replicas or limits must also be set
 * &lt;nil&gt;: Invalid value: "": Checked value must be of type integer with format int32 in spec.replicas
 * &lt;nil&gt;: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
 * </pre>
 * {@link #statusMessage} joins them the way the API server's 422 response does.
 *
 * <p>Known differences: kube-apiserver walks object properties in Go map order, so the order of errors from
 * sibling fields may differ between requests; here it is the schema's (alphabetical) order. Object metadata
 * ({@code metadata.name}, namespace) is not validated. The date-time check follows kube-openapi's RFC 3339 rules
 * without calendar validation beyond month 1–12 and day 1–31.
 */
public final class CapacityBufferValidator {
  private static final Map<CapacityBufferVersion, SchemaValidation> SCHEMAS = loadSchemas();
  private static final Map<CapacityBufferVersion, Scale> SCALES = loadScales();

  private CapacityBufferValidator() {}

  /** What the request does, which decides whether {@code status} is validated. */
  public enum Mode {
    /** A create or update through the main resource: the server discards {@code status} before validating. */
    CREATE,
    /** The whole object is validated, {@code status} included (a status write, or a stored object). */
    WHOLE_OBJECT
  }

  /** Validates with {@link Mode#CREATE}. */
  public static List<FieldError> validate(Map<String, ?> object, CapacityBufferVersion version) {
    return validate(object, version, Mode.CREATE);
  }

  /**
   * Validates a plain Java tree (maps, lists, strings, numbers, booleans, nulls); the argument is not changed.
   *
   * @return the errors in the order the API server reports them; empty when the object would be admitted
   */
  public static List<FieldError> validate(Map<String, ?> object, CapacityBufferVersion version, Mode mode) {
    return run(RawTree.of(object), version, mode).errors();
  }

  /** Validates with {@link Mode#CREATE}. */
  public static List<FieldError> validate(JsonNode object, CapacityBufferVersion version) {
    return validate(object, version, Mode.CREATE);
  }

  /** Validates a Jackson 3 tree; the argument is not changed. */
  public static List<FieldError> validate(JsonNode object, CapacityBufferVersion version, Mode mode) {
    return run(RawTree.of(object), version, mode).errors();
  }

  /**
   * The fields of a plain tree that this version's schema does not declare, as dotted paths ({@code spec.replicass},
   * {@code spec.limits} keys are free): what kube-apiserver's strict field validation reports as
   * {@code unknown field "PATH"} instead of pruning. {@code metadata} is not inspected (the schema leaves it open).
   */
  public static List<String> unknownFields(Map<String, ?> object, CapacityBufferVersion version) {
    List<String> out = new java.util.ArrayList<>();
    SCHEMAS.get(version).unknownFields(object, "", out);
    return out;
  }

  /** The version named by the tree's {@code apiVersion}, if it is one of the served versions. */
  public static Optional<CapacityBufferVersion> versionOf(Map<String, ?> object) {
    return object.get("apiVersion") instanceof String s ? CapacityBufferVersion.fromApiVersion(s) : Optional.empty();
  }

  /** The version named by the tree's {@code apiVersion}, if it is one of the served versions. */
  public static Optional<CapacityBufferVersion> versionOf(JsonNode object) {
    JsonNode v = object.get("apiVersion");
    return v != null && v.isString() ? CapacityBufferVersion.fromApiVersion(v.asString()) : Optional.empty();
  }

  /**
   * Validates, then returns what the server would store, as the typed v1beta1 model: unknown fields pruned, null
   * values dropped, the {@code provisioningStrategy} default applied, {@code status} dropped in {@link Mode#CREATE},
   * a v1alpha1 object converted to v1beta1.
   *
   * <p>Beyond the API server, integer fields whose value does not fit the Go {@code int32} (Java {@code int}) field
   * are reported here ({@code Invalid value}), because no controller can decode such an object.
   *
   * @throws InvalidCapacityBufferException with the errors when the object would be rejected
   */
  public static CapacityBuffer admit(Map<String, ?> object, CapacityBufferVersion version, Mode mode)
      throws InvalidCapacityBufferException {
    return toTyped(run(RawTree.of(object), version, mode));
  }

  /** {@link #admit(Map, CapacityBufferVersion, Mode)} for a Jackson 3 tree. */
  public static CapacityBuffer admit(JsonNode object, CapacityBufferVersion version, Mode mode)
      throws InvalidCapacityBufferException {
    return toTyped(run(RawTree.of(object), version, mode));
  }

  /**
   * The message of the API server's 422 response for these errors, e.g.
   * {@code CapacityBuffer.autoscaling.x-k8s.io "b" is invalid: spec: Required value}; several distinct errors are
   * joined as {@code [e1, e2]}.
   */
  public static String statusMessage(String name, List<FieldError> errors) {
    Set<String> distinct = new LinkedHashSet<>();
    errors.forEach(e -> distinct.add(e.message()));
    String joined = distinct.size() == 1 ? distinct.iterator().next() : "[" + String.join(", ", distinct) + "]";
    return CapacityBufferVersion.KIND + "." + CapacityBufferVersion.GROUP + " " + GoFormat.quote(name)
        + " is invalid: " + joined;
  }

  // ---- implementation ------------------------------------------------------------------------------------------

  private record Outcome(Map<String, Object> prepared, List<FieldError> errors) {}

  @SuppressWarnings("unchecked")
  private static Outcome run(Object raw, CapacityBufferVersion version, Mode mode) {
    if (!(raw instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("a CapacityBuffer must be an object");
    }
    Map<String, Object> tree = (Map<String, Object>) raw;
    if (mode == Mode.CREATE) {
      tree.remove("status");
    }
    SchemaValidation schema = SCHEMAS.get(version);
    schema.prepare(tree);
    Scale scale = SCALES.get(version);
    List<FieldError> errors = schema.validate(tree, out -> {
      if (scale != null) {
        if (mode == Mode.CREATE) {
          scaleReplicas(tree, scale.specReplicasPath(), out);
        }
        scaleReplicas(tree, scale.statusReplicasPath(), out);
      }
    });
    if (mode == Mode.WHOLE_OBJECT) {
      // The status subresource validates status against its own schema: the "in body" texts name the path below
      // status (conditions[0].reason in body ...), the field paths keep the status. prefix.
      errors.replaceAll(CapacityBufferValidator::relativeToStatus);
    }
    return new Outcome(tree, List.copyOf(errors));
  }

  /** A version's {@code subresources.scale} paths. */
  private record Scale(String specReplicasPath, String statusReplicasPath) {}

  /**
   * The scale subresource's check of a replica path (apiextensions-apiserver v0.36.3
   * {@code pkg/registry/customresource/validator.go} {@code ValidateScaleSpec}/{@code ValidateScaleStatus}, reading
   * the value with apimachinery's {@code unstructured.NestedInt64}): absent is fine; otherwise an int64 in
   * {@code 0..2147483647}. Anything else, even a whole number written as {@code 2.0} (a float64 to Go), is an accessor
   * error, reported with the value 0.
   */
  private static void scaleReplicas(Map<String, Object> tree, String path, List<FieldError> errors) {
    String[] fields = path.startsWith(".") ? path.substring(1).split("\\.") : path.split("\\.");
    List<String> location = List.of(fields);
    Object val = tree;
    for (int i = 0; i < fields.length; i++) {
      if (val == null) {
        return;
      }
      if (!(val instanceof Map<?, ?> m)) {
        String at = "." + String.join(".", List.of(fields).subList(0, i + 1));
        errors.add(new FieldError(path, location, ErrorType.INVALID, 0L, at + " accessor error: " + GoFormat.plainV(val)
            + " is of the type " + GoFormat.goType(val) + ", expected map[string]interface{}"));
        return;
      }
      if (!m.containsKey(fields[i])) {
        return;
      }
      val = m.get(fields[i]);
    }
    if (!(val instanceof Long || val instanceof Integer)) {
      errors.add(new FieldError(path, location, ErrorType.INVALID, 0L, "." + String.join(".", fields) + " accessor error: "
          + GoFormat.plainV(val) + " is of the type " + GoFormat.goType(val) + ", expected int64"));
      return;
    }
    long n = ((Number) val).longValue();
    if (n < 0) {
      errors.add(new FieldError(path, location, ErrorType.INVALID, n, "should be a non-negative integer"));
    } else if (n > Integer.MAX_VALUE) {
      errors.add(new FieldError(path, location, ErrorType.INVALID, n, "should be less than or equal to " + Integer.MAX_VALUE));
    }
  }

  private static FieldError relativeToStatus(FieldError e) {
    boolean underStatus = !e.location().isEmpty() && e.location().get(0).equals("status");
    if (!underStatus) {
      return e;
    }
    String detail = e.detail();
    if (detail.startsWith("status.")) {
      detail = detail.substring("status.".length());
    } else if (detail.contains(" in status.")) {
      detail = detail.replace(" in status.", " in ");
    } else {
      return e;
    }
    return new FieldError(e.field(), e.location(), e.type(), e.badValue(), detail);
  }

  @SuppressWarnings("unchecked")
  private static CapacityBuffer toTyped(Outcome outcome) throws InvalidCapacityBufferException {
    if (!outcome.errors().isEmpty()) {
      throw new InvalidCapacityBufferException(outcome.errors());
    }
    Map<String, Object> tree = outcome.prepared();
    List<FieldError> range = new ArrayList<>();
    Object spec = tree.get("spec");
    if (spec instanceof Map<?, ?> s) {
      int32((Map<String, Object>) s, "spec", "replicas", range);
      int32((Map<String, Object>) s, "spec", "percentage", range);
      if (s.get("limits") instanceof Map<?, ?> limits) {
        ((Map<String, Object>) limits).replaceAll((k, v) -> v instanceof String ? v : String.valueOf(v));
      }
    }
    if (tree.get("status") instanceof Map<?, ?> st) {
      int32((Map<String, Object>) st, "status", "replicas", range);
    }
    if (!range.isEmpty()) {
      throw new InvalidCapacityBufferException(range);
    }
    tree.put("apiVersion", CapacityBufferVersion.V1BETA1.apiVersion());
    tree.put("kind", CapacityBufferVersion.KIND);
    return Models.fromTree(tree, CapacityBuffer.class);
  }

  private static void int32(Map<String, Object> parent, String path, String key, List<FieldError> errors) {
    Object v = parent.get(key);
    if (v instanceof Double d) {
      v = d.longValue(); // a whole number: the schema admitted it as an integer
      parent.put(key, v);
    }
    if (v instanceof Long l && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
      errors.add(new FieldError(path + "." + key, List.of(path, key), ErrorType.INVALID, l,
          "does not fit the 32-bit integer field (the API server stores it, but no controller can read it)"));
    }
  }

  private static Map<CapacityBufferVersion, Scale> loadScales() {
    Map<CapacityBufferVersion, Scale> scales = new EnumMap<>(CapacityBufferVersion.class);
    for (JsonNode v : crd().path("spec").path("versions")) {
      JsonNode scale = v.path("subresources").path("scale");
      if (scale.isObject()) {
        CapacityBufferVersion.fromApiVersion(CapacityBufferVersion.GROUP + "/" + v.path("name").asString())
            .ifPresent(version -> scales.put(version, new Scale(scale.path("specReplicasPath").asString(),
                scale.path("statusReplicasPath").asString())));
      }
    }
    return scales;
  }

  private static JsonNode crd() {
    String yaml;
    try (InputStream in = CapacityBufferValidator.class.getResourceAsStream(CrdPostProcessor.CLASSPATH_LOCATION)) {
      if (in == null) {
        throw new IllegalStateException("the generated CRD is missing from the classpath at "
            + CrdPostProcessor.CLASSPATH_LOCATION + "; build the api module (" + CrdPostProcessor.REFRESH_COMMAND + ")");
      }
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return CrdPostProcessor.parse(yaml);
  }

  private static Map<CapacityBufferVersion, SchemaValidation> loadSchemas() {
    JsonNode crd = crd();
    Map<CapacityBufferVersion, SchemaValidation> schemas = new EnumMap<>(CapacityBufferVersion.class);
    for (JsonNode v : crd.path("spec").path("versions")) {
      CapacityBufferVersion.fromApiVersion(CapacityBufferVersion.GROUP + "/" + v.path("name").asString())
          .ifPresent(version -> schemas.put(version, new SchemaValidation(v.path("schema").path("openAPIV3Schema"))));
    }
    if (schemas.size() != CapacityBufferVersion.values().length) {
      throw new IllegalStateException("the CRD does not define every served version: " + schemas.keySet());
    }
    return schemas;
  }
}
