package dev.headroom.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.buffer.NewestPods;
import dev.headroom.core.buffer.SelectorExpression;
import dev.headroom.sim.adapters.NewestLivePods;
import dev.headroom.sim.engine.EventQueue;
import dev.headroom.sim.engine.VirtualClock;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulator's incremental newest pod ({@link NewestLivePods}, a core tracker fed by the cluster's pod list
 * changes) against the core rule over a fresh list, while pods are created (with equal times and equal names),
 * deleted and marked for deletion in several label groups and namespaces.
 */
class NewestLivePodsTest {

  private static final List<SelectorExpression> SELECTORS = List.of(SelectorExpression.parse("app=a"),
      SelectorExpression.parse("app in (a,b)"), SelectorExpression.parse("app"), SelectorExpression.parse("app!=a"),
      SelectorExpression.parse("tier=web"), SelectorExpression.parse("app=none"));
  private static final List<Map<String, String>> LABELS = List.of(Map.of("app", "a"), Map.of("app", "b"),
      Map.of("app", "a", "tier", "web"), Map.of("tier", "web"), Map.of("app", "c"));

  static LongStream seeds() {
    return LongStream.range(1, 26);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void trackedNewestEqualsTheRuleOverTheListedPods(long seed) {
    Random r = new Random(seed);
    EventQueue events = new EventQueue(new VirtualClock());
    SimCluster cluster = new SimCluster(events, (pod, wait, bound) -> {});
    List<SimPod> live = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      live.add(create(cluster, r, true));
    }
    NewestLivePods newest = new NewestLivePods(cluster);
    for (int step = 0; step < 250; step++) {
      int op = r.nextInt(10);
      if (op < 4) {
        live.add(create(cluster, r, false));
      } else if (op < 7 && !live.isEmpty()) {
        cluster.deletePod(live.remove(r.nextInt(live.size())));
      } else if (op < 8 && !live.isEmpty()) {
        live.get(r.nextInt(live.size())).markVictim(VirtualClock.at(events.clock().millis()).toString());
      } else {
        events.runUntil(events.clock().millis() + r.nextInt(3) * 500L);
      }
      // ask only sometimes, so that selectors start being tracked at different times
      if (r.nextInt(3) == 0) {
        for (SelectorExpression s : SELECTORS) {
          for (String ns : List.of("default", "other")) {
            List<Pod> listed = NewestLivePods.listed(cluster, ns, s).stream().map(SimPod::pod).toList();
            assertThat(newest.newest(ns, s).orElse(null)).as("step %d %s %s", step, ns, s.requirements())
                .isSameAs(NewestPods.of(listed).orElse(null));
          }
        }
      }
    }
  }

  private static SimPod create(SimCluster cluster, Random r, boolean preexisting) {
    String ns = r.nextInt(5) == 0 ? "other" : "default";
    String owner = "rs" + r.nextInt(3);
    return cluster.createPod(SimPod.Origin.WORKLOAD, owner, ns, LABELS.get(r.nextInt(LABELS.size())), new PodSpec(), 0,
        "ReplicaSet", owner, "uid-" + owner, "s" + r.nextInt(4), preexisting);
  }
}
