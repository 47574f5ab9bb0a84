package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The status updater (spec §9.10): one UPDATE per buffer handed to it, per-buffer errors, no retry. The
 * write-only-on-change decision (§6.4 H1) is made before, by {@link BufferReconciler}.
 */
public final class BufferStatusUpdater {

  /** The outcome of one batch. */
  public record Result(int updated, List<String> errors) {
    /** Immutable copy. */
    public Result {
      errors = List.copyOf(errors);
    }
  }

  private final BufferStatusWriter writer;

  /** An updater over a writer. */
  public BufferStatusUpdater(BufferStatusWriter writer) {
    this.writer = writer;
  }

  /** Writes every buffer's status once; a failure is recorded and the batch goes on. */
  public Result update(List<CapacityBuffer> buffers) {
    int updated = 0;
    List<String> errors = new ArrayList<>();
    for (CapacityBuffer b : buffers) {
      try {
        writer.updateStatus(b);
        updated++;
      } catch (ClusterApiException e) {
        errors.add(b.getMetadata().getNamespace() + "/" + b.getMetadata().getName() + ": " + e.getMessage());
      }
    }
    return new Result(updated, errors);
  }
}
