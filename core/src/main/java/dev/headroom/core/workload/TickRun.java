package dev.headroom.core.workload;

import java.util.List;

/**
 * The rows and summary of one scenario in the tick model.
 *
 * @param scenario what was run
 * @param rows one row per tick, from 0
 * @param summary catch-up, peak and final state
 */
public record TickRun(TickScenario scenario, List<TickRow> rows, TickSummary summary) {

  public TickRun {
    rows = List.copyOf(rows);
  }
}
