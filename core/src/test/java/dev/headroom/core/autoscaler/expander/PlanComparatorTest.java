package dev.headroom.core.autoscaler.expander;

import static dev.headroom.core.autoscaler.expander.ExpandersTest.group;
import static dev.headroom.core.autoscaler.expander.ExpandersTest.option;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.nodegroup.NodeGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PlanComparator} measures what the expanders measure: over one option each, it orders two options the way
 * the chain chooses between them; over several options, the sums.
 */
class PlanComparatorTest {

  static final Map<Integer, List<String>> PRIORITIES = Map.of(20, List.of("^a"), 10, List.of("^b"));
  static final String[] CPU = {"2", "4", "8", "16"};
  static final String[] MEM = {"4Gi", "8Gi", "16Gi", "32Gi"};

  /** Seeded random pairs of options: where the comparator says one is better, the chain chooses it. */
  @ParameterizedTest
  @ValueSource(strings = {"least-waste", "price", "least-nodes", "most-pods", "priority", "priority,least-waste", "most-pods,price"})
  void overOneOptionEachItOrdersAsTheChainChooses(String chain) {
    Random r = new Random(chain.hashCode());
    int decided = 0;
    for (int i = 0; i < 300; i++) {
      List<NodeGroup> groups = new ArrayList<>();
      List<ExpansionOption> options = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        String id = (k == 0 ? "a" : r.nextBoolean() ? "b" : "c") + k;
        NodeGroup g = group(id, CPU[r.nextInt(CPU.length)], MEM[r.nextInt(MEM.length)], 0.5 + r.nextInt(8), r.nextInt(5) == 0 ? "1" : null);
        groups.add(g);
        options.add(option(g, 1 + r.nextInt(4), 1 + r.nextInt(12), 250L * (1 + r.nextInt(8)), (256L << 20) * (1 + r.nextInt(8))));
      }
      PlanComparator comparator = new PlanComparator(chain, groups, PRIORITIES);
      int c = comparator.compare(List.of(options.get(0)), List.of(options.get(1)));
      assertThat(Integer.signum(comparator.compare(List.of(options.get(1)), List.of(options.get(0))))).isEqualTo(-Integer.signum(c));
      if (c == 0) {
        continue;
      }
      decided++;
      Expanders expanders = Expanders.create(chain, groups, PRIORITIES, new Random(i));
      ExpansionOption better = c < 0 ? options.get(0) : options.get(1);
      assertThat(expanders.choose(options)).as("%s: %s against %s", chain, comparator.describe(List.of(options.get(0))),
          comparator.describe(List.of(options.get(1)))).containsSame(better);
    }
    assertThat(decided).as("pairs the chain decides").isGreaterThan(100);
  }

  @ParameterizedTest
  @ValueSource(strings = {"least-waste", "price", "least-nodes", "most-pods"})
  void overSeveralOptionsTheSumsAreMeasured(String chain) {
    NodeGroup big = group("a", "8", "16Gi", 4, null);
    NodeGroup small = group("b", "2", "4Gi", 1, null);
    // both plans help 8 pods of 1 cpu / 2Gi: one 8-cpu node, or two 8-cpu nodes and a 2-cpu node (3 options)
    List<ExpansionOption> oneBig = List.of(option(big, 1, 8, 1000, 2L << 30));
    List<ExpansionOption> twoBig = List.of(option(big, 1, 4, 1000, 2L << 30), option(small, 1, 2, 1000, 2L << 30),
        option(group("c", "8", "16Gi", 4, null), 1, 2, 1000, 2L << 30));
    PlanComparator comparator = new PlanComparator(chain, List.of(big, small), Map.of());
    assertThat(LeastWasteExpander.waste(oneBig)).isEqualTo(0.0);
    assertThat(LeastWasteExpander.waste(twoBig)).isCloseTo(2 * (18.0 - 8) / 18, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(MostPodsExpander.pods(twoBig)).isEqualTo(8);
    assertThat(LeastNodesExpander.nodes(twoBig)).isEqualTo(3);
    int c = comparator.compare(oneBig, twoBig);
    if (chain.equals("most-pods")) {
      assertThat(c).isZero();
    } else {
      assertThat(c).isNegative();
    }
    assertThat(comparator.compare(oneBig, List.of())).isNegative();
    assertThat(comparator.compare(List.of(), List.of())).isZero();
  }
}
