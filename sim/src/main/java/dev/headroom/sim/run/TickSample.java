package dev.headroom.sim.run;

import java.util.List;

/**
 * The state of one strategy's cluster at the end of a tick.
 *
 * @param seconds scenario time
 * @param nodes live nodes (provisioning included)
 * @param readyNodes Ready nodes
 * @param pendingPods pending real pods
 * @param pendingBalloons pending balloon pods
 * @param oldestPendingSeconds age of the oldest pending real pod (0 when none)
 * @param maxWaitSeconds longest wait among the real pods bound during the tick (0 when none)
 * @param utilization mean requested utilisation of Ready nodes by real pods (0..1)
 * @param bufferReplicas total {@code status.replicas} of the strategy's buffers
 * @param stoppedInstances standby instances of every group (initialising and suspended; a warm pool's stopped instances)
 * @param workloads per-workload values, in scenario order
 */
public record TickSample(
    long seconds,
    int nodes,
    int readyNodes,
    int pendingPods,
    int pendingBalloons,
    double oldestPendingSeconds,
    double maxWaitSeconds,
    double utilization,
    int bufferReplicas,
    int stoppedInstances,
    List<WorkloadSample> workloads) {

  /** One workload at the end of a tick: desired and Ready replicas, arrival rate, queue and CPU %. */
  public record WorkloadSample(int replicas, int ready, double rate, double queue, double cpu) {}
}
