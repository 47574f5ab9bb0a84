package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * One step between filter-out-schedulable and scale-up that changes which pods the loop scales up for, as the
 * Cluster Autoscaler's pod-list processors do: it may add pods (the buffers' virtual pods, {@link BufferPodInjection})
 * and place them on existing or upcoming capacity, or take pods out. Processors run in the order
 * {@code Autoscaler} lists them, each on what the one before it returned.
 */
interface PodListProcessor {

  /**
   * The pods a loop scales up for.
   *
   * @param pending the real pending demand (not expendable, priority descending), placed or not
   * @param unschedulable the real pods no existing or upcoming node takes, in {@code pending}'s order
   * @param injection the buffers selected in this loop and their virtual pods
   * @param unschedulableVirtual the virtual pods no existing or upcoming node takes, in injection order
   */
  record PodList(List<Pod> pending, List<Pod> unschedulable, BufferInjector.Injection injection, List<Pod> unschedulableVirtual) {

    /** The real pods after filter-out-schedulable, nothing injected yet. */
    static PodList real(List<Pod> pending, List<Pod> unschedulable) {
      return new PodList(pending, unschedulable, BufferInjector.Injection.EMPTY, List.of());
    }
  }

  /**
   * The pod list after this step. Placements go to {@code result}; the observation is read only (its simulation
   * takes the pods the step places).
   */
  PodList process(Observation world, PodList pods, IterationBuilder result);
}
