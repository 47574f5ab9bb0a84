package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.node;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The snapshot's kept per-node sums equal the sums over the node's pods, as pods come and go. */
class NodeRequestsTest {

  private static SchedulingSimulation.NodeRequests summed(SnapshotSimulation sim, String node, boolean apart) {
    List<SchedulingSimulation.PodRequests> pods = new ArrayList<>();
    for (Pod p : sim.podsOn(node)) {
      pods.add(new SchedulingSimulation.PodRequests(p, sim.requests(p), VirtualPods.isVirtual(p)));
    }
    return SchedulingSimulation.NodeRequests.of(pods, apart);
  }

  @ParameterizedTest(name = "DaemonSets apart: {0}")
  @ValueSource(booleans = {false, true})
  void keptSumsMatchTheNodesPods(boolean apart) {
    SnapshotSimulation sim = new SnapshotSimulation();
    sim.addNode(node("n1", "g", "16", "64Gi", true, T0));
    Pod app = pod("app", "1500m", "3Gi", "n1");
    Pod ds = pod("ds", "100m", "200Mi", "n1");
    ds.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("DaemonSet")
        .withName("agent").withUid("agent-uid").withController(true).build()));
    Pod mirror = pod("mirror", "250m", "100Mi", "n1");
    mirror.getMetadata().setOwnerReferences(List.of());
    mirror.getMetadata().setAnnotations(Map.of("kubernetes.io/config.mirror", "x"));
    List<Pod> virtual = VirtualPods.build(buffer("b", "t", 2), podTemplate("t", "2", "4Gi"), 2);
    for (Pod p : List.of(app, ds, mirror)) {
      sim.addPod(p, "n1");
    }
    sim.fork();
    for (Pod v : virtual) {
      assertThat(sim.schedule(v, n -> true)).contains("n1");
    }
    assertThat(sim.requestsOn("n1", apart)).isEqualTo(summed(sim, "n1", apart));
    assertThat(sim.requestsOn("n1", apart).cpu()).isEqualTo(apart ? 1500 : 1850);
    sim.removePod(ds);
    sim.removePod(virtual.get(0));
    assertThat(sim.requestsOn("n1", apart)).isEqualTo(summed(sim, "n1", apart));
    sim.revert();
    assertThat(sim.requestsOn("n1", apart)).isEqualTo(summed(sim, "n1", apart));
  }

  @ParameterizedTest(name = "DaemonSets apart: {0}")
  @ValueSource(booleans = {false, true})
  void utilisationFromTheCompiledNodeEqualsTheGenericOne(boolean apart) {
    SnapshotSimulation sim = new SnapshotSimulation();
    io.fabric8.kubernetes.api.model.Node plain = node("n1", "g", "16", "64Gi", true, T0);
    io.fabric8.kubernetes.api.model.Node gpu = node("n2", "g", "8", "32Gi", true, T0);
    gpu.getStatus().getAllocatable().put(dev.headroom.core.autoscaler.scaledown.Utilization.GPU,
        new io.fabric8.kubernetes.api.model.Quantity("4"));
    io.fabric8.kubernetes.api.model.Node other = node("n3", "g", "4", "8Gi", true, T0);
    for (io.fabric8.kubernetes.api.model.Node n : List.of(plain, gpu)) {
      sim.addNode(n);
    }
    sim.addPod(pod("a", "3", "10Gi", "n1"), "n1");
    sim.addPod(pod("b", "500m", "30Gi", "n2"), "n2");
    for (io.fabric8.kubernetes.api.model.Node n : List.of(plain, gpu, other)) {
      String name = n.getMetadata().getName();
      var generic = dev.headroom.core.autoscaler.scaledown.Utilization.of(sim.requestsOn(name, apart),
          r -> sim.allocatableMilli(n, r));
      assertThat(sim.utilization(n, apart)).as(name).isEqualTo(generic);
    }
    assertThat(sim.utilization(gpu, apart).gpu()).isTrue();
    assertThat(sim.utilization(plain, apart).utilization()).isEqualTo(3.0 / 16);
  }
}
