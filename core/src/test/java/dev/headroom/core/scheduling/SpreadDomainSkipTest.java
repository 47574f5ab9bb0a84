package dev.headroom.core.scheduling;

import static dev.headroom.core.scheduling.Fixtures.node;
import static dev.headroom.core.scheduling.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The placement's skip of a spread domain that already failed PodTopologySpread ({@code PlacementMemos.firstFit} with
 * {@code ClusterSnapshot.spreadDomain}) against the plain path (every filter on every node): seeded clusters where one
 * zone holds most nodes, so zonal spread pods meet many nodes of a failed domain in one placement.
 */
class SpreadDomainSkipTest {

  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String[] ZONES = {"a", "a", "a", "a", "b", "c"};

  @Test
  void zonalSpreadPlacesExactlyAsThePlainPath() {
    int skippedSomewhere = 0;
    for (long seed = 1; seed <= 40; seed++) {
      Random r = new Random(seed);
      SchedulingCompiler compiler = new SchedulingCompiler();
      ClusterSnapshot memo = new ClusterSnapshot(compiler);
      ClusterSnapshot plain = new ClusterSnapshot(compiler, false);
      int nodes = 10 + r.nextInt(80);
      for (int i = 0; i < nodes; i++) {
        String cpu = (1 + r.nextInt(4)) + "";
        var n = r.nextInt(15) == 0 ? node("n" + i, cpu, "16Gi", 20) : node("n" + i, cpu, "16Gi", 20, ZONE, ZONES[r.nextInt(ZONES.length)]);
        CompiledNode c = compiler.compile(n.build());
        memo.addNode(c);
        plain.addNode(c);
      }
      List<CompiledPod> pods = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        String app = r.nextBoolean() ? "x" : "y";
        PodBuilder b = pod("p" + i, (100 * (1 + r.nextInt(15))) + "m", "100Mi", "app", app);
        int constraints = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(2);
        var spec = b.editSpec();
        for (int k = 0; k < constraints; k++) {
          spec.addToTopologySpreadConstraints(new TopologySpreadConstraintBuilder().withTopologyKey(ZONE)
              .withMaxSkew(1 + r.nextInt(2)).withWhenUnsatisfiable("DoNotSchedule")
              .withMinDomains(r.nextInt(4) == 0 ? 1 + r.nextInt(4) : null)
              .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", r.nextBoolean() ? app : "x")).build())
              .build());
        }
        pods.add(compiler.compile(spec.endSpec().build()));
      }
      int placedOutsideZoneA = 0;
      for (CompiledPod p : pods) {
        Placement a = memo.schedulePodOnAnyNode(p);
        Placement b = plain.schedulePodOnAnyNode(p);
        assertThat(a).as("seed %d pod %s", seed, p.name()).isEqualTo(b);
        if (a instanceof Placement.Placed on && !p.spread().isEmpty() && !"a".equals(memo.node(on.nodeIndex()).labels().get(ZONE))) {
          placedOutsideZoneA++;
        }
      }
      if (placedOutsideZoneA > 0) {
        skippedSomewhere++;
      }
    }
    // the case the skip is for occurred: spread pods went past zone a's nodes to the smaller zones
    assertThat(skippedSomewhere).isPositive();
  }
}
