package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A closed node ({@link ClusterSnapshot#closeNode}) against a filter that refuses it: seeded clusters (zones, spread,
 * affinity, taints), a random set of nodes closed and reopened as placements go, closures made in forks that are
 * reverted or committed. Same placement for every pod: closing takes the node out of placements only, its pods
 * still count for spread and inter-pod affinity.
 */
class ClosedNodesTest {

  @Test
  void aClosedNodeTakesNoPodAndCountsForEverythingElse() {
    int closedMattered = 0;
    for (long seed = 1; seed <= 30; seed++) {
      Random r = new Random(seed);
      SchedulingCompiler compiler = new SchedulingCompiler();
      ClusterSnapshot closing = new ClusterSnapshot(compiler);
      ClusterSnapshot filtering = new ClusterSnapshot(compiler);
      int nodes = 8 + r.nextInt(50);
      for (int i = 0; i < nodes; i++) {
        CompiledNode n = compiler.compile(RandomClusters.node(r, "n" + i));
        closing.addNode(n);
        filtering.addNode(n);
      }
      BitSet closed = new BitSet();
      BitSet closedBeforeFork = null;
      Pod[] templates = new Pod[4];
      for (int t = 0; t < templates.length; t++) {
        templates[t] = RandomClusters.template(r);
      }
      List<String> placed = new ArrayList<>();
      for (int k = 0; k < 200; k++) {
        int op = r.nextInt(10);
        if (op == 0) {
          int i = r.nextInt(nodes);
          closing.closeNode(i);
          closed.set(i);
        } else if (op == 1) {
          int i = r.nextInt(nodes);
          closing.reopenNode(i);
          closed.clear(i);
        } else if (op == 2 && closedBeforeFork == null) {
          closing.fork();
          filtering.fork();
          closedBeforeFork = (BitSet) closed.clone();
        } else if (op == 3 && closedBeforeFork != null) {
          if (r.nextBoolean()) {
            closing.commit();
            filtering.commit();
          } else {
            closing.revert();
            filtering.revert();
            closed = closedBeforeFork;
            placed.removeIf(uid -> closing.nodeOfPod(uid) < 0);
          }
          closedBeforeFork = null;
        } else if (op == 4 && !placed.isEmpty()) {
          String uid = placed.remove(r.nextInt(placed.size()));
          assertThat(closing.removePod(uid)).isEqualTo(filtering.removePod(uid));
        }
        for (int i = 0; i < nodes; i++) {
          assertThat(closing.isClosed(i)).as("seed %d step %d node %d", seed, k, i).isEqualTo(closed.get(i));
        }
        CompiledPod p = compiler.compile(RandomClusters.instance(templates[r.nextInt(templates.length)], "p" + seed + "-" + k));
        BitSet refused = closed;
        int withoutClosure = new ClusterSnapshotProbe(filtering).firstFitIgnoringFilter(p);
        int a = closing.scheduleOnAnyNode(p, null);
        int b = filtering.scheduleOnAnyNode(p, i -> !refused.get(i));
        assertThat(a).as("seed %d pod %d", seed, k).isEqualTo(b);
        if (a >= 0) {
          placed.add(p.uid());
        }
        if (withoutClosure >= 0 && refused.get(withoutClosure)) {
          closedMattered++;
        }
      }
    }
    // the case closing is for occurred: a pod would have gone to a closed node
    assertThat(closedMattered).isPositive();
  }

  /** Where a pod would go with no filter, asked without placing it (a fork placed in and reverted). */
  private record ClusterSnapshotProbe(ClusterSnapshot s) {
    int firstFitIgnoringFilter(CompiledPod p) {
      s.fork();
      try {
        return s.scheduleOnAnyNode(p, null);
      } finally {
        s.revert();
      }
    }
  }
}
