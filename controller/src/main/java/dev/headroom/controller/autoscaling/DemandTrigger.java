package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.PendingDemand;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Set;

/**
 * Wakes the autoscaler loop when the pod informer sees new demand: a pod added as demand, or updated from not demand
 * to demand (core's {@link PendingDemand} rule: marked Unschedulable, or unprocessed and of a bypassed scheduler),
 * unbound, not finished and not being deleted. The Cluster Autoscaler's {@code loop.StartPodObserver} does the same for
 * pods marked Unschedulable. A steady state and status updates of pods that stay pending wake nothing.
 */
final class DemandTrigger implements ResourceEventHandler<Pod> {
  private final Set<String> bypassed;
  private final Runnable wake;

  DemandTrigger(Set<String> bypassed, Runnable wake) {
    this.bypassed = bypassed;
    this.wake = wake;
  }

  @Override
  public void onAdd(Pod pod) {
    if (demand(pod)) {
      wake.run();
    }
  }

  @Override
  public void onUpdate(Pod oldPod, Pod newPod) {
    if (demand(newPod) && !demand(oldPod)) {
      wake.run();
    }
  }

  @Override
  public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {}

  /** Whether {@code p} is pending demand the loop would scale for. */
  boolean demand(Pod p) {
    if (p == null || p.getSpec() == null || p.getMetadata() == null) {
      return false;
    }
    String node = p.getSpec().getNodeName();
    if (node != null && !node.isEmpty() || p.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return false;
    }
    return PendingDemand.of(p, bypassed) == PendingDemand.Kind.DEMAND;
  }
}
