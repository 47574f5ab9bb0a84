package dev.headroom.sim.recommend;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.ScenarioRunner;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.DoubleConsumer;

/**
 * {@code headroom recommend}: runs the scenario with CapacityBuffers of several sizes on the autoscaled
 * workloads (the scenario's own strategies are ignored), every size over the same seeds, and finds the cheapest
 * size whose pooled p99 pod wait meets the SLO with the upper end of its bootstrap interval. Sizes are a grid of percentages and/or replica counts; between the largest failing and the
 * cheapest passing percentage the search bisects to the whole percent.
 */
public final class BufferSizeSearch {

  /** Default percentage grid. */
  public static final List<Integer> DEFAULT_PERCENTAGES = List.of(0, 5, 10, 20, 30, 50, 75, 100);

  /** Default number of seeds of {@code recommend}. */
  public static final int DEFAULT_SEEDS = 10;

  /**
   * One evaluated size: its results pooled over every seed. It meets the SLO when the upper end of its p99
   * interval does.
   */
  public record Point(String name, Integer percentage, Integer replicas, PooledResult pooled, boolean meetsSlo,
      List<StrategyResult> runs) {
    /** Mean cost per seed. */
    public double cost() {
      return pooled.cost();
    }

    /** Mean node-hours per seed. */
    public double nodeHours() {
      return pooled.nodeHours();
    }
  }

  /**
   * The search result: every evaluated point (by size), the cheapest that meets the SLO, if any, and the
   * buffers that express it.
   */
  public record Result(String scenario, List<Long> seeds, double sloP99Seconds, String currency,
      List<Scenario.Workload> targets, List<Point> curve, Optional<Point> recommended, String provisioningStrategy,
      Map<String, String> annotations) {
    public Result {
      annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** Names of the buffered workloads. */
    public List<String> workloads() {
      return targets.stream().map(Scenario.Workload::name).toList();
    }
  }

  private BufferSizeSearch() {}

  /**
   * Searches.
   *
   * @param percentages percentage grid (may be empty when {@code replicas} is not)
   * @param replicas replica-count grid (may be empty)
   * @param workloads workloads that get a buffer (empty = every autoscaled workload)
   */
  public static Result search(Scenario scenario, List<Long> seeds, Duration sloP99, List<Integer> percentages,
      List<Integer> replicas, List<String> workloads, int threads, DoubleConsumer progress) {
    return search(scenario, seeds, sloP99, percentages, replicas, workloads, threads, progress, null, Map.of());
  }

  /**
   * As above, with the searched buffers of {@code provisioningStrategy} (null: the CRD's default, active capacity;
   * {@code buffer.headroom.dev/standby-capacity}: kept on the scenario's standby node groups, docs/standby-capacity.md)
   * and carrying {@code annotations} (the consumption annotations of a dedicated or one-shot buffer,
   * docs/buffer-consumption.md).
   */
  public static Result search(Scenario scenario, List<Long> seeds, Duration sloP99, List<Integer> percentages,
      List<Integer> replicas, List<String> workloads, int threads, DoubleConsumer progress, String provisioningStrategy,
      Map<String, String> annotations) {
    if (BufferConditions.STRATEGY_STANDBY_CAPACITY.equals(provisioningStrategy)
        && scenario.nodeGroups().stream().noneMatch(g -> g.standby() != null)) {
      throw new IllegalArgumentException("buffers of the " + provisioningStrategy + " strategy need a node group with spec.standby");
    }
    List<Scenario.Workload> targets = new ArrayList<>();
    for (Scenario.Workload w : scenario.workloads()) {
      boolean autoscaled = !(w.autoscaling() instanceof Scenario.Fixed);
      if (workloads.isEmpty() ? autoscaled : workloads.contains(w.name())) {
        targets.add(w);
      }
    }
    for (String name : workloads) {
      if (scenario.workloads().stream().noneMatch(w -> w.name().equals(name))) {
        throw new IllegalArgumentException("no workload named \"" + name + "\" in the scenario");
      }
    }
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("the scenario has no autoscaled workload to buffer");
    }
    double slo = sloP99.toMillis() / 1000.0;
    TreeMap<String, Point> evaluated = new TreeMap<>();
    List<Scenario.Strategy> grid = new ArrayList<>();
    for (int p : percentages) {
      grid.add(strategy(targets, p, null, provisioningStrategy, annotations));
    }
    for (int r : replicas) {
      grid.add(strategy(targets, null, r, provisioningStrategy, annotations));
    }
    List<Point> points = new ArrayList<>(evaluate(scenario, seeds, grid, slo, threads, progress));
    // refine percentages: bisect between the largest failing grid point below the cheapest passing one
    List<Point> pct = points.stream().filter(x -> x.percentage() != null)
        .sorted(Comparator.comparingInt(Point::percentage)).toList();
    Optional<Point> bestPct = pct.stream().filter(Point::meetsSlo).min(Comparator.comparingDouble(Point::cost));
    if (bestPct.isPresent()) {
      int best = bestPct.get().percentage();
      int hi = best;
      int lo = pct.stream().filter(x -> x.percentage() < best && !x.meetsSlo()).mapToInt(Point::percentage).max().orElse(best);
      while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        Point m = evaluate(scenario, seeds, List.of(strategy(targets, mid, null, provisioningStrategy, annotations)), slo, threads, null).get(0);
        points.add(m);
        if (m.meetsSlo()) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
    }
    for (Point p : points) {
      evaluated.put(p.name(), p);
    }
    List<Point> curve = new ArrayList<>(evaluated.values());
    curve.sort(Comparator.comparing((Point p) -> p.percentage() == null ? 1 : 0)
        .thenComparingInt(p -> p.percentage() == null ? p.replicas() : p.percentage()));
    // cheapest first; equal costs (sizes that round to the same replica count) go to the smaller size
    Optional<Point> best = curve.stream().filter(Point::meetsSlo)
        .min(Comparator.comparingDouble(Point::cost).thenComparing(Comparator.comparingInt(curve::indexOf)));
    return new Result(scenario.name(), seeds, slo, scenario.currency(), targets, curve, best, provisioningStrategy, annotations);
  }

  static List<Point> evaluate(Scenario scenario, List<Long> seeds, List<Scenario.Strategy> strategies,
      double slo, int threads, DoubleConsumer progress) {
    List<List<StrategyResult>> runs = ScenarioRunner.runAll(scenario.withStrategies(strategies), seeds, threads, progress,
        false);
    long sloMillis = Math.round(slo * 1000);
    List<Point> out = new ArrayList<>();
    List<PooledResult> pooled = ScenarioRunner.pool(runs, seeds, threads);
    for (int i = 0; i < strategies.size(); i++) {
      PooledResult s = pooled.get(i);
      Integer pct = null;
      Integer reps = null;
      if (strategies.get(i) instanceof Scenario.Buffers b) {
        pct = b.buffers().get(0).spec().getPercentage();
        reps = b.buffers().get(0).spec().getReplicas();
      } else {
        pct = 0;
      }
      out.add(new Point(s.name(), pct, reps, s, s.p99().high() <= sloMillis, runs.get(i)));
    }
    return out;
  }

  /**
   * The CapacityBuffers ({@code autoscaling.x-k8s.io/v1beta1}) that put a point's size on every buffered
   * workload, ready to apply: one per workload, named {@code <workload>-buffer} in its namespace.
   */
  public static List<CapacityBuffer> buffers(Result result, Point point) {
    List<CapacityBuffer> out = new ArrayList<>();
    for (Scenario.Workload w : result.targets()) {
      CapacityBuffer b = new CapacityBuffer();
      b.setApiVersion(CapacityBuffer.API_VERSION);
      b.setKind(CapacityBuffer.KIND);
      b.setMetadata(new ObjectMetaBuilder().withName(w.name() + "-buffer").withNamespace(w.namespace()).build());
      b.getMetadata().setAnnotations(result.annotations().isEmpty() ? null : new java.util.TreeMap<>(result.annotations()));
      CapacityBufferSpec spec = new CapacityBufferSpec();
      spec.setScalableRef(new ScalableRef("apps", "Deployment", w.name()));
      spec.setPercentage(point.percentage() != null && point.percentage() == 0 && point.replicas() == null ? null
          : point.percentage());
      spec.setReplicas(point.replicas());
      spec.setProvisioningStrategy(result.provisioningStrategy());
      if (spec.getPercentage() == null && spec.getReplicas() == null) {
        spec.setReplicas(0);
      }
      b.setSpec(spec);
      out.add(b);
    }
    return out;
  }

  static Scenario.Strategy strategy(List<Scenario.Workload> targets, Integer percentage, Integer replicas) {
    return strategy(targets, percentage, replicas, null, Map.of());
  }

  static Scenario.Strategy strategy(List<Scenario.Workload> targets, Integer percentage, Integer replicas, String provisioningStrategy,
      Map<String, String> annotations) {
    if ((percentage != null && percentage == 0 && replicas == null) || (replicas != null && replicas == 0 && percentage == null)) {
      return new Scenario.NoBuffer(percentage != null ? "buffer-0pct" : "buffer-0");
    }
    List<Scenario.BufferDef> defs = new ArrayList<>();
    for (Scenario.Workload w : targets) {
      CapacityBufferSpec spec = new CapacityBufferSpec();
      spec.setScalableRef(new ScalableRef("apps", "Deployment", w.name()));
      spec.setPercentage(percentage);
      spec.setReplicas(replicas);
      spec.setProvisioningStrategy(provisioningStrategy);
      defs.add(new Scenario.BufferDef(w.name() + "-buffer", w.namespace(), spec, null, annotations, null));
    }
    String name = defs.size() == 1 ? ScenarioParser.bufferStrategyName(defs)
        : (percentage != null ? "buffer-" + percentage + "pct" : "buffer-" + replicas);
    return new Scenario.Buffers(name, defs);
  }
}
