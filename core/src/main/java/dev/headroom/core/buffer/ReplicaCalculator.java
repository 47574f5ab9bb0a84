package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.OptionalInt;

/** The replica computation {@code min(max(R, P), L)} of spec §2, with Headroom's overflow fixes. */
public final class ReplicaCalculator {

  /** The outcome of a replica computation. */
  public sealed interface Result {
    /** A chunk count. */
    record Count(int replicas) implements Result {}

    /** A §2 error: {@link BufferConditions#ERR_NOT_DEFINED} or {@link BufferConditions#ERR_LIMITS_NOT_FOUND}. */
    record Failure(String error) implements Result {}
  }

  private ReplicaCalculator() {}

  /**
   * Replicas of a buffer.
   *
   * @param spec the buffer spec
   * @param base the base replica count (§2.4), null when unknown (always for podTemplateRef buffers)
   * @param managedSpec the managed template's pod spec (limits only; may be null)
   */
  public static Result compute(CapacityBufferSpec spec, Integer base, PodSpec managedSpec) {
    int sentinel = -1;
    if (spec.getReplicas() != null) {
      sentinel = Math.max(sentinel, Math.max(0, spec.getReplicas()));
    }
    if (spec.getPercentage() != null && base != null) {
      sentinel = Math.max(sentinel, percentage(spec.getPercentage(), base));
    }
    if (spec.getLimits() != null) {
      OptionalInt l = limitChunks(EffectiveRequests.of(managedSpec), spec.getLimits());
      if (l.isEmpty()) {
        return new Result.Failure(BufferConditions.ERR_LIMITS_NOT_FOUND);
      }
      return new Result.Count(sentinel >= 0 ? Math.min(sentinel, l.getAsInt()) : l.getAsInt());
    }
    return sentinel >= 0 ? new Result.Count(sentinel) : new Result.Failure(BufferConditions.ERR_NOT_DEFINED);
  }

  /**
   * Percentage chunks (§2.3): {@code ceil(percentage × base / 100)}; 0 when either is ≤ 0. [H-FIX] computed in
   * 64 bits and saturated at 2147483647 instead of wrapping.
   */
  public static int percentage(int percentage, int base) {
    if (percentage <= 0 || base <= 0) {
      return 0;
    }
    long chunks = ((long) percentage * base + 99) / 100;
    return (int) Math.min(Integer.MAX_VALUE, chunks);
  }

  /**
   * Limits chunks (§2.6): the minimum over requested resources (request &gt; 0) that have a limit of
   * {@code limit / request} (truncated); negative quotients are skipped; [H-FIX] quotients above 2147483647
   * saturate. Empty when no resource was found.
   *
   * @param requests effective requests in milli-units
   */
  public static OptionalInt limitChunks(Map<String, Long> requests, Map<String, Quantity> limits) {
    long min = Long.MAX_VALUE;
    boolean found = false;
    for (Map.Entry<String, Quantity> e : limits.entrySet()) {
      Long request = requests.get(e.getKey());
      if (request == null || request <= 0 || e.getValue() == null || !Quantities.isValid(Quantities.text(e.getValue()))) {
        continue;
      }
      long n = Quantities.milli(e.getValue()) / request;
      if (n < 0) {
        continue;
      }
      found = true;
      min = Math.min(min, Math.min(n, Integer.MAX_VALUE));
    }
    return found ? OptionalInt.of((int) min) : OptionalInt.empty();
  }
}
