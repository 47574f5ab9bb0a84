package dev.headroom.core.autoscaler.scaledown;

import dev.headroom.core.autoscaler.VirtualPods;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * Disruption cost (capacitybuffer spec §8.3, autoscaler spec §4.6): Karpenter's eviction cost for real pods,
 * {@code clamp(1 + podDeletionCost/2^27 + priority/2^25, −10, 10)}, and 0 for virtual pods.
 */
public final class EvictionCost {

  public static final String POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

  private EvictionCost() {}

  public static double of(Pod pod) {
    if (VirtualPods.isVirtual(pod)) {
      return 0;
    }
    double cost = 1;
    var ann = pod.getMetadata().getAnnotations();
    if (ann != null && ann.get(POD_DELETION_COST) != null) {
      try {
        cost += Integer.parseInt(ann.get(POD_DELETION_COST).trim()) / Math.pow(2, 27);
      } catch (NumberFormatException ignored) {
        // an unparsable cost counts as 0, like Karpenter
      }
    }
    if (pod.getSpec() != null && pod.getSpec().getPriority() != null) {
      cost += pod.getSpec().getPriority() / Math.pow(2, 25);
    }
    return Math.max(-10, Math.min(10, cost));
  }

  /** Sum over the pods that would have to move. */
  public static double ofNode(List<Pod> podsToMove) {
    double sum = 0;
    for (Pod p : podsToMove) {
      sum += of(p);
    }
    return sum;
  }
}
