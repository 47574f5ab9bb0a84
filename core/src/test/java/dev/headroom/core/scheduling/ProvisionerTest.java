package dev.headroom.core.scheduling;

import static dev.headroom.core.scheduling.Fixtures.node;
import static dev.headroom.core.scheduling.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provisioning pass's two orders ({@link Provisioner.Order}). */
class ProvisionerTest {

  private final SchedulingCompiler compiler = new SchedulingCompiler();
  private final ClusterSnapshot snapshot = new ClusterSnapshot(compiler);
  /** A catalogue of 1, 2, 4 and 8 CPU. */
  private final List<CompiledNode> templates = List.of(
      compiler.compile(node("t1", "1", "64Gi", 110).build()),
      compiler.compile(node("t2", "2", "64Gi", 110).build()),
      compiler.compile(node("t4", "4", "64Gi", 110).build()),
      compiler.compile(node("t8", "8", "64Gi", 110).build()));
  private final boolean[] open = {true, true, true, true};

  private CompiledPod alone(String name, String cpu) {
    return compiler.compile(pod(name, cpu, "1Mi", "app", "alone").editSpec().withNewAffinity().withNewPodAntiAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey(CompiledNode.HOSTNAME_LABEL)
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "alone")).build()).build())
        .endPodAntiAffinity().endAffinity().endSpec().build());
  }

  /** Four pods that need a node each (500m) and four generic pods (1500m). */
  private List<CompiledPod> pods() {
    List<CompiledPod> out = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      out.add(compiler.compile(pod("g" + i, "1500m", "1Mi", "app", "generic").build()));
      out.add(alone("a" + i, "500m"));
    }
    return out;
  }

  private Provisioner.Result run(Provisioner.Order order) {
    return new Provisioner(snapshot, templates, open, 100, Provisioner.Preference.LARGEST, order).run(pods());
  }

  /** CPU of the smallest candidate of each node (what an expander by price or waste resolves it to), summed. */
  private long provisionedMilliCpu(Provisioner.Result r) {
    long sum = 0;
    for (Provisioner.NewNode n : r.nodes()) {
      long smallest = Long.MAX_VALUE;
      for (int c : n.candidates()) {
        smallest = Math.min(smallest, templates.get(c).allocatable(ResourceIds.CPU));
      }
      sum += smallest;
    }
    return sum;
  }

  @Test
  void aPodThatSelectsItselfByHostnameAntiAffinityNeedsANodeOfItsOwn() {
    assertThat(Provisioner.needsOwnNode(alone("a", "1"))).isTrue();
    assertThat(Provisioner.needsOwnNode(compiler.compile(pod("g", "1", "1Mi", "app", "alone").build()))).isFalse();
    // the same term on a pod it does not select: it keeps other pods away, not pods like itself
    CompiledPod other = compiler.compile(pod("o", "1", "1Mi", "app", "other").editSpec().withNewAffinity().withNewPodAntiAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey(CompiledNode.HOSTNAME_LABEL)
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "alone")).build()).build())
        .endPodAntiAffinity().endAffinity().endSpec().build());
    assertThat(Provisioner.needsOwnNode(other)).isFalse();
  }

  @Test
  void descendingOrderLeavesThePodsThatNeedANodeAloneOnNodesOfTheirOwn() {
    Provisioner.Result r = run(Provisioner.Order.DESCENDING);
    // the generic pods open an 8-CPU node and fill it with one of the others; three nodes hold 500m each
    assertThat(r.unplaced()).isEmpty();
    assertThat(r.nodes()).hasSize(4);
    assertThat(r.nodes().get(0).pods()).hasSize(5);
    assertThat(provisionedMilliCpu(r)).isEqualTo(8_000 + 3 * 1_000);
    assertThat(snapshot.nodeCount()).isZero();
  }

  @Test
  void ownNodesFirstFillsTheNodesThatMustExistAndProvisionsLess() {
    Provisioner.Result r = run(Provisioner.Order.OWN_NODES_FIRST);
    // the even share is (4 × 500m + 4 × 1500m) / 4 = 2 CPU: each pod that needs a node opens a 2-CPU one, and each
    // generic pod fills the 1.5 CPU left on one of them
    assertThat(r.unplaced()).isEmpty();
    assertThat(r.nodes()).hasSize(4);
    for (Provisioner.NewNode n : r.nodes()) {
      assertThat(n.pods()).extracting(CompiledPod::name).hasSize(2).anyMatch(s -> s.startsWith("a")).anyMatch(s -> s.startsWith("g"));
      assertThat(n.representative()).isEqualTo(1);
      assertThat(n.candidates()).containsExactly(1, 2, 3);
    }
    assertThat(provisionedMilliCpu(r)).isEqualTo(8_000);
    assertThat(snapshot.nodeCount()).isZero();
  }

  @Test
  void withoutPodsThatNeedANodeAloneBothOrdersAgree() {
    List<CompiledPod> generic = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      generic.add(compiler.compile(pod("g" + i, (i % 3 + 1) * 500 + "m", "1Mi", "app", "generic").build()));
    }
    Provisioner.Result a = new Provisioner(snapshot, templates, open, 100, Provisioner.Preference.LARGEST, Provisioner.Order.DESCENDING).run(generic);
    Provisioner.Result b = new Provisioner(snapshot, templates, open, 100, Provisioner.Preference.LARGEST, Provisioner.Order.OWN_NODES_FIRST).run(generic);
    assertThat(b.nodes()).hasSameSizeAs(a.nodes());
    for (int k = 0; k < a.nodes().size(); k++) {
      assertThat(b.nodes().get(k).pods()).isEqualTo(a.nodes().get(k).pods());
      assertThat(b.nodes().get(k).candidates()).isEqualTo(a.nodes().get(k).candidates());
    }
  }
}
