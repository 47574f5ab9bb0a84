package dev.headroom.sim.run;

import dev.headroom.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.DoubleConsumer;

/**
 * Runs every strategy of a scenario, each on its own virtual clock with the same seed (so every strategy sees
 * the same load and the same provisioning jitter), in parallel on up to {@code threads} threads. Results come
 * back in scenario order, so the output does not depend on thread timing.
 */
public final class ScenarioRunner {

  private ScenarioRunner() {}

  /**
   * Runs the scenario.
   *
   * @param progress receives the completed fraction (0..1) from any thread; may be null
   */
  public static SimulationReport run(Scenario scenario, long seed, int threads, DoubleConsumer progress) {
    List<Scenario.Strategy> strategies = scenario.strategies();
    long end = scenario.duration().toMillis();
    AtomicLongArray done = new AtomicLongArray(strategies.size());
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, strategies.size())), r -> {
      Thread t = new Thread(r, "headroom-sim");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<StrategyResult>> futures = new ArrayList<>();
      for (int i = 0; i < strategies.size(); i++) {
        int index = i;
        Scenario.Strategy s = strategies.get(i);
        futures.add(pool.submit(() -> new Simulation(scenario, s, seed, now -> {
          done.set(index, now);
          if (progress != null) {
            long sum = 0;
            for (int k = 0; k < done.length(); k++) {
              sum += done.get(k);
            }
            progress.accept((double) sum / ((double) end * done.length()));
          }
        }).run()));
      }
      List<StrategyResult> results = new ArrayList<>();
      for (Future<StrategyResult> f : futures) {
        results.add(f.get());
      }
      return new SimulationReport(scenario.name(), scenario.description(), seed, scenario.duration().toSeconds(),
          scenario.tick().toSeconds(), scenario.sloPodWait().toMillis() / 1000.0,
          scenario.workloads().stream().map(Scenario.Workload::name).toList(), results);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("simulation interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
