package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Port: writes a buffer's conditions through the status subresource. Called at most once per buffer per loop
 * and only when the conditions changed; write errors are the adapter's to log (the next loop retries).
 */
@FunctionalInterface
public interface BufferStatusWriter {

  /** Writes the full merged condition list of {@code buffer}. */
  void writeConditions(CapacityBuffer buffer, List<Condition> conditions);

  /** A writer that drops everything. */
  BufferStatusWriter NONE = (b, c) -> {};
}
