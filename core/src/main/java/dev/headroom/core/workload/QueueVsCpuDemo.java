package dev.headroom.core.workload;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The seed's comparison: the same load spike against a CPU-utilisation target (a saturating signal) and a
 * queue-per-replica target (an unbounded one), each run through the {@link TickModel}.
 *
 * <p>Both workloads start in the steady state of the load before the jump: the CPU one at
 * {@code ceilSeed(100 × before ÷ capacity, cpuTarget)} replicas with an empty queue, the queue one at
 * {@code ceilSeed(before, capacity)} replicas with {@code replicas × queueTarget} items waiting. With the
 * defaults that is 4 replicas / queue 0 and 2 replicas / queue 20, the seed's starting state.
 *
 * <p>With {@link Parameters#allowZero()} only the queue workload gets {@code min = 0} with the activation
 * threshold and cooldown; the CPU workload keeps {@code min = 1}, because a CPU-only workload cannot scale to
 * zero (per-replica utilisation is undefined at zero replicas, and KEDA keeps CPU-only objects active).
 */
public final class QueueVsCpuDemo {

  /** Name of the CPU scenario and its metric. */
  public static final String CPU = "cpu";
  /** Name of the queue scenario and its metric. */
  public static final String QUEUE = "queue";
  /** With {@code allowZero} and no explicit stop tick, arrivals stop at this tick. */
  public static final int DEFAULT_STOP_TICK_WITH_ZERO = 20;

  private QueueVsCpuDemo() {}

  /**
   * The demo's knobs. The defaults ({@link #defaults()}) are the seed's: 20 → 200 items per tick at t = 5,
   * 10 items per replica per tick, CPU target 50%, queue target 10 per replica, max 80, 34 ticks.
   *
   * @param before arrivals per tick before the jump
   * @param after arrivals per tick from the jump on
   * @param jumpTick the tick of the jump
   * @param capacity items one replica serves per tick
   * @param cpuTarget the CPU utilisation target, percent
   * @param queueTarget the queue items each replica may have waiting
   * @param max the replica ceiling of both scalers (0 = unbounded)
   * @param ticks number of ticks
   * @param allowZero give the queue workload {@code min = 0}, the activation threshold and the cooldown
   * @param activation the queue workload's wake threshold (only with {@code allowZero})
   * @param cooldown idle decisions before the queue workload drops to zero (only with {@code allowZero})
   * @param stopTick when present, arrivals stop at this tick
   */
  public record Parameters(
      long before,
      long after,
      int jumpTick,
      long capacity,
      double cpuTarget,
      double queueTarget,
      int max,
      int ticks,
      boolean allowZero,
      double activation,
      int cooldown,
      OptionalInt stopTick) {

    public Parameters {
      Objects.requireNonNull(stopTick, "stopTick");
      if (!(cpuTarget > 0) || !(queueTarget > 0) || !Double.isFinite(cpuTarget) || !Double.isFinite(queueTarget)) {
        throw new IllegalArgumentException("targets must be finite and > 0");
      }
    }

    /** The seed's demo. */
    public static Parameters defaults() {
      return new Parameters(20, 200, 5, 10, 50, 10, 80, 34, false, 0, 3, OptionalInt.empty());
    }

    /** The arrivals, with the default stop tick when zero is allowed and none was given. */
    public ArrivalProfile arrivals() {
      OptionalInt stop = stopTick.isEmpty() && allowZero ? OptionalInt.of(DEFAULT_STOP_TICK_WITH_ZERO) : stopTick;
      return new ArrivalProfile(before, after, jumpTick, stop);
    }
  }

  /**
   * Both runs.
   *
   * @param cpu the CPU-utilisation workload
   * @param queue the queue-per-replica workload
   */
  public record Result(TickRun cpu, TickRun queue) {}

  /** Runs both scenarios on the same load. */
  public static Result run(Parameters p) {
    TickModel model = new TickModel(p.arrivals(), p.capacity(), p.ticks());

    MetricSpec cpuMetric = MetricSpec.utilization(CPU, p.cpuTarget());
    ScalerConfig cpuConfig = new ScalerConfig(List.of(cpuMetric), 1, p.max(), 0, p.cooldown());
    int cpuStart = cpuConfig.clamp(SeedFormulas.ceilSeed(100.0 * p.before() / p.capacity(), p.cpuTarget()));
    TickScenario cpu = new TickScenario(CPU, cpuConfig, cpuMetric, cpuStart, 0);

    MetricSpec queueMetric = MetricSpec.averageValue(QUEUE, p.queueTarget());
    ScalerConfig queueConfig =
        p.allowZero()
            ? new ScalerConfig(List.of(queueMetric), 0, p.max(), p.activation(), p.cooldown())
            : new ScalerConfig(List.of(queueMetric), 1, p.max(), 0, p.cooldown());
    int serving = SeedFormulas.ceilSeed(p.before(), p.capacity());
    long waiting = (long) Math.ceil(serving * p.queueTarget());
    TickScenario queue = new TickScenario(QUEUE, queueConfig, queueMetric, queueConfig.clamp(serving), waiting);

    return new Result(model.run(cpu), model.run(queue));
  }
}
