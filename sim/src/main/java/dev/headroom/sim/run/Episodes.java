package dev.headroom.sim.run;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Wait attribution: the waits of one run grouped by the episode that caused them, and within each episode by
 * workload. An episode is a maximal stretch of time during which at least one real pod was waiting (the union of
 * overlapping waits); the pods that waited in it waited for the same missing capacity, and the scale-ups the
 * autoscaler requested inside it are the ones that ended it. Per episode: the pods, how many waited longer than
 * the SLO, the longest wait, the most pods waiting at once (the pods the reserve lacked at the worst moment), the
 * buffers' size ({@code status.replicas} summed) when the episode began and, per workload (or job) whose pods
 * waited in it, the same figures for that workload's pods against the buffers that target it ({@link Coverage}).
 */
public final class Episodes {

  /** What attribution says of a workload that no buffer of a buffer strategy targets. */
  public static final String NOT_COVERED = "not covered by any buffer";

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
   * @param bufferReplicas the strategy's buffers' replicas when the episode began (0 without a buffer)
   * @param nodesAdded nodes the autoscaler requested during the episode
   * @param workloads the episode's waits per workload, most pods over the SLO first (then by name)
   */
  public record Episode(long startMillis, long endMillis, int pods, int podsOverSlo, long maxWaitMillis,
      int peakPending, int bufferReplicas, int nodesAdded, List<Share> workloads) {

    public Episode {
      workloads = List.copyOf(workloads);
    }
  }

  /**
   * One workload's waits in an episode.
   *
   * @param workload workload or job name
   * @param pods its pods that waited in the episode
   * @param podsOverSlo of those, the pods that waited longer than the SLO
   * @param maxWaitMillis its longest wait
   * @param peakPending most of its pods waiting at the same time: the extra pods it needed beyond the capacity
   *     held free for it
   * @param buffers the buffers that target the workload (empty: not covered by any buffer)
   * @param bufferReplicas their {@code status.replicas} summed when the episode began
   */
  public record Share(String workload, int pods, int podsOverSlo, long maxWaitMillis, int peakPending,
      List<String> buffers, int bufferReplicas) {

    public Share {
      buffers = List.copyOf(buffers);
    }

    /** True when at least one buffer targets the workload. */
    public boolean covered() {
      return !buffers.isEmpty();
    }
  }

  /** A change of a size at a time (a step function, earliest first). */
  public record BufferStep(long millis, int replicas) {}

  /**
   * A strategy's buffers as attribution sees them: the buffers that target each workload (by name, in buffer
   * order) and the size of each workload's buffers ({@code status.replicas} summed) over time.
   *
   * @param buffers buffer names per targeted workload
   * @param steps size steps per targeted workload
   */
  public record Coverage(Map<String, List<String>> buffers, Map<String, List<BufferStep>> steps) {

    public Coverage {
      Map<String, List<String>> b = new TreeMap<>();
      buffers.forEach((k, v) -> b.put(k, List.copyOf(v)));
      buffers = java.util.Collections.unmodifiableMap(b);
      Map<String, List<BufferStep>> s = new TreeMap<>();
      steps.forEach((k, v) -> s.put(k, List.copyOf(v)));
      steps = java.util.Collections.unmodifiableMap(s);
    }

    /** No buffers (strategies of another type). */
    public static Coverage none() {
      return new Coverage(Map.of(), Map.of());
    }

    /** The buffers that target a workload (empty: none). */
    public List<String> buffersOf(String workload) {
      return buffers.getOrDefault(workload, List.of());
    }

    /** The size of a workload's buffers at a time (0 before their first step or when none targets it). */
    public int replicasAt(String workload, long millis) {
      return at(steps.getOrDefault(workload, List.of()), millis);
    }

    /** The size of every buffer at a time. */
    public int totalAt(long millis) {
      int n = 0;
      for (List<BufferStep> s : steps.values()) {
        n += at(s, millis);
      }
      return n;
    }

    private static int at(List<BufferStep> steps, long millis) {
      int replicas = 0;
      for (BufferStep s : steps) {
        if (s.millis() > millis) {
          break;
        }
        replicas = s.replicas();
      }
      return replicas;
    }
  }

  /** Records a {@link Coverage} while a run goes on: a step only when a workload's size changed. */
  public static final class CoverageRecorder {
    private final Map<String, List<String>> buffers;
    private final Map<String, List<BufferStep>> steps = new LinkedHashMap<>();

    /** A recorder for buffers that target workloads ({@code workload -> buffer names}). */
    public CoverageRecorder(Map<String, List<String>> buffers) {
      this.buffers = buffers;
    }

    /** Records the size of each targeted workload's buffers at a time. */
    public void record(long millis, Map<String, Integer> replicasByWorkload) {
      for (Map.Entry<String, Integer> e : replicasByWorkload.entrySet()) {
        List<BufferStep> s = steps.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
        int last = s.isEmpty() ? 0 : s.get(s.size() - 1).replicas();
        if (last != e.getValue()) {
          s.add(new BufferStep(millis, e.getValue()));
        }
      }
    }

    /** What was recorded. */
    public Coverage coverage() {
      return new Coverage(buffers, steps);
    }
  }

  /**
   * The episodes of a run, earliest first. Waits of 0 (a pod bound in the pass that created it) belong to no
   * episode.
   */
  public static List<Episode> of(PodWaits waits, Coverage coverage, List<StrategyResult.ScaleUpEvent> scaleUps,
      long sloMillis) {
    int n = 0;
    for (int i = 0; i < waits.count(); i++) {
      if (waits.wait(i) > 0) {
        n++;
      }
    }
    long[] start = new long[n];
    long[] end = new long[n];
    String[] workload = new String[n];
    Integer[] order = new Integer[n];
    int k = 0;
    for (int i = 0; i < waits.count(); i++) {
      if (waits.wait(i) > 0) {
        start[k] = waits.createdAt(i);
        end[k] = waits.createdAt(i) + waits.wait(i);
        workload[k] = waits.workload(i);
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
      long epStart = start[order[first]];
      Integer[] members = Arrays.copyOfRange(order, first, i);
      Figures all = figures(members, start, end, sloMillis);
      Map<String, List<Integer>> byWorkload = new TreeMap<>();
      for (Integer x : members) {
        byWorkload.computeIfAbsent(workload[x], w -> new ArrayList<>()).add(x);
      }
      List<Share> shares = new ArrayList<>();
      for (Map.Entry<String, List<Integer>> e : byWorkload.entrySet()) {
        Figures f = figures(e.getValue().toArray(new Integer[0]), start, end, sloMillis);
        shares.add(new Share(e.getKey(), f.pods, f.over, f.max, f.peak, coverage.buffersOf(e.getKey()),
            coverage.replicasAt(e.getKey(), epStart)));
      }
      shares.sort(Comparator.comparingInt(Share::podsOverSlo).reversed().thenComparing(Share::workload));
      int nodes = 0;
      for (StrategyResult.ScaleUpEvent ev : scaleUps) {
        if (ev.millis() >= epStart && ev.millis() <= epEnd) {
          nodes += ev.delta();
        }
      }
      out.add(new Episode(epStart, epEnd, all.pods, all.over, all.max, all.peak, coverage.totalAt(epStart), nodes, shares));
    }
    return out;
  }

  private record Figures(int pods, int over, long max, int peak) {}

  /** Pods, pods over the SLO, longest wait and most waiting at once of some waits. */
  private static Figures figures(Integer[] members, long[] start, long[] end, long sloMillis) {
    int over = 0;
    long max = 0;
    // sweep: +1 at each creation, -1 at each end; at equal times ends go first (a pod bound as another arrives)
    long[] events = new long[2 * members.length];
    for (int j = 0; j < members.length; j++) {
      int x = members[j];
      long w = end[x] - start[x];
      if (w > sloMillis) {
        over++;
      }
      max = Math.max(max, w);
      events[2 * j] = start[x] * 2 + 1;
      events[2 * j + 1] = end[x] * 2;
    }
    Arrays.sort(events);
    int pending = 0;
    int peak = 0;
    for (long e : events) {
      pending += (e & 1) == 1 ? 1 : -1;
      peak = Math.max(peak, pending);
    }
    return new Figures(members.length, over, max, peak);
  }
}
