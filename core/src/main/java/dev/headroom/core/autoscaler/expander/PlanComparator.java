package dev.headroom.core.autoscaler.expander;

import dev.headroom.core.nodegroup.NodeGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Two scale-ups (each the options one loop executes: one per group grown) compared by an expander chain's own
 * measures, expander by expander in chain order, the first that differs deciding: {@code most-pods} the pods helped
 * ({@link MostPodsExpander#pods}), {@code least-nodes} the nodes added ({@link LeastNodesExpander#nodes}),
 * {@code least-waste} the idle fraction of the added CPU plus that of the added memory
 * ({@link LeastWasteExpander#waste(List)}), {@code price} the price expander's score over the sum
 * ({@link PriceExpander#score(List)}), {@code priority} the share of the pods helped at each priority level, highest
 * level first ({@link PriorityExpander#priorityOf}); {@code random} ties. For one option each, the measures are the
 * expanders' scores of those options. Doubles within {@code 1e-9} are equal; a scale-up with no option is worse
 * than any other.
 */
public final class PlanComparator {

  private static final double EPS = 1e-9;

  private final List<String> chain;
  private final PriceExpander price;
  private final PriorityExpander priority;
  private final List<Integer> levels;

  /**
   * @param expander the chain specification ({@code --expander})
   * @param groups every configured group (the price expander's unit prices)
   * @param priorities the priority expander's configuration
   */
  public PlanComparator(String expander, List<NodeGroup> groups, Map<Integer, List<String>> priorities) {
    this.chain = Expanders.parse(expander);
    this.price = new PriceExpander(groups);
    this.priority = new PriorityExpander(priorities);
    this.levels = new ArrayList<>(new TreeMap<>(priorities).descendingKeySet());
  }

  /** Negative when {@code a} is better than {@code b} by the chain (first measure that differs), 0 when equal. */
  public int compare(List<ExpansionOption> a, List<ExpansionOption> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return Boolean.compare(a.isEmpty(), b.isEmpty());
    }
    for (String e : chain) {
      int c = switch (e) {
        case Expanders.MOST_PODS -> Integer.compare(MostPodsExpander.pods(b), MostPodsExpander.pods(a));
        case Expanders.LEAST_NODES -> Integer.compare(LeastNodesExpander.nodes(a), LeastNodesExpander.nodes(b));
        case Expanders.LEAST_WASTE -> compare(LeastWasteExpander.waste(a), LeastWasteExpander.waste(b));
        case Expanders.PRICE -> compare(price.score(a), price.score(b));
        case Expanders.PRIORITY -> comparePriorities(a, b);
        default -> 0;
      };
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** The options and every measure, for messages. */
  public String describe(List<ExpansionOption> plan) {
    List<String> parts = new ArrayList<>();
    for (ExpansionOption o : plan) {
      parts.add(o.group().id() + "+" + o.nodeCount() + "/" + o.pods().size() + "pods");
    }
    return String.format("%s (pods %d, nodes %d, waste %.4f, price %.4f)", parts, MostPodsExpander.pods(plan),
        LeastNodesExpander.nodes(plan), LeastWasteExpander.waste(plan), price.score(plan));
  }

  private static int compare(double x, double y) {
    return Math.abs(x - y) <= EPS ? 0 : Double.compare(x, y);
  }

  /**
   * The priority expander keeps the options of the highest level; over a plan, the share of its pods helped by
   * groups of each level, highest level first, larger is better (one option: its group's level); groups matching no
   * level rank lowest.
   */
  private int comparePriorities(List<ExpansionOption> a, List<ExpansionOption> b) {
    Map<Integer, Integer> pa = byLevel(a);
    Map<Integer, Integer> pb = byLevel(b);
    int na = MostPodsExpander.pods(a);
    int nb = MostPodsExpander.pods(b);
    for (Integer level : levels) {
      // pa/|a| against pb/|b|, cross-multiplied
      int c = Long.compare((long) pb.getOrDefault(level, 0) * na, (long) pa.getOrDefault(level, 0) * nb);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private Map<Integer, Integer> byLevel(List<ExpansionOption> plan) {
    Map<Integer, Integer> out = new TreeMap<>();
    for (ExpansionOption o : plan) {
      Integer level = priority.priorityOf(o.group().id());
      if (level != null) {
        out.merge(level, o.pods().size(), Integer::sum);
      }
    }
    return out;
  }
}
