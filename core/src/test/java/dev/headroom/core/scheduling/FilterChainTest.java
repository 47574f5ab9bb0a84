package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Filter phase as composed by {@link FilterChain}: its order, its reasons, and its first-failure rule. */
class FilterChainTest {

  /** A chain over no topology counts (every domain count 0). */
  private static FilterChain chain(SchedulingCompiler compiler) {
    TopologyCounters topology = new TopologyCounters(compiler, new NodeStore(compiler.resources()));
    return new FilterChain(compiler, topology, def -> new DomainCounts());
  }

  @Test
  void filtersRunInTheSpecsOrder() {
    assertThat(chain(new SchedulingCompiler()).filters())
        .extracting(Filter::name)
        .containsExactly(
            "NodeUnschedulable",
            "NodeName",
            "TaintToleration",
            "NodeAffinity",
            "NodePorts",
            "NodeResourcesFit",
            "InterPodAffinity",
            "PodTopologySpread");
  }

  @Test
  void everyReasonButUnsupportedBelongsToExactlyOneFilter() {
    List<Reason> claimed = new ArrayList<>();
    for (Filter f : chain(new SchedulingCompiler()).filters()) {
      claimed.addAll(f.reasons());
    }
    Set<Reason> expected = EnumSet.allOf(Reason.class);
    expected.remove(Reason.UNSUPPORTED);
    assertThat(claimed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * On seeded random template nodes (index -1: not in a store) and pods, each node filling up with the pods that fit
   * it, the chain's answer is the first failing filter's in {@link FilterChain#filters()} order, with the same
   * messages, and the same reason when no messages are collected.
   */
  @Test
  void firstFailureIsTheFirstFailingFilterOfTheList() {
    Map<Reason, Integer> seen = new EnumMap<>(Reason.class);
    int passes = 0;
    for (int seed = 0; seed < 60; seed++) {
      Random r = new Random(seed);
      SchedulingCompiler compiler = new SchedulingCompiler();
      FilterChain chain = chain(compiler);
      List<CompiledPod> pods = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        CompiledPod p = compiler.compile(RandomClusters.instance(RandomClusters.template(r), "p" + t));
        if (p.isSupported()) {
          pods.add(p);
        }
      }
      for (int n = 0; n < 8; n++) {
        CompiledNode node = compiler.compile(RandomClusters.node(r, "n" + n));
        NodeState aggregates = new NodeState(new long[compiler.resources().size()]);
        for (int k = 0; k < 3; k++) {
          for (CompiledPod template : pods) {
            CompiledPod p = compiler.compile(RandomClusters.instance(template.pod(), template.name() + "-" + n + "-" + k));
            PreFilterState state = chain.preFilter(p);
            List<String> messages = new ArrayList<>();
            Reason got = chain.firstFailure(p, state, -1, node, aggregates, messages);
            Reason want = null;
            List<String> wantMessages = new ArrayList<>();
            for (Filter f : chain.filters()) {
              want = f.filter(p, state, -1, node, aggregates, wantMessages);
              if (want != null) {
                break;
              }
            }
            assertThat(got).as("seed %d pod %s node %s", seed, p, node.name()).isEqualTo(want);
            assertThat(messages).isEqualTo(wantMessages);
            assertThat(chain.firstFailure(p, state, -1, node, aggregates, null)).isEqualTo(want);
            if (want == null) {
              aggregates.add(p);
              passes++;
            } else {
              seen.merge(want, 1, Integer::sum);
            }
          }
        }
      }
    }
    assertThat(passes).isPositive();
    assertThat(seen.keySet()).as("reasons exercised").hasSizeGreaterThanOrEqualTo(4);
  }
}
