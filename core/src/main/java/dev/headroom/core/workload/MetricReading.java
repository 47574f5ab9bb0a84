package dev.headroom.core.workload;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one metric read returned in HPA mode. Values are milli-units.
 *
 * <ul>
 *   <li>{@link PodSamples} for Resource, ContainerResource and Pods metrics (keyed by pod name; samples for
 *       pods the workload does not know are allowed).
 *   <li>{@link ObjectValue} for an Object metric.
 *   <li>{@link ExternalValues} for an External metric (every matching series; they are summed).
 *   <li>{@link Failed} when the read failed.
 * </ul>
 */
public sealed interface MetricReading {

  /** Per-pod samples. */
  record PodSamples(Map<String, PodSample> samples) implements MetricReading {
    public PodSamples {
      samples = samples instanceof PositionalSamples ? samples : Map.copyOf(samples);
    }

    /**
     * Every pod at a set bit of {@code covered} (a position in {@code listed}) reports {@code sample}; the map is
     * keyed by those pods' names. Given the same immutable {@code listed} as the target's pods, the calculator
     * reads coverage by position instead of by name. {@code listed} is kept when immutable, else copied;
     * {@code covered} is copied.
     *
     * @throws IllegalArgumentException when a covered position is outside the list
     */
    public static PodSamples uniform(List<PodInfo> listed, java.util.BitSet covered, PodSample sample) {
      return new PodSamples(new PositionalSamples(listed, covered, sample));
    }
  }

  /** An Object metric's single value. */
  record ObjectValue(long value) implements MetricReading {}

  /** An External metric's series values. */
  record ExternalValues(List<Long> values) implements MetricReading {
    public ExternalValues {
      values = List.copyOf(values);
    }

    /** The sum of every series, saturating at the long range. */
    public long total() {
      long sum = 0;
      for (long v : values) {
        long r = sum + v;
        sum = ((sum ^ r) & (v ^ r)) < 0 ? (v > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : r;
      }
      return sum;
    }
  }

  /** The read failed. */
  record Failed(String error) implements MetricReading {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }

  /** An External metric with one series. */
  static ExternalValues external(long value) {
    return new ExternalValues(List.of(value));
  }
}
