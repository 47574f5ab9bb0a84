package dev.headroom.core.workload;

import java.util.Objects;

/** What one HPA metric proposes: a replica count, or why the metric is invalid this round. */
public sealed interface MetricProposal {

  /** The metric's name. */
  String metric();

  /**
   * A usable proposal.
   *
   * @param metric the metric's name
   * @param replicas the proposed count
   * @param usage the reported usage: the utilisation percent (before any filling) for Utilization targets,
   *     otherwise the average or total in milli-units
   */
  record Valid(String metric, int replicas, long usage) implements MetricProposal {
    public Valid {
      Objects.requireNonNull(metric, "metric");
    }
  }

  /**
   * An invalid metric (fetch error, missing request, no matching samples).
   *
   * @param metric the metric's name
   * @param reason the ScalingActive condition reason, for example {@code FailedGetResourceMetric}
   * @param message what went wrong
   */
  record Invalid(String metric, String reason, String message) implements MetricProposal {
    public Invalid {
      Objects.requireNonNull(metric, "metric");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }
}
