package dev.headroom.sim.run;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Wait attribution: the waits of one run grouped by the episode that caused them. An episode is a maximal
 * stretch of time during which at least one real pod was waiting (the union of overlapping waits); the pods
 * that waited in it waited for the same missing capacity, and the scale-ups the autoscaler requested inside
 * it are the ones that ended it. Per episode: the pods, how many waited longer than the SLO, the longest wait,
 * the most pods waiting at once (the pods the reserve lacked at the worst moment) and the buffer's size
 * ({@code status.replicas} summed) when the episode began.
 */
public final class Episodes {

  private Episodes() {}

  /**
   * One episode.
   *
   * @param startMillis creation of its first waiting pod (scenario time)
   * @param endMillis end of its last wait
   * @param pods pods that waited in it
   * @param podsOverSlo pods that waited longer than the SLO
   * @param maxWaitMillis longest wait
   * @param peakPending most pods waiting at the same time: the extra pods the episode needed beyond the
   *     capacity held free for it
   * @param bufferReplicas the buffer's replicas when the episode began (0 without a buffer)
   * @param nodesAdded nodes the autoscaler requested during the episode
   */
  public record Episode(long startMillis, long endMillis, int pods, int podsOverSlo, long maxWaitMillis,
      int peakPending, int bufferReplicas, int nodesAdded) {}

  /** A change of the buffer's replicas at a time (a step function, earliest first). */
  public record BufferStep(long millis, int replicas) {}

  /**
   * The episodes of a run, earliest first. Waits of 0 (a pod bound in the pass that created it) belong to no
   * episode.
   */
  public static List<Episode> of(PodWaits waits, List<BufferStep> buffer, List<StrategyResult.ScaleUpEvent> scaleUps,
      long sloMillis) {
    int n = 0;
    for (int i = 0; i < waits.count(); i++) {
      if (waits.wait(i) > 0) {
        n++;
      }
    }
    long[] start = new long[n];
    long[] end = new long[n];
    Integer[] order = new Integer[n];
    int k = 0;
    for (int i = 0; i < waits.count(); i++) {
      if (waits.wait(i) > 0) {
        start[k] = waits.createdAt(i);
        end[k] = waits.createdAt(i) + waits.wait(i);
        order[k] = k;
        k++;
      }
    }
    Arrays.sort(order, (a, b) -> start[a] != start[b] ? Long.compare(start[a], start[b]) : Long.compare(end[a], end[b]));
    List<Episode> out = new ArrayList<>();
    int i = 0;
    while (i < n) {
      int first = i;
      long epEnd = end[order[i]];
      i++;
      while (i < n && start[order[i]] <= epEnd) {
        epEnd = Math.max(epEnd, end[order[i]]);
        i++;
      }
      out.add(episode(order, first, i, start, end, epEnd, buffer, scaleUps, sloMillis));
    }
    return out;
  }

  private static Episode episode(Integer[] order, int from, int to, long[] start, long[] end, long epEnd,
      List<BufferStep> buffer, List<StrategyResult.ScaleUpEvent> scaleUps, long sloMillis) {
    long epStart = start[order[from]];
    int count = to - from;
    int over = 0;
    long max = 0;
    // sweep: +1 at each creation, -1 at each end; at equal times ends go first (a pod bound as another arrives)
    long[] events = new long[2 * count];
    for (int j = from; j < to; j++) {
      int x = order[j];
      long w = end[x] - start[x];
      if (w > sloMillis) {
        over++;
      }
      max = Math.max(max, w);
      events[2 * (j - from)] = start[x] * 2 + 1;
      events[2 * (j - from) + 1] = end[x] * 2;
    }
    Arrays.sort(events);
    int pending = 0;
    int peak = 0;
    for (long e : events) {
      pending += (e & 1) == 1 ? 1 : -1;
      peak = Math.max(peak, pending);
    }
    int replicas = 0;
    for (BufferStep s : buffer) {
      if (s.millis() > epStart) {
        break;
      }
      replicas = s.replicas();
    }
    int nodes = 0;
    for (StrategyResult.ScaleUpEvent e : scaleUps) {
      if (e.millis() >= epStart && e.millis() <= epEnd) {
        nodes += e.delta();
      }
    }
    return new Episode(epStart, epEnd, count, over, max, peak, replicas, nodes);
  }
}
