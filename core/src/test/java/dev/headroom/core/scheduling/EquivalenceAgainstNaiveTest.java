package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The indexed snapshot against the naive reference on seeded random clusters: same placements, same failures,
 * through adds, removals, forks, reverts and commits, on both paths: the plain one (every filter on every node) and
 * the memoised one ({@link PlacementMemos}). The class memos and the shape memos shared by classes of equal requests
 * (which a removal clears on its own node only) are both exercised.
 */
class EquivalenceAgainstNaiveTest {

  /** Seeds from 200 on draw templates of two request shapes, so classes share shape memos. */
  static Stream<Arguments> seeds() {
    return IntStream.range(0, 300).boxed().flatMap(seed -> Stream.of(Arguments.of(seed, true), Arguments.of(seed, false)));
  }

  @ParameterizedTest(name = "seed {0}, memoised {1}")
  @MethodSource("seeds")
  void samePlacementsAndFailures(int seed, boolean memoised) {
    Random r = new Random(seed);
    SchedulingCompiler compiler = new SchedulingCompiler();
    ClusterSnapshot fast = new ClusterSnapshot(compiler, memoised);
    NaiveScheduler naive = new NaiveScheduler(compiler);
    int nodes = 2 + r.nextInt(14);
    for (int i = 0; i < nodes; i++) {
      CompiledNode n = compiler.compile(RandomClusters.node(r, "n" + i));
      assertThat(fast.addNode(n)).isEqualTo(naive.addNode(n));
    }
    List<Pod> templates = new ArrayList<>();
    int t = 2 + r.nextInt(8);
    for (int i = 0; i < t; i++) {
      templates.add(RandomClusters.template(r, seed >= 200));
    }
    List<String> placed = new ArrayList<>();
    int steps = 40 + r.nextInt(80);
    int extraNodes = 0;
    for (int s = 0; s < steps; s++) {
      int op = r.nextInt(100);
      if (op < 70) {
        CompiledPod p = compiler.compile(RandomClusters.instance(templates.get(r.nextInt(t)), "p" + s));
        Placement got = fast.schedulePodOnAnyNode(p);
        int want = naive.schedule(p);
        assertThat(got.placed() ? ((Placement.Placed) got).nodeIndex() : -1).as("seed %d step %d pod %s", seed, s, p).isEqualTo(want);
        if (want >= 0) {
          placed.add(p.uid());
        }
      } else if (op < 78 && !placed.isEmpty()) {
        String uid = placed.remove(r.nextInt(placed.size()));
        assertThat(fast.removePod(uid)).isTrue();
        naive.removePod(uid);
      } else if (op < 84) {
        CompiledNode n = compiler.compile(RandomClusters.node(r, "x" + extraNodes++));
        assertThat(fast.addNode(n)).isEqualTo(naive.addNode(n));
      } else if (op < 90 && fast.depth() < 3) {
        fast.fork();
        naive.fork();
      } else if (op < 95 && fast.depth() > 0) {
        fast.revert();
        naive.revert();
        placed.removeIf(uid -> fast.nodeOfPod(uid) < 0);
      } else if (fast.depth() > 0) {
        fast.commit();
        naive.commit();
      }
      assertThat(fast.nodeCount()).isEqualTo(naive.nodes.size());
      if (s % 7 == 0) {
        compareChecks(seed, s, compiler, fast, naive, templates, r);
      }
    }
    compareChecks(seed, -1, compiler, fast, naive, templates, r);
    for (int i = 0; i < fast.nodeCount(); i++) {
      assertThat(fast.podsOn(i)).containsExactlyElementsOf(naive.nodes.get(i).pods);
    }
  }

  private static void compareChecks(
      int seed, int step, SchedulingCompiler compiler, ClusterSnapshot fast, NaiveScheduler naive, List<Pod> templates, Random r) {
    CompiledPod probe = compiler.compile(RandomClusters.instance(templates.get(r.nextInt(templates.size())), "probe"));
    // A template check without fork equals fork + add + check + revert.
    CompiledNode template = compiler.compile(RandomClusters.node(r, "template-" + step));
    FitResult onTemplate = fast.checkOnTemplate(probe, template);
    fast.fork();
    FitResult added = fast.check(probe, fast.addNode(template));
    fast.revert();
    assertThat(onTemplate).as("seed %d step %d template", seed, step).isEqualTo(added);
    for (int i = 0; i < fast.nodeCount(); i++) {
      FitResult got = fast.check(probe, i);
      String want = naive.check(probe, i);
      if (want == null) {
        assertThat(got.fits()).as("seed %d step %d node %d", seed, step, i).isTrue();
      } else {
        assertThat(got).as("seed %d step %d node %d: %s", seed, step, i, want).isInstanceOf(FitResult.Fails.class);
        assertThat(((FitResult.Fails) got).messages()).as("seed %d step %d node %d", seed, step, i).contains(want);
      }
    }
  }
}
