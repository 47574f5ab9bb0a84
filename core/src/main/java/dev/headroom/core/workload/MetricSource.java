package dev.headroom.core.workload;

/** Where an HPA metric comes from (the {@code autoscaling/v2} metric source types). */
public enum MetricSource {
  /** A resource of every pod (cpu, memory) from the resource metrics API. */
  RESOURCE,
  /** A resource of one named container of every pod. */
  CONTAINER_RESOURCE,
  /** A custom per-pod metric. */
  PODS,
  /** A custom metric describing one Kubernetes object. */
  OBJECT,
  /** A metric from outside the cluster (KEDA's triggers). */
  EXTERNAL
}
