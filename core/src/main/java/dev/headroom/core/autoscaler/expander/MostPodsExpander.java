package dev.headroom.core.autoscaler.expander;

import java.util.List;

/** {@code most-pods}: keeps the options that help the most pods. */
public final class MostPodsExpander implements Expander {
  @Override
  public String name() {
    return Expanders.MOST_PODS;
  }

  /** The pods several options executed together help (one option: its pods). */
  public static int pods(List<ExpansionOption> plan) {
    int n = 0;
    for (ExpansionOption o : plan) {
      n += o.pods().size();
    }
    return n;
  }

  @Override
  public List<ExpansionOption> bestOptions(List<ExpansionOption> options) {
    int max = options.stream().mapToInt(o -> o.pods().size()).max().orElse(0);
    return options.stream().filter(o -> o.pods().size() == max).toList();
  }
}
