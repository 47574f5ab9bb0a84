package dev.headroom.core.workload;

import java.util.Objects;

/**
 * The outcome of combining several metrics: the replica count and the metric that decided it.
 *
 * @param replicas the recommended count
 * @param by the name of the winning metric; empty when no configured metric had a reading
 */
public record Recommendation(int replicas, String by) {

  public Recommendation {
    Objects.requireNonNull(by, "by");
  }
}
