package dev.headroom.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Runs a scenario: warm-up iterations (JIT), then measured iterations, each on freshly prepared inputs.
 * Reports the first run's wall and CPU time (cold: the first iteration in this JVM, when nothing ran before), the
 * median wall time of the measured iterations with that run's CPU time (warm), and the peak heap use over the measured iterations read from the heap
 * memory pools' peak counters (reset after the warm-up; the sum of per-pool peaks, an upper bound of the
 * true peak). A full GC runs after each preparation, outside the measured time.
 */
public final class BenchRunner {

  private BenchRunner() {}

  /** Runs {@code scenario} with {@code pods} pods. */
  public static BenchResult run(Scenario scenario, int pods, int warmups, int iterations) {
    int placedPods = 0;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] cold = null;
    for (int i = 0; i < warmups; i++) {
      Scenario.Prepared prepared = scenario.prepare(pods);
      double[] t = timed(threads, prepared);
      cold = cold == null ? t : cold;
    }
    System.gc();
    resetPeaks();
    double[] seconds = new double[Math.max(1, iterations)];
    double[][] pairs = new double[seconds.length][];
    Scenario.Outcome last = null;
    for (int i = 0; i < seconds.length; i++) {
      Scenario.Prepared prepared = scenario.prepare(pods);
      // The inputs stand for long-lived informer caches: collect the preparation's garbage and let the inputs
      // settle in the old generation, so that the measured run does not pay for copying them.
      System.gc();
      long cpu0 = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      last = prepared.run();
      seconds[i] = (System.nanoTime() - start) / 1e9;
      pairs[i] = new double[] {seconds[i], (threads.getCurrentThreadCpuTime() - cpu0) / 1e9};
      check(scenario, last);
      placedPods = last.pods();
      cold = cold == null ? pairs[i] : cold;
    }
    long peak = peakHeap();
    Arrays.sort(pairs, (a, b) -> Double.compare(a[0], b[0]));
    double median = pairs[pairs.length / 2][0];
    return new BenchResult(
        scenario.name(), placedPods, last.nodes(), median, placedPods / median, peak,
        Runtime.getRuntime().availableProcessors(), jvm(), pairs[pairs.length / 2][1], cold[0], cold[1],
        last.provisionedPerRequestedCpu(), last.podsPerZone(), last.metrics());
  }

  /** Runs one prepared iteration: {wall seconds, CPU seconds of this thread}; checks that every pod was placed. */
  private static double[] timed(ThreadMXBean threads, Scenario.Prepared prepared) {
    long cpu0 = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    Scenario.Outcome o = prepared.run();
    double[] t = {(System.nanoTime() - start) / 1e9, (threads.getCurrentThreadCpuTime() - cpu0) / 1e9};
    if (o.placed() != o.pods()) {
      throw new IllegalStateException("only " + o.placed() + " of " + o.pods() + " pods were placed");
    }
    return t;
  }

  private static void check(Scenario scenario, Scenario.Outcome o) {
    if (o.placed() != o.pods()) {
      throw new IllegalStateException(
          scenario.name() + ": only " + o.placed() + " of " + o.pods() + " pods were placed");
    }
  }

  /** JVM description for the hardware line. */
  public static String jvm() {
    return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version");
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        pool.resetPeakUsage();
      }
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
