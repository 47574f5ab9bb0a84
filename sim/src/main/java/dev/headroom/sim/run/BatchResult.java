package dev.headroom.sim.run;

import java.util.List;

/**
 * What one strategy's run measured about batch capacity: the gang jobs ({@link GangJobs}, {@link GangJobs#NONE} when
 * the scenario has none) and, per buffer, the fragmentation of the free room for its chunk shape as the autoscaler
 * core computed it in each loop ({@code IterationResult.BufferOutcome.freeRoom}).
 */
public record BatchResult(GangJobs gangJobs, List<Fragmentation> fragmentation) {

  /** Nothing measured (no gang jobs, no buffers). */
  public static final BatchResult NONE = new BatchResult(GangJobs.NONE, List.of());

  public BatchResult {
    fragmentation = List.copyOf(fragmentation);
  }

  /**
   * The gang jobs of a run, over every gang job spec of the scenario.
   *
   * @param specs gang job specs in the scenario (0: the scenario has none, and the rest is 0)
   * @param jobs jobs that arrived
   * @param started jobs that started (all workers bound at once) at least once
   * @param completed jobs that ran to completion
   * @param timeouts attempts given up at the rendezvous timeout
   * @param restarts started attempts failed by a lost worker
   * @param startDelayP50 nearest-rank median of the start delay (arrival to start), seconds; a job that never started
   *     counts with the time it waited until the end
   * @param startDelayP95 95th percentile of the start delay, seconds
   * @param startDelayMax longest start delay, seconds
   * @param idleGpuHours GPU-hours held by bound workers while their job did not run (partial placements)
   * @param idleWorkerHours worker-hours (pod-hours) bound while their job did not run
   */
  public record GangJobs(int specs, int jobs, int started, int completed, int timeouts, int restarts,
      double startDelayP50, double startDelayP95, double startDelayMax, double idleGpuHours, double idleWorkerHours) {
    public static final GangJobs NONE = new GangJobs(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /**
   * Free room of the existing Ready nodes for one buffer's chunk shape, over the autoscaler loops in which the buffer
   * was injected (one sample per scan interval, so means are over time).
   *
   * @param buffer {@code namespace/name}
   * @param shape the chunk's requests, e.g. {@code cpu 8, memory 64Gi, nvidia.com/gpu 8}
   * @param loops loops sampled
   * @param meanPooled mean chunks the free room holds if it were one node
   * @param meanOnNodes mean chunks it holds with each chunk on one node
   * @param meanFragmented mean of {@code pooled - onNodes}: chunks free in total but on no single node
   * @param maxFragmented largest {@code pooled - onNodes} of a loop
   * @param fragmentedShare share of the loops with at least one fragmented chunk (0..1)
   */
  public record Fragmentation(String buffer, String shape, long loops, double meanPooled, double meanOnNodes,
      double meanFragmented, long maxFragmented, double fragmentedShare) {}
}
