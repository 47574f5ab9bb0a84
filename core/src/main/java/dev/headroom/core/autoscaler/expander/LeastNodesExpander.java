package dev.headroom.core.autoscaler.expander;

import java.util.List;

/** {@code least-nodes}: keeps the options that add the fewest nodes, ignoring options with zero nodes. */
public final class LeastNodesExpander implements Expander {
  @Override
  public String name() {
    return Expanders.LEAST_NODES;
  }

  /** The nodes several options executed together add (one option: its node count). */
  public static int nodes(List<ExpansionOption> plan) {
    int n = 0;
    for (ExpansionOption o : plan) {
      n += o.nodeCount();
    }
    return n;
  }

  @Override
  public List<ExpansionOption> bestOptions(List<ExpansionOption> options) {
    int min = options.stream().mapToInt(ExpansionOption::nodeCount).filter(n -> n > 0).min().orElse(-1);
    if (min < 0) {
      return options;
    }
    return options.stream().filter(o -> o.nodeCount() == min).toList();
  }
}
