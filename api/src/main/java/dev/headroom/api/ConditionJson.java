package dev.headroom.api;

import io.fabric8.kubernetes.api.model.Condition;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

/**
 * Wire form of a {@code metav1.Condition} as the CapacityBuffer API writes it (§1.7): fields in the order
 * {@code type, status, observedGeneration, lastTransitionTime, reason, message}; {@code observedGeneration} omitted
 * when null or 0 (Go's {@code omitempty}); {@code message} always written, {@code ""} when null; other null fields
 * omitted.
 */
public final class ConditionJson {
  private ConditionJson() {}

  /** Jackson 3 serializer for one condition; use with {@code @JsonSerialize(contentUsing = ...)}. */
  public static final class Serializer extends ValueSerializer<Condition> {
    @Override
    public void serialize(Condition c, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeStartObject();
      writeIfPresent(gen, "type", c.getType());
      writeIfPresent(gen, "status", c.getStatus());
      if (c.getObservedGeneration() != null && c.getObservedGeneration() != 0L) {
        gen.writeNumberProperty("observedGeneration", c.getObservedGeneration());
      }
      writeIfPresent(gen, "lastTransitionTime", c.getLastTransitionTime());
      writeIfPresent(gen, "reason", c.getReason());
      gen.writeStringProperty("message", c.getMessage() == null ? "" : c.getMessage());
      gen.writeEndObject();
    }

    private static void writeIfPresent(JsonGenerator gen, String name, String value) {
      if (value != null) {
        gen.writeStringProperty(name, value);
      }
    }
  }
}
