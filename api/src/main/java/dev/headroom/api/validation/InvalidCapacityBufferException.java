package dev.headroom.api.validation;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown by {@link CapacityBufferValidator#admit} when the object would be rejected by the API server. */
public final class InvalidCapacityBufferException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<FieldError> errors;

  public InvalidCapacityBufferException(List<FieldError> errors) {
    super(errors.stream().map(FieldError::message).collect(Collectors.joining(", ", "[", "]")));
    this.errors = List.copyOf(errors);
  }

  /** The errors in the order the validator found them; never empty. */
  public List<FieldError> errors() {
    return errors;
  }
}
