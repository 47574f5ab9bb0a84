package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.memory.RecordingEventSink;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The RunOnce scale-up shape (scaled down to 2,000 pods) through the in-memory ports: the whole plan, not just the
 * target size, and the same plan whether the pods share one spec object (compiled once) or each has its own.
 */
class RunOnceScaleUpPlanTest {

  private static final int PODS = 2_000;

  @Test
  void planIsTheSameForSharedAndSeparateSpecs() {
    IterationResult separate = run(pods(false));
    IterationResult shared = run(pods(true));

    for (IterationResult r : List.of(separate, shared)) {
      // 200m / 200 bytes against 10 CPU / 10,000 bytes: 50 pods a node, 2,000 pods → 40 nodes.
      assertThat(r.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpSuccessful);
      assertThat(r.scaleUp()).containsExactly(new IterationResult.ScaleUpDecision("ng", 40, 0, 40, 10_000, PODS, 0));
      assertThat(r.pendingPods()).isEqualTo(new IterationResult.PendingPods(PODS, 0, 0, PODS, 0));
      assertThat(r.unschedulablePods()).isEmpty();
      assertThat(r.scaleDown()).isEmpty();
      List<EventRecord> podEvents = r.events().stream().filter(e -> e.subject().kind().equals("Pod")).toList();
      assertThat(podEvents).hasSize(PODS).allSatisfy(e -> {
        assertThat(e.reason()).isEqualTo(Events.TRIGGERED_SCALE_UP);
        assertThat(e.message()).isEqualTo("pod triggered scale-up: [{ng 0->40 (max: 10000)}]");
      });
      // Sorted by namespace/name, as text.
      List<String> names = podEvents.stream().map(e -> e.subject().name()).toList();
      assertThat(names).isSorted();
    }
    assertThat(shared.events()).isEqualTo(separate.events());
  }

  private static IterationResult run(List<Pod> pods) {
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.MAX_NODES_TOTAL, 10_000).set(AutoscalerOptions.MAX_NODES_PER_SCALEUP, 10_000).build();
    var t = Fixtures.template("ng", "10", "10000");
    NodeGroup g = new NodeGroup("ng", 0, 10_000, 0, 1, Duration.ZERO, t, NodeGroupOptions.NONE);
    RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(g));
    RecordingEventSink events = new RecordingEventSink();
    IterationResult r = new Autoscaler(o, StaticClusterView.builder().pods(pods).build(), provider, events,
        BufferStatusWriter.NONE, new AutoscalerState(o), SnapshotSimulation::new).runOnce(Fixtures.T0);
    assertThat(provider.increases()).containsExactly(new RecordingNodeGroupProvider.Increase("ng", 40, 40));
    assertThat(events.events()).isEqualTo(r.events());
    return r;
  }

  private static List<Pod> pods(boolean shareSpec) {
    List<Pod> out = new ArrayList<>();
    PodSpec spec = spec();
    for (int i = 0; i < PODS; i++) {
      Pod p = new PodBuilder().withNewMetadata().withName("p-" + i).withNamespace("default").withUid("uid-" + i).endMetadata().build();
      p.setSpec(shareSpec ? spec : spec());
      out.add(Fixtures.unschedulable(p));
    }
    return out;
  }

  private static PodSpec spec() {
    return new PodBuilder().withNewSpec().addNewContainer().withName("c").withNewResources()
        .addToRequests("cpu", new Quantity("200m")).addToRequests("memory", new Quantity("200")).endResources()
        .endContainer().endSpec().build().getSpec();
  }
}
