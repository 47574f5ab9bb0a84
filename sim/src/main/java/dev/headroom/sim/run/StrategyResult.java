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
 * @param nodeHours node-hours of running (requested, not standby) nodes
 * @param cost total cost (running nodes, plus standby instances at their group's standby price)
 * @param peakNodes largest number of nodes at once
 * @param meanUtilization mean requested utilisation of Ready nodes by real pods (0..1)
 * @param scaleUps autoscaler scale-up decisions (node groups grown)
 * @param nodesAdded nodes requested by the autoscaler
 * @param nodesRemoved nodes removed by the autoscaler
 * @param peakPerGroup largest node count of each group
 * @param ticks per-tick samples
 * @param waits every real pod's creation time and wait, for pooling across seeds and attribution by episode
 * @param scaleUpEvents the autoscaler's scale-up decisions in time order
 * @param episodes the waits grouped by the episode that caused them ({@link Episodes}), earliest first
 * @param peakBufferReplicas largest total {@code status.replicas} of the strategy's buffers (0: never took effect)
 * @param batch gang jobs and per-buffer fragmentation ({@link BatchResult})
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
    List<TickSample> ticks,
    PodWaits waits,
    List<ScaleUpEvent> scaleUpEvents,
    List<Episodes.Episode> episodes,
    int peakBufferReplicas,
    BatchResult batch) {

  public StrategyResult {
    scaleUpEvents = List.copyOf(scaleUpEvents);
    episodes = List.copyOf(episodes);
  }

  /** A result without batch measurements (no gang jobs, no fragmentation figures). */
  public StrategyResult(String name, String type, PodWait podWait, int pods, int podsOverSlo, int preemptedPods,
      double nodeHours, double cost, int peakNodes, double meanUtilization, int scaleUps, int nodesAdded,
      int nodesRemoved, Map<String, Integer> peakPerGroup, List<TickSample> ticks, PodWaits waits,
      List<ScaleUpEvent> scaleUpEvents, List<Episodes.Episode> episodes, int peakBufferReplicas) {
    this(name, type, podWait, pods, podsOverSlo, preemptedPods, nodeHours, cost, peakNodes, meanUtilization, scaleUps,
        nodesAdded, nodesRemoved, peakPerGroup, ticks, waits, scaleUpEvents, episodes, peakBufferReplicas,
        BatchResult.NONE);
  }

  /** A result without the individual waits and scale-up events (hand-built reports in tests). */
  public StrategyResult(String name, String type, PodWait podWait, int pods, int podsOverSlo, int preemptedPods,
      double nodeHours, double cost, int peakNodes, double meanUtilization, int scaleUps, int nodesAdded,
      int nodesRemoved, Map<String, Integer> peakPerGroup, List<TickSample> ticks) {
    this(name, type, podWait, pods, podsOverSlo, preemptedPods, nodeHours, cost, peakNodes, meanUtilization, scaleUps,
        nodesAdded, nodesRemoved, peakPerGroup, ticks, PodWaits.empty(), List.of(), List.of(), 0);
  }

  /** Wait percentiles in seconds. */
  public record PodWait(double p50, double p95, double p99, double max) {}

  /**
   * One scale-up decision of the autoscaler.
   *
   * @param millis scenario time of the loop
   * @param nodeGroup group grown
   * @param delta nodes requested
   * @param realPods real pending pods the new nodes are for
   * @param virtualPods buffer (virtual) pods the new nodes are for
   */
  public record ScaleUpEvent(long millis, String nodeGroup, int delta, int realPods, int virtualPods) {}
}
