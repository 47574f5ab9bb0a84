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
 * {@code recommend --by-hour}: a buffer size per hour of day (UTC, the simulated clock's zone), the same every day
 * or apart for weekdays and weekends ({@link Calendar}), expressed as CapacityBuffers with the
 * {@code headroom.dev/active-schedule} annotation that core's {@code ActiveSchedule} parses — one buffer per size and
 * workload, active in the hours that need that size, so exactly one is active at any time. Each hour (a slot of
 * the calendar) first gets the smallest grid percentage whose pods created in that hour (pooled over the
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
  private static final long DAY = 24 * HOUR;

  /**
   * How the hours of a schedule are told apart: the slots a size is chosen for. Scenario time 0 is a Monday at
   * 00:00 UTC ({@code VirtualClock.EPOCH}), so the day of week of a scenario time is its day count modulo 7.
   */
  public enum Calendar {
    /** One size per hour of day, the same every day (24 slots, {@code Mon-Sun} windows). */
    DAILY("daily", 24),
    /** One size per hour of day on weekdays and another on weekends (48 slots: Mon-Fri hours, then Sat-Sun hours). */
    WEEKDAY_WEEKEND("weekday-weekend", 48);

    private final String id;
    private final int slots;

    Calendar(String id, int slots) {
      this.id = id;
      this.slots = slots;
    }

    /** The name the command line uses. */
    public String id() {
      return id;
    }

    /** Number of slots. */
    public int slots() {
      return slots;
    }

    /** The calendar of a command-line name. */
    public static Calendar of(String id) {
      for (Calendar c : values()) {
        if (c.id.equals(id)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown calendar \"" + id + "\" (use daily or weekday-weekend)");
    }

    /**
     * Refuses a scenario that does not reach every slot: weekends apart need more than 5 days.
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public void check(Scenario scenario) {
      if (this == WEEKDAY_WEEKEND && scenario.duration().toMillis() <= 5 * DAY) {
        throw new IllegalArgumentException("--calendar weekday-weekend needs a scenario longer than 5 days (the"
            + " simulated clock starts on a Monday, so day 6 is the first Saturday); " + scenario.name() + " lasts "
            + scenario.duration().toHours() + "h");
      }
    }

    /** The slot of a scenario time (ms since the start). */
    public int slot(long millis) {
      int hour = (int) ((millis / HOUR) % 24);
      return this == DAILY || (millis / DAY) % 7 < 5 ? hour : 24 + hour;
    }

    /** The slots that can follow a slot an hour later. */
    int[] next(int slot) {
      int h = slot % 24;
      if (this == DAILY) {
        return new int[] {(h + 1) % 24};
      }
      // after 23:00 comes 00:00 of a weekday or a weekend day, whichever day this is
      return h < 23 ? new int[] {slot + 1} : new int[] {0, 24};
    }

    /** The slots that can precede a slot by an hour. */
    int[] previous(int slot) {
      int h = slot % 24;
      if (this == DAILY) {
        return new int[] {(h + 23) % 24};
      }
      return h > 0 ? new int[] {slot - 1} : new int[] {23, 47};
    }

    /** The days of a slot in the annotation's grammar. */
    String days(int slot) {
      return this == DAILY ? "Mon-Sun" : slot < 24 ? "Mon-Fri" : "Sat-Sun";
    }

    /** The key of a slot in the resampling seed (daily slots keep the key of a plain hour). */
    String key(int slot) {
      return this == DAILY ? "hour-" + slot : (slot < 24 ? "weekday-hour-" : "weekend-hour-") + (slot % 24);
    }
  }

  /**
   * The schedule found.
   *
   * @param calendar how the hours are told apart
   * @param sizes percentage per slot of the calendar (index 0 = 00:00-01:00 UTC; with weekends apart, 24 = Saturday
   *     and Sunday 00:00-01:00)
   * @param schedule the schedule simulated as a whole (its last round)
   * @param meetsSlo the whole run meets the SLO with the upper end of its p99 interval
   * @param rounds rounds simulated
   */
  public record Result(Calendar calendar, int[] sizes, BufferSizeSearch.Point schedule, boolean meetsSlo, int rounds) {}

  private HourlySchedule() {}

  /** Searches a daily schedule over the grid points of a constant-size search. */
  public static Result search(Scenario scenario, BufferSizeSearch.Result constant, int threads, DoubleConsumer progress) {
    return search(scenario, constant, Calendar.DAILY, threads, progress);
  }

  /** Searches a schedule on a calendar over the grid points of a constant-size search. */
  public static Result search(Scenario scenario, BufferSizeSearch.Result constant, Calendar calendar, int threads,
      DoubleConsumer progress) {
    List<BufferSizeSearch.Point> grid = constant.curve().stream().filter(p -> p.percentage() != null && p.replicas() == null)
        .sorted(Comparator.comparingInt(BufferSizeSearch.Point::percentage)).toList();
    if (grid.isEmpty()) {
      throw new IllegalArgumentException("--by-hour needs percentage sizes (--percentages)");
    }
    calendar.check(scenario);
    long slo = Math.round(constant.sloP99Seconds() * 1000);
    int[] sizes = new int[calendar.slots()];
    for (int h = 0; h < sizes.length; h++) {
      sizes[h] = grid.get(grid.size() - 1).percentage();
      for (BufferSizeSearch.Point p : grid) {
        if (slotP99High(p.runs(), calendar, h, constant.seeds(), p.name()) <= slo) {
          sizes[h] = p.percentage();
          break;
        }
      }
    }
    // a buffer must be up before its hour: nodes take minutes to join, so each hour also holds the next one's size
    sizes = aheadOfDemand(calendar, sizes);
    BufferSizeSearch.Point last = null;
    int round = 0;
    while (round < ROUNDS) {
      round++;
      Scenario.Strategy s = strategy(constant.targets(), calendar, sizes);
      last = BufferSizeSearch.evaluate(scenario, constant.seeds(), List.of(s), constant.sloP99Seconds(), threads, progress)
          .get(0);
      if (last.meetsSlo()) {
        break;
      }
      boolean raised = false;
      int[] next = sizes.clone();
      for (int h = 0; h < sizes.length; h++) {
        if (slotP99High(last.runs(), calendar, h, constant.seeds(), last.name()) > slo) {
          int[] before = calendar.previous(h);
          int[] raise = Arrays.copyOf(before, before.length + 1);
          raise[before.length] = h;
          for (int k : raise) {
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
    return new Result(calendar, sizes, last, last.meetsSlo(), round);
  }

  /** Upper end of the p99 interval of the waits of pods created in a slot of the calendar, over every run. */
  static long slotP99High(List<StrategyResult> runs, Calendar calendar, int slot, List<Long> seeds, String name) {
    List<long[]> perRun = new ArrayList<>();
    for (StrategyResult r : runs) {
      PodWaits w = r.waits();
      long[] buf = new long[w.count()];
      int n = 0;
      for (int i = 0; i < w.count(); i++) {
        if (calendar.slot(w.createdAt(i)) == slot) {
          buf[n++] = w.wait(i);
        }
      }
      perRun.add(Arrays.copyOf(buf, n));
    }
    return Bootstrap.percentiles(perRun, new double[] {99}, Bootstrap.seedOf(seeds, name + "/" + calendar.key(slot)))[0]
        .high();
  }

  /** Each hour at least the size of every hour that can come after it (the day and the week wrap around). */
  static int[] aheadOfDemand(Calendar calendar, int[] sizes) {
    int[] out = sizes.clone();
    for (int h = 0; h < sizes.length; h++) {
      for (int k : calendar.next(h)) {
        out[h] = Math.max(out[h], sizes[k]);
      }
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

  /**
   * The windows of each size: {@code size -> "Mon-Sun 08:00-12:00 UTC; Mon-Fri 18:00-20:00 UTC"}, sizes above 0, in
   * start order; a stretch of hours that weekdays and weekends share is one {@code Mon-Sun} window.
   */
  public static Map<Integer, String> windows(Calendar calendar, int[] sizes) {
    Map<Integer, String> out = new TreeMap<>();
    for (int size : new TreeSet<>(Arrays.stream(sizes).boxed().toList())) {
      if (size == 0) {
        continue;
      }
      List<int[]> ranges = new ArrayList<>(); // {start hour, end hour, first slot of the day class}
      for (int base = 0; base < sizes.length; base += 24) {
        int h = 0;
        while (h < 24) {
          if (sizes[base + h] != size) {
            h++;
            continue;
          }
          int start = h;
          while (h < 24 && sizes[base + h] == size) {
            h++;
          }
          ranges.add(new int[] {start, h, base});
        }
      }
      List<String> parts = new ArrayList<>();
      List<int[]> shared = new ArrayList<>();
      for (int[] r : ranges) {
        if (r[2] == 0 && ranges.stream().anyMatch(o -> o[2] == 24 && o[0] == r[0] && o[1] == r[1])) {
          shared.add(new int[] {r[0], r[1]});
        }
      }
      ranges.sort(Comparator.comparingInt((int[] r) -> r[0]).thenComparingInt(r -> r[2]));
      for (int[] r : ranges) {
        boolean both = shared.stream().anyMatch(x -> x[0] == r[0] && x[1] == r[1]);
        if (both && r[2] == 24) {
          continue; // written once, with the weekday range
        }
        parts.add(String.format("%s %02d:00-%02d:00 UTC", both ? "Mon-Sun" : calendar.days(r[2]), r[0], r[1]));
      }
      out.put(size, String.join("; ", parts));
    }
    return out;
  }

  /** The scheduled buffers as a strategy: per workload one buffer per size, active in its windows. */
  static Scenario.Strategy strategy(List<Scenario.Workload> targets, Calendar calendar, int[] sizes) {
    List<Scenario.BufferDef> defs = new ArrayList<>();
    for (Map.Entry<Integer, String> e : windows(calendar, sizes).entrySet()) {
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
  public static List<CapacityBuffer> buffers(List<Scenario.Workload> targets, Calendar calendar, int[] sizes) {
    List<CapacityBuffer> out = new ArrayList<>();
    Scenario.Strategy s = strategy(targets, calendar, sizes);
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
