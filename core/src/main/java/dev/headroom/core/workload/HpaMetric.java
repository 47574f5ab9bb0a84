package dev.headroom.core.workload;

import java.util.Objects;

/**
 * One metric of an HPA-mode autoscaler.
 *
 * @param name unique within the config; readings are keyed by it
 * @param source where the metric comes from
 * @param kind the target type; {@link TargetKind#UTILIZATION} only for Resource and ContainerResource,
 *     {@link TargetKind#VALUE} only for Object and External, {@link TargetKind#AVERAGE_VALUE} for every source
 * @param resource the resource name for Resource and ContainerResource ({@code cpu}, {@code memory}); null otherwise
 * @param container the container for ContainerResource; null otherwise
 * @param target a percent for Utilization, milli-units otherwise; {@code > 0}
 */
public record HpaMetric(String name, MetricSource source, TargetKind kind, String resource, String container, long target) {

  public HpaMetric {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(kind, "kind");
    if (target <= 0) {
      throw new IllegalArgumentException("metric " + name + ": target must be > 0, got " + target);
    }
    boolean resourceSource = source == MetricSource.RESOURCE || source == MetricSource.CONTAINER_RESOURCE;
    if (resourceSource && resource == null) {
      throw new IllegalArgumentException("metric " + name + ": a " + source + " metric needs a resource name");
    }
    if (source == MetricSource.CONTAINER_RESOURCE && container == null) {
      throw new IllegalArgumentException("metric " + name + ": a ContainerResource metric needs a container name");
    }
    if (kind == TargetKind.UTILIZATION && !resourceSource) {
      throw new IllegalArgumentException("metric " + name + ": Utilization is only valid for Resource metrics");
    }
    if (kind == TargetKind.VALUE && !(source == MetricSource.OBJECT || source == MetricSource.EXTERNAL)) {
      throw new IllegalArgumentException("metric " + name + ": Value is only valid for Object and External metrics");
    }
  }

  /** Resource utilisation: {@code percent} of the summed requests. */
  public static HpaMetric resourceUtilization(String resource, int percent) {
    return new HpaMetric(resource, MetricSource.RESOURCE, TargetKind.UTILIZATION, resource, null, percent);
  }

  /** ContainerResource utilisation of one container. */
  public static HpaMetric containerUtilization(String resource, String container, int percent) {
    return new HpaMetric(
        resource + "/" + container, MetricSource.CONTAINER_RESOURCE, TargetKind.UTILIZATION, resource, container, percent);
  }

  /** A custom per-pod metric with an average target (milli-units). */
  public static HpaMetric pods(String name, long averageMilli) {
    return new HpaMetric(name, MetricSource.PODS, TargetKind.AVERAGE_VALUE, null, null, averageMilli);
  }

  /** An Object metric. */
  public static HpaMetric object(String name, TargetKind kind, long targetMilli) {
    return new HpaMetric(name, MetricSource.OBJECT, kind, null, null, targetMilli);
  }

  /** An External metric. */
  public static HpaMetric external(String name, TargetKind kind, long targetMilli) {
    return new HpaMetric(name, MetricSource.EXTERNAL, kind, null, null, targetMilli);
  }

  /** True for a cpu or memory Resource metric: such KEDA triggers never make an object inactive. */
  public boolean isCpuOrMemory() {
    return (source == MetricSource.RESOURCE || source == MetricSource.CONTAINER_RESOURCE)
        && ("cpu".equals(resource) || "memory".equals(resource));
  }
}
