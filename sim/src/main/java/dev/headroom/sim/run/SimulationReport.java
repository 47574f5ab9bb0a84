package dev.headroom.sim.run;

import java.util.List;

/**
 * The result of a scenario run: every strategy's measurements, in scenario order.
 *
 * @param scenario scenario name
 * @param description scenario description
 * @param seed first seed (the one whose ticks, charts and episodes are shown)
 * @param durationSeconds simulated time
 * @param tickSeconds sampling step
 * @param sloSeconds pod-wait SLO
 * @param currency unit of the node groups' {@code price} (per node-hour) and so of every cost; empty when the
 *     scenario does not name it
 * @param workloads workload names, in the order of {@link TickSample#workloads()}
 * @param strategies per-strategy results of the first seed
 * @param seeds every seed run, first seed first
 * @param pooled per-strategy results over every seed, in strategy order
 */
public record SimulationReport(
    String scenario,
    String description,
    long seed,
    long durationSeconds,
    long tickSeconds,
    double sloSeconds,
    String currency,
    List<String> workloads,
    List<StrategyResult> strategies,
    List<Long> seeds,
    List<PooledResult> pooled) {

  public SimulationReport {
    workloads = List.copyOf(workloads);
    strategies = List.copyOf(strategies);
    seeds = List.copyOf(seeds);
    pooled = List.copyOf(pooled);
  }

  /** A one-seed report (pooled over that seed alone). */
  public SimulationReport(String scenario, String description, long seed, long durationSeconds, long tickSeconds,
      double sloSeconds, List<String> workloads, List<StrategyResult> strategies) {
    this(scenario, description, seed, durationSeconds, tickSeconds, sloSeconds, "", workloads, strategies, List.of(seed),
        strategies.stream().map(s -> PooledResult.of(List.of(s), List.of(seed))).toList());
  }

  /** The label of cost figures: {@code cost (USD)}, or {@code cost (price x h)} when no currency is named. */
  public String costLabel() {
    return costLabel(currency);
  }

  /** The label of cost figures in a currency (empty: the unit of the node groups' price times hours). */
  public static String costLabel(String currency) {
    return currency.isEmpty() ? "cost (price x h)" : "cost (" + currency + ")";
  }
}
