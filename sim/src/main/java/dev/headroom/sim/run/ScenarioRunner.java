package dev.headroom.sim.run;

import dev.headroom.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.DoubleConsumer;

/**
 * Runs every strategy of a scenario over one or more seeds, each run on its own virtual clock (so, for one
 * seed, every strategy sees the same load and the same provisioning jitter), on a fixed pool of
 * {@code threads} threads. Results are collected by (strategy, seed) index, never in completion order, so the
 * output does not depend on the pool size or on thread timing.
 */
public final class ScenarioRunner {

  private ScenarioRunner() {}

  /** Runs the scenario with one seed. */
  public static SimulationReport run(Scenario scenario, long seed, int threads, DoubleConsumer progress) {
    return run(scenario, List.of(seed), threads, progress);
  }

  /**
   * Runs the scenario with every seed and pools each strategy's results ({@link PooledResult}). Per-tick
   * samples are kept for the first seed only (the report's charts), so memory does not grow with the number of
   * seeds times the simulated duration.
   *
   * @param progress receives the completed fraction (0..1) from any thread; may be null
   */
  public static SimulationReport run(Scenario scenario, List<Long> seeds, int threads, DoubleConsumer progress) {
    List<List<StrategyResult>> runs = runAll(scenario, seeds, threads, progress, true);
    List<StrategyResult> first = new ArrayList<>();
    for (List<StrategyResult> perSeed : runs) {
      first.add(perSeed.get(0));
    }
    List<PooledResult> pooled = pool(runs, seeds, threads);
    return new SimulationReport(scenario.name(), scenario.description(), seeds.get(0), scenario.duration().toSeconds(),
        scenario.tick().toSeconds(), scenario.sloPodWait().toMillis() / 1000.0, scenario.currency(),
        scenario.workloads().stream().map(Scenario.Workload::name).toList(), first, seeds, pooled);
  }

  /**
   * Every (strategy, seed) run: the outer list in strategy order, each inner list in seed order.
   *
   * @param firstSeedTicks keep per-tick samples of the first seed's runs (the others never keep them)
   */
  public static List<List<StrategyResult>> runAll(Scenario scenario, List<Long> seeds, int threads,
      DoubleConsumer progress, boolean firstSeedTicks) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("at least one seed is required");
    }
    List<Scenario.Strategy> strategies = scenario.strategies();
    int tasks = strategies.size() * seeds.size();
    long end = scenario.duration().toMillis();
    AtomicLongArray done = new AtomicLongArray(tasks);
    List<Callable<StrategyResult>> runs = new ArrayList<>(tasks);
    for (int i = 0; i < strategies.size(); i++) {
      for (int k = 0; k < seeds.size(); k++) {
        int index = i * seeds.size() + k;
        Scenario.Strategy s = strategies.get(i);
        boolean ticks = firstSeedTicks && k == 0;
        long seed = seeds.get(k);
        runs.add(() -> {
          Simulation sim = new Simulation(scenario, s, seed, now -> {
            done.set(index, now);
            if (progress != null) {
              long sum = 0;
              for (int j = 0; j < done.length(); j++) {
                sum += done.get(j);
              }
              progress.accept((double) sum / ((double) end * done.length()));
            }
          });
          return (ticks ? sim : sim.withoutTicks()).run();
        });
      }
    }
    List<StrategyResult> flat = inOrder(runs, threads, "headroom-sim", "simulation");
    List<List<StrategyResult>> results = new ArrayList<>();
    for (int i = 0; i < strategies.size(); i++) {
      results.add(new ArrayList<>(flat.subList(i * seeds.size(), (i + 1) * seeds.size())));
    }
    return results;
  }

  /**
   * Each strategy's runs pooled ({@link PooledResult#of}), strategies in parallel on up to {@code threads} threads:
   * the bootstrap of a long run's waits takes about half a second of CPU per strategy, and the results do not
   * depend on the order in which they are computed.
   */
  public static List<PooledResult> pool(List<List<StrategyResult>> runs, List<Long> seeds, int threads) {
    List<Callable<PooledResult>> tasks = new ArrayList<>();
    for (List<StrategyResult> perSeed : runs) {
      tasks.add(() -> PooledResult.of(perSeed, seeds));
    }
    return inOrder(tasks, threads, "headroom-pool", "pooling");
  }

  /**
   * Runs {@code tasks} on a fixed pool of up to {@code threads} daemon threads (in the calling thread when one
   * suffices) and returns their results in task order, never in completion order. A task's RuntimeException is
   * rethrown as it is.
   */
  static <T> List<T> inOrder(List<Callable<T>> tasks, int threads, String threadName, String what) {
    int n = Math.max(1, Math.min(threads, tasks.size()));
    List<T> out = new ArrayList<>(tasks.size());
    if (n == 1) {
      for (Callable<T> task : tasks) {
        out.add(call(task));
      }
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<T>> futures = new ArrayList<>(tasks.size());
      for (Callable<T> task : tasks) {
        futures.add(pool.submit(task));
      }
      for (Future<T> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + " interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> T call(Callable<T> task) {
    try {
      return task.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code n} consecutive seeds from {@code first}: {@code first, first + 1, ...}. */
  public static List<Long> seeds(long first, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("--seeds must be at least 1");
    }
    List<Long> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(first + i);
    }
    return out;
  }
}
