package dev.headroom.core.autoscaler.expander;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PriceExpander}'s memo of the last request list's value against the plain path (every option's pods valued
 * afresh): seeded random catalogues and choices, some whose options share one request list (the candidates of one
 * provisioning-pass node), some with a list each, in random order.
 */
class PriceExpanderMemoTest {

  @Test
  void theMemoScoresAndChoosesAsThePlainPath() {
    for (long seed = 1; seed <= 200; seed++) {
      Random r = new Random(seed);
      List<NodeGroup> groups = new ArrayList<>();
      int n = 1 + r.nextInt(12);
      for (int i = 0; i < n; i++) {
        groups.add(ExpandersTest.group("g" + i, (1 + r.nextInt(16)) + "", (1 + r.nextInt(64)) + "Gi", 0.1 + r.nextInt(100) / 10.0,
            r.nextInt(5) == 0 ? "1" : null));
      }
      PriceExpander memo = new PriceExpander(groups, true);
      PriceExpander plain = new PriceExpander(groups, false);
      for (int choice = 0; choice < 20; choice++) {
        List<ExpansionOption> options = new ArrayList<>();
        boolean shared = r.nextBoolean();
        List<Pod> pods = new ArrayList<>();
        List<Map<String, Long>> requests = new ArrayList<>();
        fill(r, pods, requests);
        for (NodeGroup g : groups) {
          if (r.nextInt(4) == 0) {
            continue;
          }
          if (!shared) {
            pods = new ArrayList<>();
            requests = new ArrayList<>();
            fill(r, pods, requests);
          }
          options.add(new ExpansionOption(g, 1 + r.nextInt(3), pods, requests));
        }
        if (options.isEmpty()) {
          continue;
        }
        java.util.Collections.shuffle(options, r);
        for (ExpansionOption o : options) {
          assertThat(memo.score(o)).as("seed %d", seed).isEqualTo(plain.score(o));
        }
        assertThat(memo.bestOptions(options)).as("seed %d", seed).isEqualTo(plain.bestOptions(options));
        assertThat(memo.score(options)).as("seed %d", seed).isEqualTo(plain.score(options));
      }
    }
  }

  private static void fill(Random r, List<Pod> pods, List<Map<String, Long>> requests) {
    int k = 1 + r.nextInt(6);
    for (int i = 0; i < k; i++) {
      pods.add(new Pod());
      requests.add(r.nextInt(6) == 0
          ? Map.of("cpu", 100L * (1 + r.nextInt(40)), "memory", (1L << 20) * (1 + r.nextInt(4096)) * 1000, "nvidia.com/gpu", 1000L)
          : Map.of("cpu", 100L * (1 + r.nextInt(40)), "memory", (1L << 20) * (1 + r.nextInt(4096)) * 1000));
    }
  }
}
