package dev.headroom.sim.report;

import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import dev.headroom.sim.run.TickSample;

/**
 * Per-tick samples of every strategy as one CSV ({@code ticks.csv}): one row per strategy and tick, with a
 * block of columns per workload.
 */
public final class TickCsv {

  private TickCsv() {}

  /** The CSV text, header first. */
  public static String render(SimulationReport report) {
    StringBuilder b = new StringBuilder();
    b.append("strategy,time_s,nodes,ready_nodes,pending_pods,pending_balloons,oldest_pending_s,max_wait_s,"
        + "utilization,buffer_replicas,stopped_instances");
    for (String w : report.workloads()) {
      b.append(',').append(w).append("_replicas,").append(w).append("_ready,").append(w).append("_rate,")
          .append(w).append("_queue,").append(w).append("_cpu_pct");
    }
    b.append('\n');
    for (StrategyResult s : report.strategies()) {
      for (TickSample t : s.ticks()) {
        b.append(s.name()).append(',').append(t.seconds()).append(',').append(t.nodes()).append(',')
            .append(t.readyNodes()).append(',').append(t.pendingPods()).append(',').append(t.pendingBalloons())
            .append(',').append(Numbers.plain(t.oldestPendingSeconds(), 3)).append(',')
            .append(Numbers.plain(t.maxWaitSeconds(), 3)).append(',').append(Numbers.plain(t.utilization(), 4))
            .append(',').append(t.bufferReplicas()).append(',').append(t.stoppedInstances());
        for (TickSample.WorkloadSample w : t.workloads()) {
          b.append(',').append(w.replicas()).append(',').append(w.ready()).append(',')
              .append(Numbers.plain(w.rate(), 2)).append(',').append(Numbers.plain(w.queue(), 2)).append(',')
              .append(Numbers.plain(w.cpu(), 2));
        }
        b.append('\n');
      }
    }
    return b.toString();
  }
}
