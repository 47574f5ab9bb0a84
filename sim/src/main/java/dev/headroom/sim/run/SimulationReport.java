package dev.headroom.sim.run;

import java.util.List;

/**
 * The result of a scenario run: every strategy's measurements, in scenario order.
 *
 * @param scenario scenario name
 * @param description scenario description
 * @param seed seed used
 * @param durationSeconds simulated time
 * @param tickSeconds sampling step
 * @param sloSeconds pod-wait SLO
 * @param workloads workload names, in the order of {@link TickSample#workloads()}
 * @param strategies per-strategy results
 */
public record SimulationReport(
    String scenario,
    String description,
    long seed,
    long durationSeconds,
    long tickSeconds,
    double sloSeconds,
    List<String> workloads,
    List<StrategyResult> strategies) {}
