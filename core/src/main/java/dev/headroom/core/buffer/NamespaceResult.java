package dev.headroom.core.buffer;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The result of one namespace reconcile (spec §6.3).
 *
 * @param namespace the namespace
 * @param buffers every buffer of the namespace in processing order (strategy-matching ones sorted by
 *     (creationTimestamp, name), followed by the skipped ones in listing order)
 * @param errors API failures that require a requeue with backoff (§6.3 step 8); misconfigurations are not
 *     errors, they only show in conditions. Status-write failures are the caller's to add.
 * @param nextBoundary [H-EXT] the earliest pending schedule transition (§8.2) or one-shot fill deadline
 *     ({@link BufferConsumption}) of any buffer; the caller
 *     re-adds the namespace after {@code boundary − now} when there are no errors
 */
public record NamespaceResult(String namespace, List<BufferOutcome> buffers, List<String> errors, Optional<Instant> nextBoundary) {

  /** Immutable copies. */
  public NamespaceResult {
    buffers = List.copyOf(buffers);
    errors = List.copyOf(errors);
  }

  /** True iff the namespace must be requeued with backoff. */
  public boolean requeue() {
    return !errors.isEmpty();
  }

  /** The outcomes whose status must be written (H1). */
  public List<BufferOutcome> changed() {
    return buffers.stream().filter(BufferOutcome::changed).toList();
  }
}
