package dev.headroom.core.autoscaler.expander;

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
    Map<String, Quantity> cap = o.group().template().getStatus().getCapacity();
    return fraction(o, cap, "cpu") + fraction(o, cap, "memory");
  }

  private static double fraction(ExpansionOption o, Map<String, Quantity> cap, String resource) {
    Quantity q = cap == null ? null : cap.get(resource);
    double total = (q == null ? 0.0 : (double) Quantities.milli(q)) * o.nodeCount();
    if (total <= 0) {
      return 0;
    }
    return (total - o.totalRequest(resource)) / total;
  }

  /** Capacity cpu and memory (milli-units) per group object (one expander serves one loop). */
  private final Map<dev.headroom.core.nodegroup.NodeGroup, double[]> capacity = new java.util.IdentityHashMap<>();

  private double cachedWaste(ExpansionOption o) {
    double[] cap = capacity.computeIfAbsent(o.group(), g -> {
      Map<String, Quantity> c = g.template().getStatus().getCapacity();
      return new double[] {milli(c, "cpu"), milli(c, "memory")};
    });
    return fraction(o, cap[0], "cpu") + fraction(o, cap[1], "memory");
  }

  private static double milli(Map<String, Quantity> cap, String resource) {
    Quantity q = cap == null ? null : cap.get(resource);
    return q == null ? 0.0 : (double) Quantities.milli(q);
  }

  private static double fraction(ExpansionOption o, double perNode, String resource) {
    double total = perNode * o.nodeCount();
    if (total <= 0) {
      return 0;
    }
    return (total - o.totalRequest(resource)) / total;
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
