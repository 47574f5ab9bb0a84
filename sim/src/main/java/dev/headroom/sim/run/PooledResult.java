package dev.headroom.sim.run;

import dev.headroom.sim.stats.Bootstrap;
import java.util.ArrayList;
import java.util.List;

/**
 * One strategy over every seed of a run: the pod waits of all seeds pooled, their p50/p95/p99 with bootstrap
 * intervals ({@link Bootstrap}), and the means of the per-seed measurements.
 *
 * @param name strategy name
 * @param type strategy type
 * @param seeds number of seeds pooled
 * @param pods pod starts behind the wait figures (real pods of every seed)
 * @param p50 median wait with its interval (ms)
 * @param p95 95th percentile wait with its interval (ms)
 * @param p99 99th percentile wait with its interval (ms)
 * @param maxMillis longest wait of any seed (ms)
 * @param podsOverSlo pods of every seed that waited longer than the SLO
 * @param preemptedPods pods of every seed that preempted a lower-priority pod
 * @param nodeHours mean node-hours per seed
 * @param cost mean cost per seed
 * @param costMin lowest cost of a seed
 * @param costMax highest cost of a seed
 * @param peakNodes largest node count of any seed
 * @param meanUtilization mean of the seeds' mean utilisation
 * @param peakBufferReplicas largest buffer size of any seed (0: the buffer never took effect)
 * @param sortedWaits every seed's waits pooled, ascending (ms; the pod-wait CDF); compared by content
 */
public record PooledResult(
    String name,
    String type,
    int seeds,
    int pods,
    Bootstrap.Estimate p50,
    Bootstrap.Estimate p95,
    Bootstrap.Estimate p99,
    long maxMillis,
    int podsOverSlo,
    int preemptedPods,
    double nodeHours,
    double cost,
    double costMin,
    double costMax,
    int peakNodes,
    double meanUtilization,
    int peakBufferReplicas,
    long[] sortedWaits) {

  @Override
  public boolean equals(Object o) {
    return o instanceof PooledResult p && name.equals(p.name) && type.equals(p.type) && seeds == p.seeds
        && pods == p.pods && p50.equals(p.p50) && p95.equals(p.p95) && p99.equals(p.p99) && maxMillis == p.maxMillis
        && podsOverSlo == p.podsOverSlo && preemptedPods == p.preemptedPods && nodeHours == p.nodeHours
        && cost == p.cost && costMin == p.costMin && costMax == p.costMax && peakNodes == p.peakNodes
        && meanUtilization == p.meanUtilization && peakBufferReplicas == p.peakBufferReplicas
        && java.util.Arrays.equals(sortedWaits, p.sortedWaits);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(name, type, pods, p99, cost) * 31 + java.util.Arrays.hashCode(sortedWaits);
  }

  private static final double[] PERCENTILES = {50, 95, 99};

  /** Pools one strategy's runs, one per seed in {@code seeds} order. */
  public static PooledResult of(List<StrategyResult> runs, List<Long> seeds) {
    StrategyResult first = runs.get(0);
    List<long[]> waits = new ArrayList<>();
    int pods = 0;
    int over = 0;
    int preempted = 0;
    long max = 0;
    double nodeHours = 0;
    double cost = 0;
    double costMin = Double.POSITIVE_INFINITY;
    double costMax = Double.NEGATIVE_INFINITY;
    int peak = 0;
    double util = 0;
    int buffer = 0;
    for (StrategyResult r : runs) {
      waits.add(r.waits().sorted());
      pods += r.pods();
      over += r.podsOverSlo();
      preempted += r.preemptedPods();
      max = Math.max(max, Math.round(r.podWait().max() * 1000));
      nodeHours += r.nodeHours();
      cost += r.cost();
      costMin = Math.min(costMin, r.cost());
      costMax = Math.max(costMax, r.cost());
      peak = Math.max(peak, r.peakNodes());
      util += r.meanUtilization();
      buffer = Math.max(buffer, r.peakBufferReplicas());
    }
    Bootstrap.Estimate[] e = Bootstrap.percentiles(waits, PERCENTILES, Bootstrap.seedOf(seeds, first.name()));
    int n = runs.size();
    long[] all = new long[waits.stream().mapToInt(w -> w.length).sum()];
    int k = 0;
    for (long[] w : waits) {
      System.arraycopy(w, 0, all, k, w.length);
      k += w.length;
    }
    java.util.Arrays.sort(all);
    return new PooledResult(first.name(), first.type(), n, pods, e[0], e[1], e[2], max, over, preempted,
        nodeHours / n, cost / n, costMin, costMax, peak, util / n, buffer, all);
  }
}
