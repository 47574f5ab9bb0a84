package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;

/**
 * What one namespace reconcile decided for one buffer.
 *
 * @param buffer the buffer as listed, with {@code status} replaced by the computed status when {@code processed}
 *     (an unprocessed buffer is returned untouched)
 * @param processed false when the strategy filter skipped the buffer (§6.3 step 2); it still counts as
 *     reconciled for the metric (§6.5)
 * @param changed true iff the computed status differs from the listed one (§6.4 H1: semantic equality,
 *     {@code lastTransitionTime} at second precision): only these need a status write
 */
public record BufferOutcome(CapacityBuffer buffer, boolean processed, boolean changed) {

  /** {@code namespace/name} of the buffer. */
  public String key() {
    return buffer.getMetadata().getNamespace() + "/" + buffer.getMetadata().getName();
  }
}
