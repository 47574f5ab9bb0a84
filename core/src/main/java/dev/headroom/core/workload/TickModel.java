package dev.headroom.core.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The seed's discrete tick model (seed mode): one isolated workload, a queue in front of it, and a
 * {@link SeedScaler} that reacts to the previous tick's reading.
 *
 * <p>Per tick {@code t}: from tick 1 on the scaler decides with tick {@code t-1}'s reading; capacity is
 * {@code capacityPerReplica × replicas}; processed is {@code min(capacity, backlog + arrivals)}; the backlog
 * carries over; utilisation is {@code 100 × processed ÷ capacity}. The seed's simplifications are kept on
 * purpose: no collection lag beyond one tick, no start-up delay, no tolerance, no stabilisation, no rate
 * limits.
 */
public final class TickModel {

  private final ArrivalProfile arrivals;
  private final long capacityPerReplica;
  private final int ticks;

  /**
   * @param arrivals the load
   * @param capacityPerReplica items one replica serves per tick, {@code >= 1}
   * @param ticks how many ticks to run (t = 0 .. ticks-1), {@code >= 1}
   */
  public TickModel(ArrivalProfile arrivals, long capacityPerReplica, int ticks) {
    this.arrivals = Objects.requireNonNull(arrivals, "arrivals");
    if (capacityPerReplica < 1) {
      throw new IllegalArgumentException("capacity per replica must be >= 1, got " + capacityPerReplica);
    }
    if (ticks < 1) {
      throw new IllegalArgumentException("ticks must be >= 1, got " + ticks);
    }
    this.capacityPerReplica = capacityPerReplica;
    this.ticks = ticks;
  }

  /** The load. */
  public ArrivalProfile arrivals() {
    return arrivals;
  }

  /** Items one replica serves per tick. */
  public long capacityPerReplica() {
    return capacityPerReplica;
  }

  /** Number of ticks. */
  public int ticks() {
    return ticks;
  }

  /** Runs a scenario with a fresh scaler. */
  public TickRun run(TickScenario scenario) {
    SeedScaler scaler = new SeedScaler(scenario.config());
    String metric = scenario.metric().name();
    boolean readsUtilization = scenario.metric().kind() == TargetKind.UTILIZATION;
    int replicas = scenario.initialReplicas();
    long backlog = scenario.initialBacklog();
    double last = 0;
    List<TickRow> rows = new ArrayList<>(ticks);
    for (int t = 0; t < ticks; t++) {
      if (t > 0) {
        replicas = scaler.decide(replicas, Map.of(metric, last)).replicas();
      }
      long a = arrivals.at(t);
      long capacity = multiplySaturated(capacityPerReplica, replicas);
      long available = addSaturated(backlog, a);
      long processed = Math.min(capacity, available);
      backlog = available - processed;
      double utilization = capacity > 0 ? 100.0 * processed / capacity : 0.0;
      last = readsUtilization ? utilization : backlog;
      rows.add(new TickRow(t, a, replicas, processed, utilization, backlog));
    }
    return new TickRun(scenario, rows, summarize(rows));
  }

  private TickSummary summarize(List<TickRow> rows) {
    OptionalInt catchUp = OptionalInt.empty();
    long peak = 0;
    for (TickRow r : rows) {
      peak = Math.max(peak, r.queue());
      if (catchUp.isEmpty() && r.t() >= arrivals.jumpTick() && r.processed() >= r.arrivals()) {
        catchUp = OptionalInt.of(r.t());
      }
    }
    TickRow last = rows.get(rows.size() - 1);
    return new TickSummary(catchUp, peak, last.replicas(), last.queue());
  }

  private static long multiplySaturated(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
      return lo;
    }
    return Long.MAX_VALUE;
  }

  private static long addSaturated(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
