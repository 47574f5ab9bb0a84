package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.BitSet;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * A placement that skips the nodes its {@link NodeFilter} already refused against one that asks the same answers as a
 * plain {@link IntPredicate}: seeded clusters (spread, affinity, taints, removals), a filter that refuses a random
 * third of the nodes and changes every few placements (as a drain's does per candidate), pods removed between
 * placements so refused nodes often have room. Same placement for every pod.
 */
class KnownRefusalsTest {

  /** A filter over a random refused set, remembering what it answered since the last {@link #change}. */
  private static final class Refusing implements NodeFilter {
    final BitSet refused = new BitSet();
    final BitSet asked = new BitSet();
    int askedTotal;
    int skipped;

    void change(Random r, int nodes) {
      refused.clear();
      asked.clear();
      for (int i = 0; i < nodes; i++) {
        if (r.nextInt(3) == 0) {
          refused.set(i);
        }
      }
    }

    @Override
    public boolean test(int i) {
      askedTotal++;
      asked.set(i);
      return !refused.get(i);
    }

    @Override
    public boolean knownToRefuse(int i) {
      boolean known = asked.get(i) && refused.get(i);
      skipped += known ? 1 : 0;
      return known;
    }
  }

  @Test
  void skippingKnownRefusalsPlacesExactlyAsAskingEveryTime() {
    int skippedTotal = 0;
    for (long seed = 1; seed <= 30; seed++) {
      Random r = new Random(seed);
      SchedulingCompiler compiler = new SchedulingCompiler();
      ClusterSnapshot withSkips = new ClusterSnapshot(compiler);
      ClusterSnapshot asking = new ClusterSnapshot(compiler);
      int nodes = 8 + r.nextInt(60);
      for (int i = 0; i < nodes; i++) {
        CompiledNode n = compiler.compile(RandomClusters.node(r, "n" + i));
        withSkips.addNode(n);
        asking.addNode(n);
      }
      Refusing filter = new Refusing();
      filter.change(r, nodes);
      IntPredicate plain = i -> !filter.refused.get(i);
      Pod[] templates = new Pod[4];
      for (int t = 0; t < templates.length; t++) {
        templates[t] = RandomClusters.template(r);
      }
      java.util.List<String> placed = new java.util.ArrayList<>();
      for (int k = 0; k < 200; k++) {
        if (k % 7 == 0) {
          filter.change(r, nodes);
        }
        if (!placed.isEmpty() && r.nextInt(4) == 0) {
          // a pod leaves: its node has room again, for pods the filter may refuse it to
          String uid = placed.remove(r.nextInt(placed.size()));
          assertThat(withSkips.removePod(uid)).isEqualTo(asking.removePod(uid));
        }
        CompiledPod p = compiler.compile(RandomClusters.instance(templates[r.nextInt(templates.length)], "p" + seed + "-" + k));
        int a = withSkips.scheduleOnAnyNode(p, filter);
        int b = asking.scheduleOnAnyNode(p, plain);
        assertThat(a).as("seed %d pod %d", seed, k).isEqualTo(b);
        if (a >= 0) {
          placed.add(p.uid());
        }
      }
      skippedTotal += filter.skipped;
    }
    // the case the skip is for occurred: nodes refused earlier in a round were passed over without their predicates
    assertThat(skippedTotal).isPositive();
  }
}
