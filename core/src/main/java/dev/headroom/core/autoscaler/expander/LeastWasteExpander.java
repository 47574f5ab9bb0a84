package dev.headroom.core.autoscaler.expander;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code least-waste}: {@code waste = (n·cap.cpu − ΣP.cpu)/(n·cap.cpu) + (n·cap.mem − ΣP.mem)/(n·cap.mem)}
 * against the template's <em>capacity</em>; keeps the options with the minimum (exact ties kept).
 */
public final class LeastWasteExpander implements Expander {
  @Override
  public String name() {
    return Expanders.LEAST_WASTE;
  }

  /** The waste score of one option. */
  public static double waste(ExpansionOption o) {
    return waste(List.of(o));
  }

  /**
   * The waste score of several options executed together (one loop's scale-up): the capacity added and the requests
   * helped are summed over the options before the idle fractions are taken; for one option, its score.
   */
  public static double waste(List<ExpansionOption> plan) {
    double cpu = 0;
    double mem = 0;
    double cpuRequested = 0;
    double memRequested = 0;
    for (ExpansionOption o : plan) {
      Map<String, Quantity> cap = o.group().template().getStatus().getCapacity();
      cpu += milli(cap, "cpu") * o.nodeCount();
      mem += milli(cap, "memory") * o.nodeCount();
      cpuRequested += o.totalRequest("cpu");
      memRequested += o.totalRequest("memory");
    }
    return idle(cpu, cpuRequested) + idle(mem, memRequested);
  }

  /** Capacity cpu and memory (milli-units) per group object (one expander serves one loop). */
  private final Map<NodeGroup, double[]> capacity = new java.util.IdentityHashMap<>();

  private double cachedWaste(ExpansionOption o) {
    double[] cap = capacity.computeIfAbsent(o.group(), g -> {
      Map<String, Quantity> c = g.template().getStatus().getCapacity();
      return new double[] {milli(c, "cpu"), milli(c, "memory")};
    });
    return idle(cap[0] * o.nodeCount(), o.totalRequest("cpu")) + idle(cap[1] * o.nodeCount(), o.totalRequest("memory"));
  }

  private static double milli(Map<String, Quantity> cap, String resource) {
    Quantity q = cap == null ? null : cap.get(resource);
    return q == null ? 0.0 : (double) Quantities.milli(q);
  }

  /** The idle fraction of {@code total} capacity when {@code requested} of it is used; 0 without capacity. */
  private static double idle(double total, double requested) {
    if (total <= 0) {
      return 0;
    }
    return (total - requested) / total;
  }

  @Override
  public List<ExpansionOption> bestOptions(List<ExpansionOption> options) {
    double best = Double.POSITIVE_INFINITY;
    List<ExpansionOption> out = new ArrayList<>();
    for (ExpansionOption o : options) {
      double w = cachedWaste(o);
      if (w < best) {
        best = w;
        out.clear();
        out.add(o);
      } else if (w == best) {
        out.add(o);
      }
    }
    return out;
  }
}
