package dev.headroom.api.validation;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.v1beta1.CapacityBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Validates a raw CapacityBuffer object tree exactly as kube-apiserver validates it against the CRD of a given
 * version. (Work in progress: API shape only.)
 */
public final class CapacityBufferValidator {
  private CapacityBufferValidator() {}

  /** What the request does, which decides whether {@code status} is validated. */
  public enum Mode {
    /** A create (or update) through the main resource: the server discards {@code status} before validating. */
    CREATE,
    /** The whole object is validated, {@code status} included (a status write, or a stored object). */
    WHOLE_OBJECT
  }

  /** Validates with {@link Mode#CREATE}. */
  public static List<FieldError> validate(Map<String, ?> object, CapacityBufferVersion version) {
    return validate(object, version, Mode.CREATE);
  }

  /** Validates a plain Java tree (maps, lists, strings, numbers, booleans, nulls). */
  public static List<FieldError> validate(Map<String, ?> object, CapacityBufferVersion version, Mode mode) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Validates with {@link Mode#CREATE}. */
  public static List<FieldError> validate(JsonNode object, CapacityBufferVersion version) {
    return validate(object, version, Mode.CREATE);
  }

  /** Validates a Jackson 3 tree. */
  public static List<FieldError> validate(JsonNode object, CapacityBufferVersion version, Mode mode) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** The version named by the tree's {@code apiVersion}, if it is one of the served versions. */
  public static Optional<CapacityBufferVersion> versionOf(Map<String, ?> object) {
    return object.get("apiVersion") instanceof String s ? CapacityBufferVersion.fromApiVersion(s) : Optional.empty();
  }

  /**
   * Validates, then returns what the server would store, as the typed v1beta1 model: unknown fields pruned, null
   * values dropped, the {@code provisioningStrategy} default applied, {@code status} dropped in {@link Mode#CREATE},
   * a v1alpha1 object converted to v1beta1.
   */
  public static CapacityBuffer admit(Map<String, ?> object, CapacityBufferVersion version, Mode mode)
      throws InvalidCapacityBufferException {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** {@link #admit(Map, CapacityBufferVersion, Mode)} for a Jackson 3 tree. */
  public static CapacityBuffer admit(JsonNode object, CapacityBufferVersion version, Mode mode)
      throws InvalidCapacityBufferException {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
