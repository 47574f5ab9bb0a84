package dev.headroom.api.validation;

import java.util.List;
import java.util.Objects;

/**
 * One admission error, shaped like Kubernetes' {@code field.Error}: the field path (for example
 * {@code spec.podTemplateRef.name}), the error type, the offending value and a detail text.
 *
 * <p>{@link #message()} renders it exactly as kube-apiserver does ({@code field.Error.Error()}), for example
 * {@code spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0}. See
 * {@link CapacityBufferValidator} for the complete format.
 *
 * @param field the field path as Kubernetes prints it; {@code "<nil>"} for errors that concern no field
 * @param location the JSON path of the offending node as separate segments (object keys, and list indices as
 *     decimal strings), for mapping an error to a file position; keys may contain dots (e.g. {@code nvidia.com/gpu})
 *     so prefer this over splitting {@code field}; empty for errors that concern no field
 * @param type the error type
 * @param badValue the offending value as a plain Java value (String, Long, Double, Boolean) or {@code null}
 *     for "null"; ignored when {@link ErrorType#omitsValue()} is true
 * @param detail the detail text, possibly empty
 */
public record FieldError(String field, List<String> location, ErrorType type, Object badValue, String detail) {
  public FieldError {
    Objects.requireNonNull(field, "field");
    location = List.copyOf(location);
    Objects.requireNonNull(type, "type");
    detail = detail == null ? "" : detail;
  }

  /** The error as kube-apiserver prints it: {@code <field>: <type>[: <value>][: <detail>]}. */
  public String message() {
    return field + ": " + body();
  }

  /** The message without the leading field path (Kubernetes' {@code ErrorBody()}). */
  public String body() {
    StringBuilder s = new StringBuilder(type.text());
    if (!type.omitsValue()) {
      s.append(": ").append(GoFormat.value(badValue));
    }
    if (!detail.isEmpty()) {
      s.append(": ").append(detail);
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return message();
  }

  /** The subset of Kubernetes' {@code field.ErrorType} values that CRD validation produces. */
  public enum ErrorType {
    /** {@code field.Required}: the value is never printed; blocks CEL evaluation. */
    REQUIRED("Required value", true, true),
    /** {@code field.Invalid} (minimum, minLength, pattern, CEL rules). */
    INVALID("Invalid value", false, false),
    /** {@code field.TypeInvalid} (wrong JSON type or format): prints as "Invalid value"; blocks CEL evaluation. */
    TYPE_INVALID("Invalid value", false, true),
    /** {@code field.NotSupported} (an enum mismatch); blocks CEL evaluation. */
    NOT_SUPPORTED("Unsupported value", false, true),
    /** {@code field.TooLong} (maxLength): the value is never printed; blocks CEL evaluation. */
    TOO_LONG("Too long", true, true),
    /** {@code field.Duplicate} (two list-map items with the same key). */
    DUPLICATE("Duplicate value", false, false),
    /**
     * A failed {@code x-kubernetes-validations} rule: {@code field.Invalid} with {@code field.OmitValueType}, so
     * kube-apiserver (v1.36) prints no value, e.g. {@code spec: Invalid value: If X is set, ...}.
     */
    RULE("Invalid value", true, false);

    private final String text;
    private final boolean omitsValue;
    private final boolean blocksCel;

    ErrorType(String text, boolean omitsValue, boolean blocksCel) {
      this.text = text;
      this.omitsValue = omitsValue;
      this.blocksCel = blocksCel;
    }

    /**
     * Whether kube-apiserver skips the CEL rules when the schema validation produced an error of this type
     * ({@code hasBlockingErr} in the custom-resource strategy).
     */
    public boolean blocksCel() {
      return blocksCel;
    }

    /** The text Kubernetes prints for this type. */
    public String text() {
      return text;
    }

    /** Whether Kubernetes omits the bad value for this type. */
    public boolean omitsValue() {
      return omitsValue;
    }
  }
}
