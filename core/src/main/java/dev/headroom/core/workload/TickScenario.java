package dev.headroom.core.workload;

import java.util.Objects;

/**
 * One workload in the tick model: the single metric it is scaled by, its scaler, and its starting state.
 *
 * <p>A {@link TargetKind#UTILIZATION} metric reads the tick's utilisation (percent); any other kind reads
 * the end-of-tick backlog.
 *
 * @param name a label for output
 * @param config the scaler configuration; its metrics must contain {@code metric}
 * @param metric the metric the model feeds
 * @param initialReplicas replicas at tick 0 (no decision is made at tick 0)
 * @param initialBacklog items already waiting before tick 0
 */
public record TickScenario(String name, ScalerConfig config, MetricSpec metric, int initialReplicas, long initialBacklog) {

  public TickScenario {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(metric, "metric");
    if (!config.metrics().contains(metric)) {
      throw new IllegalArgumentException("scenario " + name + ": metric " + metric.name() + " is not in the scaler config");
    }
    if (initialReplicas < 0 || initialBacklog < 0) {
      throw new IllegalArgumentException("scenario " + name + ": initial replicas and backlog must be >= 0");
    }
  }
}
