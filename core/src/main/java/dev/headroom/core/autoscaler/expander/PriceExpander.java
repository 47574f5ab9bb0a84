package dev.headroom.core.autoscaler.expander;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Headroom's {@code price}: pod values are derived from the cheapest per-unit price over all configured
 * groups; {@code score = (n·price + s)/(Σ value(P) + s)} with {@code s} the value of a 500m/500Mi pod,
 * multiplied by 1000 when the group offers an accelerator no pod of the option requests; lowest wins.
 */
public final class PriceExpander implements Expander {

  /** Resources treated as accelerators. */
  public static final Set<String> ACCELERATORS = Set.of("nvidia.com/gpu", "amd.com/gpu");

  private static final double GIB = 1024.0 * 1024 * 1024;
  private final double unitCpu;
  private final double unitMem;
  private final Map<String, Double> unitAcc = new TreeMap<>();
  /** The value of CA's 500m / 500Mi stabilisation pod. */
  private final double stabilisation;
  /** Accelerators offered, per group object (one expander serves one loop). */
  private final Map<NodeGroup, List<String>> accelerators = new java.util.IdentityHashMap<>();
  private final boolean memo;
  /** The request list {@link #lastValue} was summed for (immutable: {@link ExpansionOption} copies into one). */
  private List<Map<String, Long>> lastRequests;
  private double lastValue;

  public PriceExpander(List<NodeGroup> groups) {
    this(groups, true);
  }

  /** As above; {@code memo} false values every option's pods afresh (the plain path the memo is tested against). */
  PriceExpander(List<NodeGroup> groups, boolean memo) {
    this.memo = memo;
    double cpu = Double.POSITIVE_INFINITY;
    double mem = Double.POSITIVE_INFINITY;
    for (NodeGroup g : groups) {
      Map<String, Quantity> alloc = allocatable(g);
      double c = cores(alloc, "cpu");
      double m = amount(alloc, "memory") / GIB;
      if (c > 0) {
        cpu = Math.min(cpu, g.pricePerHour() / c);
      }
      if (m > 0) {
        mem = Math.min(mem, g.pricePerHour() / m);
      }
      for (String acc : ACCELERATORS) {
        double a = amount(alloc, acc);
        if (a > 0) {
          unitAcc.merge(acc, g.pricePerHour() / a, Math::min);
        }
      }
    }
    unitCpu = Double.isInfinite(cpu) ? 0 : cpu;
    unitMem = Double.isInfinite(mem) ? 0 : mem;
    stabilisation = value(Map.of("cpu", 500L, "memory", 500L * 1024 * 1024 * 1000));
  }

  @Override
  public String name() {
    return Expanders.PRICE;
  }

  /** Derived price of a pod per hour. */
  public double value(Map<String, Long> req) {
    double v = Math.max(req.getOrDefault("cpu", 0L) / 1000.0 * unitCpu, req.getOrDefault("memory", 0L) / 1000.0 / GIB * unitMem);
    for (Map.Entry<String, Double> e : unitAcc.entrySet()) {
      v += req.getOrDefault(e.getKey(), 0L) / 1000.0 * e.getValue();
    }
    return v;
  }

  /** The score of an option (lower is better). */
  public double score(ExpansionOption o) {
    return score(List.of(o));
  }

  /**
   * The summed value of the pods of {@code requests}, memoised for the last list object asked about: the options one
   * choice compares (one per candidate group of a provisioning-pass node) share one immutable request list, so their
   * pods are valued once per choice instead of once per option. With {@code memo} off (tests), always summed.
   */
  private double podValue(List<Map<String, Long>> requests) {
    if (memo && requests == lastRequests) {
      return lastValue;
    }
    double v = 0;
    for (Map<String, Long> r : requests) {
      v += value(r);
    }
    if (memo) {
      lastRequests = requests;
      lastValue = v;
    }
    return v;
  }

  /**
   * The score of several options executed together (one loop's scale-up), lower is better: their node prices and
   * their pods' values summed, {@code (Σ n·price + s)/(Σ value(P) + s)}, multiplied by 1000 when a group offers an
   * accelerator no pod of its option requests; for one option, its score.
   */
  public double score(List<ExpansionOption> plan) {
    double cost = 0;
    double podValue = 0;
    boolean unusedAccelerator = false;
    for (ExpansionOption o : plan) {
      cost += o.nodeCount() * o.group().pricePerHour();
      if (plan.size() == 1) {
        podValue = podValue(o.podRequests());
      } else {
        // one running sum over the plan's pods, as summed before the memo (the same rounding)
        for (Map<String, Long> r : o.podRequests()) {
          podValue += value(r);
        }
      }
      for (String acc : accelerators.computeIfAbsent(o.group(), PriceExpander::acceleratorsOf)) {
        if (o.totalRequest(acc) == 0) {
          unusedAccelerator = true;
          break;
        }
      }
    }
    double score = (cost + stabilisation) / (podValue + stabilisation);
    return unusedAccelerator ? score * 1000 : score;
  }

  /** The accelerator resources a group's template offers. */
  private static List<String> acceleratorsOf(NodeGroup g) {
    Map<String, Quantity> alloc = allocatable(g);
    List<String> out = new ArrayList<>();
    for (String acc : ACCELERATORS) {
      if (amount(alloc, acc) > 0) {
        out.add(acc);
      }
    }
    return out;
  }

  @Override
  public List<ExpansionOption> bestOptions(List<ExpansionOption> options) {
    double best = Double.POSITIVE_INFINITY;
    List<ExpansionOption> out = new ArrayList<>();
    for (ExpansionOption o : options) {
      double sc = score(o);
      if (sc < best) {
        best = sc;
        out.clear();
        out.add(o);
      } else if (sc == best) {
        out.add(o);
      }
    }
    return out.isEmpty() ? options : out;
  }

  private static Map<String, Quantity> allocatable(NodeGroup g) {
    var st = g.template().getStatus();
    if (st == null) {
      return Map.of();
    }
    return st.getAllocatable() != null && !st.getAllocatable().isEmpty() ? st.getAllocatable() : st.getCapacity() == null ? Map.of() : st.getCapacity();
  }

  private static double cores(Map<String, Quantity> alloc, String r) {
    return amount(alloc, r);
  }

  private static double amount(Map<String, Quantity> alloc, String r) {
    Quantity q = alloc.get(r);
    return q == null ? 0 : Quantities.milli(q) / 1000.0;
  }
}
