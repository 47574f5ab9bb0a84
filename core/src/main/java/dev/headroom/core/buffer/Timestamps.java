package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Reading {@code metadata.creationTimestamp}. */
final class Timestamps {

  private Timestamps() {}

  /** The creation time; {@link Instant#MIN} when absent or unparsable (sorts first, like Go's zero time). */
  static Instant creation(ObjectMeta meta) {
    if (meta == null || meta.getCreationTimestamp() == null || meta.getCreationTimestamp().isEmpty()) {
      return Instant.MIN;
    }
    try {
      return Instant.parse(meta.getCreationTimestamp());
    } catch (DateTimeParseException e) {
      return Instant.MIN;
    }
  }
}
