package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The shape of the upstream RunOnce scale-up benchmark as a functional test: one group whose template has
 * 10,000 mCPU and 10,000 bytes, pending pods of 200 mCPU / 200 bytes without a controller. Scaled down ten
 * times for the unit-test suite (5,000 pods → 100 nodes); the full 50,000-pod shape belongs to the benchmark.
 */
class RunOnceScaleUpShapeTest {

  @Test
  void fiveThousandPodsNeedOneHundredNodes() {
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.MAX_NODES_TOTAL, 10_000).set(AutoscalerOptions.MAX_NODES_PER_SCALEUP, 10_000).build();
    Fixtures.World w = new Fixtures.World();
    var t = Fixtures.template("ng", "10", "10000");
    t.getStatus().getAllocatable().put("pods", new Quantity("1000"));
    w.group(new NodeGroup("ng", 0, 10_000, 0, 1, Duration.ZERO, t, NodeGroupOptions.NONE));
    for (int i = 0; i < 5_000; i++) {
      Pod p = new PodBuilder().withNewMetadata().withName("p-" + i).withNamespace("default").withUid("uid-" + i)
          .endMetadata().withNewSpec().addNewContainer().withName("c").withNewResources()
          .addToRequests("cpu", new Quantity("200m")).addToRequests("memory", new Quantity("200")).endResources()
          .endContainer().endSpec().build();
      w.pods.add(Fixtures.unschedulable(p));
    }
    IterationResult r = w.autoscaler(o, new AutoscalerState(o)).runOnce(Fixtures.T0);
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.newTargetSize()).isEqualTo(100));
  }
}
