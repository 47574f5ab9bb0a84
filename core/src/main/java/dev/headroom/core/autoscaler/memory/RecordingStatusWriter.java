package dev.headroom.core.autoscaler.memory;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link BufferStatusWriter} that records the conditions it would write, by {@code namespace/name}, and
 * leaves the buffer objects untouched.
 */
public final class RecordingStatusWriter implements BufferStatusWriter {

  private final Map<String, List<Condition>> written = new LinkedHashMap<>();

  @Override
  public void writeConditions(CapacityBuffer buffer, List<Condition> conditions) {
    written.put(buffer.getMetadata().getNamespace() + "/" + buffer.getMetadata().getName(), List.copyOf(conditions));
  }

  /** Conditions written, by {@code namespace/name}, in write order. */
  public Map<String, List<Condition>> written() {
    return Map.copyOf(written);
  }
}
