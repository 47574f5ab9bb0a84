package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.PriceExpander;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.resources.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The expanders' measures of what one loop scales up (a list of options, one per group grown), for comparing two
 * planners: {@code most-pods} the pods helped, {@code least-nodes} the nodes added, {@code least-waste} the idle
 * fraction of the added CPU plus that of the added memory (capacity minus requests over capacity, summed over the
 * options first), {@code price} the price expander's score over the sum ({@code (Σ n·price + s) / (Σ value + s)}),
 * {@code priority} the share of the pods helped at each priority level, highest first; {@code random} ties.
 */
final class PlanMeasure {

  private static final double EPS = 1e-9;

  private final List<String> chain;
  private final PriceExpander price;
  private final TreeMap<Integer, List<Pattern>> priorities = new TreeMap<>();

  PlanMeasure(String expander, List<NodeGroup> groups, Map<Integer, List<String>> priorities) {
    this.chain = Expanders.parse(expander);
    this.price = new PriceExpander(groups);
    priorities.forEach((k, v) -> this.priorities.put(k, v.stream().map(Pattern::compile).toList()));
  }

  /** Negative when {@code a} is better than {@code b} by the chain (first measure that differs), 0 when equal. */
  int compare(List<ExpansionOption> a, List<ExpansionOption> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return Boolean.compare(a.isEmpty(), b.isEmpty());
    }
    for (String e : chain) {
      int c = switch (e) {
        case Expanders.MOST_PODS -> Integer.compare(pods(b), pods(a));
        case Expanders.LEAST_NODES -> Integer.compare(nodes(a), nodes(b));
        case Expanders.LEAST_WASTE -> compare(waste(a), waste(b));
        case Expanders.PRICE -> compare(priceScore(a), priceScore(b));
        case Expanders.PRIORITY -> comparePriorities(a, b);
        default -> 0;
      };
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  String describe(List<ExpansionOption> plan) {
    List<String> parts = new ArrayList<>();
    for (ExpansionOption o : plan) {
      parts.add(o.group().id() + "+" + o.nodeCount() + "/" + o.pods().size() + "pods");
    }
    return String.format("%s (pods %d, nodes %d, waste %.4f, price %.4f)", parts, pods(plan), nodes(plan), waste(plan), priceScore(plan));
  }

  private static int compare(double x, double y) {
    return Math.abs(x - y) <= EPS ? 0 : Double.compare(x, y);
  }

  static int pods(List<ExpansionOption> plan) {
    return plan.stream().mapToInt(o -> o.pods().size()).sum();
  }

  static int nodes(List<ExpansionOption> plan) {
    return plan.stream().mapToInt(ExpansionOption::nodeCount).sum();
  }

  static double waste(List<ExpansionOption> plan) {
    double w = 0;
    for (String r : List.of("cpu", "memory")) {
      double capacity = 0;
      double requested = 0;
      for (ExpansionOption o : plan) {
        capacity += (double) Quantities.milli(o.group().template().getStatus().getCapacity().get(r)) * o.nodeCount();
        requested += o.totalRequest(r);
      }
      w += capacity <= 0 ? 0 : (capacity - requested) / capacity;
    }
    return w;
  }

  double priceScore(List<ExpansionOption> plan) {
    double cost = 0;
    double value = 0;
    for (ExpansionOption o : plan) {
      cost += o.nodeCount() * o.group().pricePerHour();
      for (Map<String, Long> r : o.podRequests()) {
        value += price.value(r);
      }
    }
    double s = price.value(Map.of("cpu", 500L, "memory", 500L * 1024 * 1024 * 1000));
    return (cost + s) / (value + s);
  }

  /**
   * The priority expander keeps the options of the highest level; over a plan, the share of its pods helped by
   * groups of each level, highest level first, larger is better (one option: its group's level); groups matching no
   * level rank lowest.
   */
  private int comparePriorities(List<ExpansionOption> a, List<ExpansionOption> b) {
    TreeMap<Integer, Integer> pa = byLevel(a);
    TreeMap<Integer, Integer> pb = byLevel(b);
    for (Integer level : priorities.descendingKeySet()) {
      // pa/|a| against pb/|b|, cross-multiplied
      int c = Long.compare((long) pb.getOrDefault(level, 0) * pods(a), (long) pa.getOrDefault(level, 0) * pods(b));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private TreeMap<Integer, Integer> byLevel(List<ExpansionOption> plan) {
    TreeMap<Integer, Integer> out = new TreeMap<>();
    for (ExpansionOption o : plan) {
      for (Integer level : priorities.descendingKeySet()) {
        if (priorities.get(level).stream().anyMatch(p -> p.matcher(o.group().id()).find())) {
          out.merge(level, o.pods().size(), Integer::sum);
          break;
        }
      }
    }
    return out;
  }
}
