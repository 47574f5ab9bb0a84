package dev.headroom.core.workload;

import java.util.List;

/**
 * What an HPA-mode decision sees of the scaled workload.
 *
 * @param specReplicas {@code spec.replicas} (the current count)
 * @param statusReplicas {@code status.replicas} (pods that exist, used by Object/External AverageValue targets)
 * @param pods the pods the workload's selector matches
 */
public record ScaleTarget(int specReplicas, int statusReplicas, List<PodInfo> pods) {

  public ScaleTarget {
    if (specReplicas < 0 || statusReplicas < 0) {
      throw new IllegalArgumentException("replica counts must be >= 0");
    }
    pods = List.copyOf(pods);
  }

  /** A target whose status count equals its spec count. */
  public static ScaleTarget of(int replicas, List<PodInfo> pods) {
    return new ScaleTarget(replicas, replicas, pods);
  }
}
