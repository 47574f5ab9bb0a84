package dev.headroom.core.scheduling;

import java.util.List;

/**
 * Result of the binpacking estimator: how many template nodes the placed pods need.
 *
 * @param nodeCount nodes that received at least one pod
 * @param scheduled pods that were placed, in placement order
 * @param nodesPerPodCount for each new node in opening order, the number of pods it received
 */
public record Estimate(int nodeCount, List<CompiledPod> scheduled, List<Integer> nodesPerPodCount) {

  public Estimate {
    scheduled = List.copyOf(scheduled);
    nodesPerPodCount = List.copyOf(nodesPerPodCount);
  }
}
