package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;

/** Port: one {@code UPDATE} of a buffer's {@code status} subresource (optimistic locking on resourceVersion). */
public interface BufferStatusWriter {

  /** Writes {@code buffer.status}; throws with the API's text on failure (not found, conflict, …). */
  void updateStatus(CapacityBuffer buffer) throws ClusterApiException;
}
