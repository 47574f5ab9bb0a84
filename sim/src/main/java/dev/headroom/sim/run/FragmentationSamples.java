package dev.headroom.sim.run;

import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SchedulingSimulation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects, loop by loop, the free room the autoscaler core reported for each injected buffer's chunk shape
 * ({@code BufferOutcome.freeRoom}, computed by {@code SchedulingSimulation.chunkRoom}); the simulator only averages
 * it. A loop skipped because nothing changed repeats the previous loop's figures.
 */
final class FragmentationSamples {

  private static final class Sum {
    long loops;
    long pooled;
    long onNodes;
    long fragmented;
    long max;
    long fragmentedLoops;
  }

  private final Map<String, String> shapes;
  private final Map<String, Sum> sums = new LinkedHashMap<>();
  private List<IterationResult.BufferOutcome> last = List.of();

  /** A collector labelling each buffer {@code namespace/name} with its chunk shape from {@code shapes}. */
  FragmentationSamples(Map<String, String> shapes) {
    this.shapes = shapes;
    for (String k : shapes.keySet()) {
      sums.put(k, new Sum());
    }
  }

  /** One loop's buffer outcomes. */
  void sample(List<IterationResult.BufferOutcome> outcomes) {
    last = outcomes;
    repeat();
  }

  /** A skipped loop: the previous loop's outcomes hold. */
  void repeat() {
    for (IterationResult.BufferOutcome o : last) {
      SchedulingSimulation.ChunkRoom room = o.freeRoom();
      if (room == null || o.virtualPods() == 0) {
        continue;
      }
      Sum s = sums.computeIfAbsent(o.namespace() + "/" + o.name(), k -> new Sum());
      s.loops++;
      s.pooled += room.pooled();
      s.onNodes += room.onNodes();
      s.fragmented += room.fragmented();
      s.max = Math.max(s.max, room.fragmented());
      if (room.fragmented() > 0) {
        s.fragmentedLoops++;
      }
    }
  }

  /** Per buffer, in the strategy's buffer order. */
  List<BatchResult.Fragmentation> result() {
    List<BatchResult.Fragmentation> out = new ArrayList<>();
    for (Map.Entry<String, Sum> e : sums.entrySet()) {
      Sum s = e.getValue();
      double n = Math.max(1, s.loops);
      out.add(new BatchResult.Fragmentation(e.getKey(), shapes.getOrDefault(e.getKey(), ""), s.loops, s.pooled / n,
          s.onNodes / n, s.fragmented / n, s.max, s.fragmentedLoops / n));
    }
    return out;
  }
}
