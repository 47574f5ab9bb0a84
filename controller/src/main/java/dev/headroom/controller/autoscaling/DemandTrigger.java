package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.LoopTrigger;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Wakes the autoscaler loop when the pod informer sees new demand: a pod added as demand, or updated from not demand
 * to demand, at the instant core's {@link LoopTrigger} names for it. The Cluster Autoscaler's
 * {@code loop.StartPodObserver} does the same for pods marked Unschedulable. A steady state and status updates of pods
 * that stay pending wake nothing.
 */
final class DemandTrigger implements ResourceEventHandler<Pod> {
  private final AutoscalerOptions options;
  private final Clock clock;
  private final Consumer<Instant> wake;

  DemandTrigger(AutoscalerOptions options, Clock clock, Consumer<Instant> wake) {
    this.options = options;
    this.clock = clock;
    this.wake = wake;
  }

  @Override
  public void onAdd(Pod pod) {
    onUpdate(null, pod);
  }

  @Override
  public void onUpdate(Pod oldPod, Pod newPod) {
    if (LoopTrigger.becameDemand(oldPod, newPod, options.bypassedSchedulers())) {
      wake.accept(LoopTrigger.wakeAt(newPod, options, clock.instant()));
    }
  }

  @Override
  public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {}
}
