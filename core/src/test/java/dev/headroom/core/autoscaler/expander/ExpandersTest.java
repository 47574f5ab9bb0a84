package dev.headroom.core.autoscaler.expander;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExpandersTest {

  static NodeGroup group(String id, String cpu, String mem, double price, String gpu) {
    var cap = new java.util.TreeMap<String, Quantity>(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(mem)));
    if (gpu != null) {
      cap.put("nvidia.com/gpu", new Quantity(gpu));
    }
    return new NodeGroup(id, 0, 100, 0, price, Duration.ZERO,
        new NodeBuilder().withNewMetadata().withName(id).endMetadata().withNewStatus().withCapacity(cap).withAllocatable(cap).endStatus().build(),
        NodeGroupOptions.NONE);
  }

  static ExpansionOption option(NodeGroup g, int nodes, int pods, long cpuMilli, long memBytes) {
    List<Pod> ps = new ArrayList<>();
    List<Map<String, Long>> reqs = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      ps.add(new Pod());
      reqs.add(Map.of("cpu", cpuMilli, "memory", memBytes * 1000));
    }
    return new ExpansionOption(g, nodes, ps, reqs);
  }

  @Test
  void leastWasteSumsCpuAndMemoryFractionsOfCapacity() {
    // 4 pods of 1 cpu / 1Gi: on 1 × (4 cpu, 8Gi) waste = 0 + 0.5; on 1 × (8, 4Gi) waste = 0.5 + 0.
    ExpansionOption a = option(group("a", "4", "8Gi", 1, null), 1, 4, 1000, 1L << 30);
    ExpansionOption b = option(group("b", "8", "4Gi", 1, null), 1, 4, 1000, 1L << 30);
    ExpansionOption c = option(group("c", "4", "4Gi", 1, null), 1, 4, 1000, 1L << 30);
    assertThat(LeastWasteExpander.waste(a)).isEqualTo(0.5);
    assertThat(LeastWasteExpander.waste(c)).isEqualTo(0.0);
    assertThat(new LeastWasteExpander().bestOptions(List.of(a, b, c))).containsExactly(c);
    assertThat(new LeastWasteExpander().bestOptions(List.of(a, b))).containsExactly(a, b);
  }

  @Test
  void mostPodsAndLeastNodes() {
    ExpansionOption a = option(group("a", "4", "8Gi", 1, null), 2, 5, 1, 1);
    ExpansionOption b = option(group("b", "4", "8Gi", 1, null), 1, 3, 1, 1);
    ExpansionOption zero = option(group("z", "4", "8Gi", 1, null), 0, 3, 1, 1);
    assertThat(new MostPodsExpander().bestOptions(List.of(a, b))).containsExactly(a);
    assertThat(new LeastNodesExpander().bestOptions(List.of(a, b, zero))).containsExactly(b);
  }

  @Test
  void priorityUsesUnanchoredRegexAndPassesThroughWhenNothingMatches() {
    ExpansionOption spot = option(group("ng-spot-a", "4", "8Gi", 1, null), 1, 1, 1, 1);
    ExpansionOption od = option(group("ng-on-demand", "4", "8Gi", 1, null), 1, 1, 1, 1);
    Map<Integer, List<String>> cfg = PriorityExpander.parseConfig("10:\n  - .*on-demand.*\n50:\n  - spot\n");
    assertThat(cfg).containsEntry(50, List.of("spot"));
    assertThat(new PriorityExpander(cfg).bestOptions(List.of(spot, od))).containsExactly(spot);
    assertThat(new PriorityExpander(Map.of(1, List.of("gpu"))).bestOptions(List.of(spot, od))).containsExactly(spot, od);
    assertThat(new PriorityExpander(Map.of(1, List.of("("))).bestOptions(List.of(spot, od))).containsExactly(spot, od);
  }

  @Test
  void pricePrefersCheaperAndPenalisesUnusedAccelerators() {
    NodeGroup cheap = group("cheap", "8", "32Gi", 0.4, null);
    NodeGroup dear = group("dear", "8", "32Gi", 0.8, null);
    NodeGroup gpu = group("gpu", "8", "32Gi", 0.4, "4");
    PriceExpander p = new PriceExpander(List.of(cheap, dear, gpu));
    ExpansionOption c = option(cheap, 1, 4, 2000, 8L << 30);
    ExpansionOption d = option(dear, 1, 4, 2000, 8L << 30);
    ExpansionOption g = option(gpu, 1, 4, 2000, 8L << 30);
    assertThat(p.score(g)).isEqualTo(p.score(c) * 1000);
    assertThat(p.bestOptions(List.of(d, g, c))).containsExactly(c);
  }

  @Test
  void chainStopsAtOneOptionAndRandomIsSeeded() {
    ExpansionOption a = option(group("a", "4", "4Gi", 1, null), 1, 4, 1000, 1L << 30);
    ExpansionOption b = option(group("b", "4", "4Gi", 1, null), 1, 4, 1000, 1L << 30);
    Expanders chain = Expanders.create("priority,least-waste", List.of(a.group(), b.group()), Map.of(5, List.of("^b$")), new Random(1));
    assertThat(chain.choose(List.of(a, b))).contains(b);
    ExpansionOption first = Expanders.create("least-waste", List.of(), Map.of(), new Random(7)).choose(List.of(a, b)).orElseThrow();
    ExpansionOption again = Expanders.create("least-waste", List.of(), Map.of(), new Random(7)).choose(List.of(a, b)).orElseThrow();
    assertThat(first).isSameAs(again);
  }

  @Test
  void chainSyntax() {
    assertThat(Expanders.parse("priority,least-waste")).containsExactly("priority", "least-waste");
    assertThatThrownBy(() -> Expanders.parse("random,price")).hasMessageContaining("last");
    assertThatThrownBy(() -> Expanders.parse("price,price")).hasMessageContaining("more than once");
    assertThatThrownBy(() -> Expanders.parse("grpc")).hasMessageContaining("unknown expander");
  }
}
