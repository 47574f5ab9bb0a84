package dev.headroom.core.autoscaler.expander;

import dev.headroom.core.nodegroup.NodeGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Builds and runs an expander chain ({@code --expander=priority,least-waste}): each expander filters to its
 * best options, the chain stops as soon as one option is left, and remaining ties go to a seeded
 * {@code random} choice. A name may appear only once and nothing may follow {@code random}.
 */
public final class Expanders {

  public static final String RANDOM = "random";
  public static final String MOST_PODS = "most-pods";
  public static final String LEAST_WASTE = "least-waste";
  public static final String LEAST_NODES = "least-nodes";
  public static final String PRICE = "price";
  public static final String PRIORITY = "priority";

  /** Every supported name. */
  public static final List<String> NAMES = List.of(RANDOM, MOST_PODS, LEAST_WASTE, LEAST_NODES, PRICE, PRIORITY);

  private final List<Expander> chain;
  private final Random random;

  private Expanders(List<Expander> chain, Random random) {
    this.chain = chain;
    this.random = random;
  }

  /**
   * Validates a chain specification.
   *
   * @return the names in order
   * @throws IllegalArgumentException for unknown names, duplicates, or anything after {@code random}
   */
  public static List<String> parse(String spec) {
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String raw : spec.split(",")) {
      String n = raw.trim();
      if (!NAMES.contains(n)) {
        throw new IllegalArgumentException("unknown expander \"" + n + "\" (known: " + String.join(", ", NAMES) + ")");
      }
      if (!seen.add(n)) {
        throw new IllegalArgumentException("expander \"" + n + "\" appears more than once");
      }
      if (!names.isEmpty() && names.get(names.size() - 1).equals(RANDOM)) {
        throw new IllegalArgumentException("random must be the last expander in the chain");
      }
      names.add(n);
    }
    return names;
  }

  /**
   * Creates the chain for one loop.
   *
   * @param spec comma-separated expander names
   * @param allGroups every configured group (the {@code price} expander derives unit prices from them)
   * @param priorities the priority expander's configuration (priority → regexes); empty = pass-through
   * @param random the loop's seeded random source
   */
  public static Expanders create(String spec, List<NodeGroup> allGroups, Map<Integer, List<String>> priorities, Random random) {
    List<Expander> chain = new ArrayList<>();
    for (String n : parse(spec)) {
      chain.add(
          switch (n) {
            case RANDOM -> new RandomExpander(random);
            case MOST_PODS -> new MostPodsExpander();
            case LEAST_WASTE -> new LeastWasteExpander();
            case LEAST_NODES -> new LeastNodesExpander();
            case PRICE -> new PriceExpander(allGroups);
            default -> new PriorityExpander(priorities);
          });
    }
    return new Expanders(chain, random);
  }

  /** The chosen option, or empty when there is none. */
  public Optional<ExpansionOption> choose(List<ExpansionOption> options) {
    List<ExpansionOption> current = options;
    if (current.isEmpty()) {
      return Optional.empty();
    }
    for (Expander e : chain) {
      current = e.bestOptions(current);
      if (current.size() == 1) {
        return Optional.of(current.get(0));
      }
    }
    return Optional.of(current.get(random.nextInt(current.size())));
  }
}
