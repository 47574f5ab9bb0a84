package dev.headroom.core.scheduling;

import static dev.headroom.core.scheduling.Fixtures.node;
import static dev.headroom.core.scheduling.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BinpackingEstimatorTest {

  private final SchedulingCompiler compiler = new SchedulingCompiler();
  private final ClusterSnapshot snapshot = new ClusterSnapshot(compiler);
  private final CompiledNode template = compiler.compile(node("tmpl", "10", "10Gi", 110, "zone", "z1").build());

  private List<CompiledPod> pods(String prefix, int n, String cpu) {
    List<CompiledPod> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(compiler.compile(pod(prefix + i, cpu, "1Mi", "app", prefix).build()));
    }
    return out;
  }

  @Test
  void caRunOnceShapeFiftyPerNode() {
    List<CompiledPod> p = pods("w", 500, "200m");
    Estimate e = BinpackingEstimator.estimate(snapshot, template, PodClass.group(p), NodeLimiter.ofLimits(1000));
    assertThat(e.nodeCount()).isEqualTo(10);
    assertThat(e.scheduled()).hasSize(500);
    assertThat(e.nodesPerPodCount()).containsOnly(50);
    assertThat(snapshot.nodeCount()).isZero();
    assertThat(snapshot.depth()).isZero();
  }

  @Test
  void firstFitDecreasingFillsEarlierNodesWithSmallPods() {
    List<CompiledPod> all = new ArrayList<>(pods("small", 4, "1"));
    all.addAll(pods("big", 3, "6"));
    Estimate e = BinpackingEstimator.estimate(snapshot, template, PodClass.group(all), NodeLimiter.ofLimits(0));
    // Big pods (6 CPU) first on 3 nodes, then the 4 small ones fill the 4 CPU left on the first node(s).
    assertThat(e.nodeCount()).isEqualTo(3);
    assertThat(e.scheduled()).hasSize(7);
    assertThat(e.scheduled().get(0).name()).startsWith("big");
  }

  @Test
  void limiterStopsAndOversizedPodsAreLeftOut() {
    Estimate limited = BinpackingEstimator.estimate(snapshot, template, PodClass.group(pods("w", 100, "1")), NodeLimiter.ofLimits(3, 0, 5));
    assertThat(limited.nodeCount()).isEqualTo(3);
    assertThat(limited.scheduled()).hasSize(30);
    Estimate none = BinpackingEstimator.estimate(snapshot, template, PodClass.group(pods("w", 5, "1")), NodeLimiter.ofLimits(-1, 10));
    assertThat(none.nodeCount()).isZero();
    Estimate tooBig = BinpackingEstimator.estimate(snapshot, template, PodClass.group(pods("huge", 3, "11")), NodeLimiter.ofLimits(10));
    assertThat(tooBig.nodeCount()).isZero();
    assertThat(tooBig.scheduled()).isEmpty();
    assertThat(tooBig.nodesPerPodCount()).containsExactly(0);
  }

  @Test
  void hostnameAntiAffinityNeedsOneNodePerPod() {
    List<CompiledPod> p = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      p.add(compiler.compile(pod("a" + i, "100m", "1Mi", "app", "anti").editSpec().withNewAffinity().withNewPodAntiAffinity()
          .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey(CompiledNode.HOSTNAME_LABEL)
              .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "anti")).build()).build())
          .endPodAntiAffinity().endAffinity().endSpec().build()));
    }
    Estimate e = BinpackingEstimator.estimate(snapshot, template, PodClass.group(p), NodeLimiter.ofLimits(100));
    assertThat(e.nodeCount()).isEqualTo(7);
    assertThat(e.scheduled()).hasSize(7);
  }

  @Test
  void hostnameSpreadSeesOnlyExistingDomains() {
    List<CompiledPod> p = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      p.add(compiler.compile(pod("s" + i, "100m", "1Mi", "app", "s").editSpec().withTopologySpreadConstraints(
          new TopologySpreadConstraintBuilder().withMaxSkew(1).withTopologyKey(CompiledNode.HOSTNAME_LABEL)
              .withWhenUnsatisfiable("DoNotSchedule")
              .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "s")).build()).build())
          .endSpec().build()));
    }
    Estimate e = BinpackingEstimator.estimate(snapshot, template, PodClass.group(p), NodeLimiter.ofLimits(100));
    assertThat(e.scheduled()).hasSize(6);
    // Domains are the values on existing nodes only: with one template node the minimum is that node's own
    // count, so the skew never exceeds 1 and every pod lands there (CA behaves the same).
    assertThat(e.nodeCount()).isEqualTo(1);
    // With one more (empty) node in the snapshot, the skew bound forces alternation.
    snapshot.addNode(compiler.compile(node("existing", "10", "10Gi", 110).build()));
    Estimate two = BinpackingEstimator.estimate(snapshot, template, PodClass.group(p), NodeLimiter.ofLimits(100));
    assertThat(two.scheduled()).hasSize(6);
    assertThat(two.nodeCount()).isEqualTo(1);
    assertThat(two.nodesPerPodCount()).containsExactly(3);
  }

  @Test
  void forkRevertCommitRestoreState() {
    int n = snapshot.addNode(compiler.compile(node("n1", "2", "2Gi", 10, "zone", "z1").build()));
    CompiledPod a = compiler.compile(pod("a", "1", "1Gi", "app", "x").build());
    snapshot.addPod(a, n);
    snapshot.fork();
    snapshot.addPod(compiler.compile(pod("b", "1", "1Gi", "app", "x").build()), n);
    int m = snapshot.addNode(compiler.compile(node("n2", "2", "2Gi", 10).build()));
    assertThat(snapshot.requested(n, ResourceIds.CPU)).isEqualTo(2000);
    assertThat(snapshot.nodeCount()).isEqualTo(2);
    snapshot.fork();
    snapshot.removePod("uid-a");
    snapshot.removeNode(m);
    assertThat(snapshot.liveNodeCount()).isEqualTo(1);
    assertThat(snapshot.requested(n, ResourceIds.CPU)).isEqualTo(1000);
    snapshot.revert();
    assertThat(snapshot.requested(n, ResourceIds.CPU)).isEqualTo(2000);
    assertThat(snapshot.nodeIndex("n2")).isEqualTo(m);
    snapshot.commit();
    assertThat(snapshot.depth()).isZero();
    assertThat(snapshot.podCount()).isEqualTo(2);
    snapshot.fork();
    snapshot.removeNode(m);
    snapshot.revert();
    assertThat(snapshot.isRemoved(m)).isFalse();
    assertThat(snapshot.podsOn(n)).extracting(CompiledPod::name).containsExactly("a", "b");
  }

  @Test
  void equivalenceClassesGroupIdenticalPodsOnly() {
    List<CompiledPod> p = new ArrayList<>(pods("w", 3, "1"));
    p.add(compiler.compile(pod("other", "2", "1Mi", "app", "w").build()));
    p.add(compiler.compile(pod("virt", "1", "1Mi", "app", "w").editMetadata().addToAnnotations("podType", "capacityBufferFakePod").endMetadata().build()));
    List<PodClass> classes = PodClass.group(p);
    assertThat(classes).extracting(PodClass::size).containsExactly(3, 1, 1);
    assertThat(classes.get(2).isVirtual()).isTrue();
    assertThat(p.get(0).signature()).isEqualTo(p.get(1).signature());
    assertThat(p.get(0).signature()).isNotEqualTo(p.get(3).signature());
  }
}
