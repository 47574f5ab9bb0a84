package dev.headroom.core.autoscaler.expander;

import java.util.List;
import java.util.Random;

/** {@code random}: one uniformly chosen option, from the loop's seeded random source. */
public final class RandomExpander implements Expander {
  private final Random random;

  public RandomExpander(Random random) {
    this.random = random;
  }

  @Override
  public String name() {
    return Expanders.RANDOM;
  }

  @Override
  public List<ExpansionOption> bestOptions(List<ExpansionOption> options) {
    return options.isEmpty() ? options : List.of(options.get(random.nextInt(options.size())));
  }
}
