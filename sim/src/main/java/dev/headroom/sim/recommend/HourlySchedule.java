package dev.headroom.sim.recommend;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.sim.run.PodWaits;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.stats.Bootstrap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.DoubleConsumer;

/**
 * {@code recommend --by-hour}: a buffer size per hour of day (UTC, the simulated clock's zone), expressed as
 * CapacityBuffers with the {@code headroom.dev/active-schedule} annotation that core's {@code ActiveSchedule}
 * parses — one buffer per size and workload, active in the hours that need that size, so exactly one is active at
 * any time. Each hour first gets the smallest grid percentage whose pods created in that hour (pooled over the
 * seeds) meet the SLO with the upper end of their p99 interval, and holds at least the next hour's size (a buffer
 * must be up before the demand it is for); the schedule is then simulated as a whole, since a buffer switched off
 * in one hour leaves the next hour without the nodes it brought, and every hour over the SLO,
 * with the hour before it, is raised to the next grid size until the whole run meets the SLO (at most
 * {@link #ROUNDS} rounds).
 */
public final class HourlySchedule {

  /** Simulation rounds of the whole schedule. */
  public static final int ROUNDS = 6;
  private static final long HOUR = 3_600_000L;

  /**
   * The schedule found.
   *
   * @param sizes percentage per hour of day (index 0 = 00:00-01:00 UTC)
   * @param schedule the schedule simulated as a whole (its last round)
   * @param meetsSlo the whole run meets the SLO with the upper end of its p99 interval
   * @param rounds rounds simulated
   */
  public record Result(int[] sizes, BufferSizeSearch.Point schedule, boolean meetsSlo, int rounds) {}

  private HourlySchedule() {}

  /** Searches a schedule over the grid points of a constant-size search. */
  public static Result search(Scenario scenario, BufferSizeSearch.Result constant, int threads, DoubleConsumer progress) {
    List<BufferSizeSearch.Point> grid = constant.curve().stream().filter(p -> p.percentage() != null && p.replicas() == null)
        .sorted(Comparator.comparingInt(BufferSizeSearch.Point::percentage)).toList();
    if (grid.isEmpty()) {
      throw new IllegalArgumentException("--by-hour needs percentage sizes (--percentages)");
    }
    long slo = Math.round(constant.sloP99Seconds() * 1000);
    int[] sizes = new int[24];
    for (int h = 0; h < 24; h++) {
      sizes[h] = grid.get(grid.size() - 1).percentage();
      for (BufferSizeSearch.Point p : grid) {
        if (hourP99High(p.runs(), h, constant.seeds(), p.name()) <= slo) {
          sizes[h] = p.percentage();
          break;
        }
      }
    }
    // a buffer must be up before its hour: nodes take minutes to join, so each hour also holds the next one's size
    sizes = aheadOfDemand(sizes);
    BufferSizeSearch.Point last = null;
    int round = 0;
    while (round < ROUNDS) {
      round++;
      Scenario.Strategy s = strategy(constant.targets(), sizes);
      last = BufferSizeSearch.evaluate(scenario, constant.seeds(), List.of(s), constant.sloP99Seconds(), threads, progress)
          .get(0);
      if (last.meetsSlo()) {
        break;
      }
      boolean raised = false;
      int[] next = sizes.clone();
      for (int h = 0; h < 24; h++) {
        if (hourP99High(last.runs(), h, constant.seeds(), last.name()) > slo) {
          for (int k : new int[] {h, (h + 23) % 24}) {
            int up = nextSize(grid, sizes[k]);
            if (up > next[k]) {
              next[k] = up;
              raised = true;
            }
          }
        }
      }
      if (!raised) {
        break;
      }
      sizes = next;
    }
    return new Result(sizes, last, last.meetsSlo(), round);
  }

  /** Upper end of the p99 interval of the waits of pods created in hour {@code h} of the day, over every run. */
  static long hourP99High(List<StrategyResult> runs, int h, List<Long> seeds, String name) {
    List<long[]> perRun = new ArrayList<>();
    for (StrategyResult r : runs) {
      PodWaits w = r.waits();
      long[] buf = new long[w.count()];
      int n = 0;
      for (int i = 0; i < w.count(); i++) {
        if ((w.createdAt(i) / HOUR) % 24 == h) {
          buf[n++] = w.wait(i);
        }
      }
      perRun.add(Arrays.copyOf(buf, n));
    }
    return Bootstrap.percentiles(perRun, new double[] {99}, Bootstrap.seedOf(seeds, name + "/hour-" + h))[0].high();
  }

  /** Each hour at least the size of the hour after it (the day wraps around). */
  static int[] aheadOfDemand(int[] sizes) {
    int[] out = sizes.clone();
    for (int h = 0; h < 24; h++) {
      out[h] = Math.max(sizes[h], sizes[(h + 1) % 24]);
    }
    return out;
  }

  private static int nextSize(List<BufferSizeSearch.Point> grid, int size) {
    for (BufferSizeSearch.Point p : grid) {
      if (p.percentage() > size) {
        return p.percentage();
      }
    }
    return size;
  }

  /** The windows of each size: {@code size -> "Mon-Sun 08:00-12:00 UTC; Mon-Sun 18:00-20:00 UTC"}, sizes above 0. */
  public static Map<Integer, String> windows(int[] sizes) {
    Map<Integer, String> out = new TreeMap<>();
    for (int size : new TreeSet<>(Arrays.stream(sizes).boxed().toList())) {
      if (size == 0) {
        continue;
      }
      List<String> parts = new ArrayList<>();
      int h = 0;
      while (h < 24) {
        if (sizes[h] != size) {
          h++;
          continue;
        }
        int start = h;
        while (h < 24 && sizes[h] == size) {
          h++;
        }
        parts.add(String.format("Mon-Sun %02d:00-%02d:00 UTC", start, h));
      }
      out.put(size, String.join("; ", parts));
    }
    return out;
  }

  /** The scheduled buffers as a strategy: per workload one buffer per size, active in its windows. */
  static Scenario.Strategy strategy(List<Scenario.Workload> targets, int[] sizes) {
    List<Scenario.BufferDef> defs = new ArrayList<>();
    for (Map.Entry<Integer, String> e : windows(sizes).entrySet()) {
      for (Scenario.Workload w : targets) {
        CapacityBufferSpec spec = new CapacityBufferSpec();
        spec.setScalableRef(new ScalableRef("apps", "Deployment", w.name()));
        spec.setPercentage(e.getKey());
        defs.add(new Scenario.BufferDef(w.name() + "-buffer-" + e.getKey() + "pct", w.namespace(), spec,
            alwaysOn(e.getValue()) ? null : e.getValue()));
      }
    }
    if (defs.isEmpty()) {
      return new Scenario.NoBuffer("buffer-by-hour");
    }
    return new Scenario.Buffers("buffer-by-hour", defs);
  }

  /** The CapacityBuffers of a schedule, ready to apply. */
  public static List<CapacityBuffer> buffers(List<Scenario.Workload> targets, int[] sizes) {
    List<CapacityBuffer> out = new ArrayList<>();
    Scenario.Strategy s = strategy(targets, sizes);
    if (!(s instanceof Scenario.Buffers bs)) {
      return out;
    }
    for (Scenario.BufferDef d : bs.buffers()) {
      CapacityBuffer b = new CapacityBuffer();
      b.setApiVersion(CapacityBuffer.API_VERSION);
      b.setKind(CapacityBuffer.KIND);
      ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(d.name()).withNamespace(d.namespace());
      if (d.activeSchedule() != null) {
        meta.withAnnotations(Map.of(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, d.activeSchedule()));
      }
      b.setMetadata(meta.build());
      b.setSpec(d.spec());
      out.add(b);
    }
    return out;
  }

  private static boolean alwaysOn(String windows) {
    return windows.equals("Mon-Sun 00:00-24:00 UTC");
  }
}
