package dev.headroom.sim.run;

import java.util.List;
import java.util.Map;

/**
 * What one strategy's run measured.
 *
 * @param name strategy name
 * @param type strategy type ({@code none}, {@code balloon}, {@code buffer}, {@code warm-pool})
 * @param podWait wait percentiles and maximum, in seconds
 * @param pods real pods measured
 * @param podsOverSlo real pods that waited longer than the SLO
 * @param preemptedPods real pods that had to preempt a lower-priority pod
 * @param nodeHours node-hours of running (requested, not stopped) nodes
 * @param cost total cost (running nodes, plus stopped warm-pool instances at their fraction)
 * @param peakNodes largest number of nodes at once
 * @param meanUtilization mean requested utilisation of Ready nodes by real pods (0..1)
 * @param scaleUps autoscaler scale-up decisions (node groups grown)
 * @param nodesAdded nodes requested by the autoscaler
 * @param nodesRemoved nodes removed by the autoscaler
 * @param peakPerGroup largest node count of each group
 * @param ticks per-tick samples
 */
public record StrategyResult(
    String name,
    String type,
    PodWait podWait,
    int pods,
    int podsOverSlo,
    int preemptedPods,
    double nodeHours,
    double cost,
    int peakNodes,
    double meanUtilization,
    int scaleUps,
    int nodesAdded,
    int nodesRemoved,
    Map<String, Integer> peakPerGroup,
    List<TickSample> ticks) {

  /** Wait percentiles in seconds. */
  public record PodWait(double p50, double p95, double p99, double max) {}
}
