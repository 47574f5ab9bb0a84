package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.group;
import static dev.headroom.core.autoscaler.Fixtures.node;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AutoscalerIterationTest {

  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.DEFAULTS;

  @Test
  void requestedNodesAreNotRequestedAgainWhileTheyBoot() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    for (int i = 0; i < 6; i++) {
      w.pods.add(pod("p" + i, "2", "1Gi", null));
    }
    AutoscalerState state = new AutoscalerState(OPTIONS);
    Autoscaler a = w.autoscaler(OPTIONS, state);

    IterationResult r1 = a.runOnce(T0);
    assertThat(r1.scaleUp()).extracting(IterationResult.ScaleUpDecision::delta).containsExactly(3);
    assertThat(r1.pendingPods().onNewNodes()).isEqualTo(6);

    IterationResult r2 = a.runOnce(T0.plusSeconds(30));
    assertThat(r2.scaleUp()).isEmpty();
    assertThat(r2.pendingPods().onUpcomingNodes()).isEqualTo(6);

    w.registerNodes("general", false, T0.plusSeconds(60));
    IterationResult r3 = a.runOnce(T0.plusSeconds(70));
    assertThat(r3.scaleUp()).isEmpty();
    assertThat(r3.pendingPods().onUpcomingNodes()).isEqualTo(6);

    w.nodes.clear();
    w.registerNodes("general", true, T0.plusSeconds(60));
    IterationResult r4 = a.runOnce(T0.plusSeconds(120));
    assertThat(r4.scaleUp()).isEmpty();
    assertThat(r4.pendingPods().onExistingNodes()).isEqualTo(6);
    assertThat(w.calls).containsExactly("increase general 3");
  }

  @Test
  void timedOutRequestIsRevertedAndBacksOff() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    w.pods.add(pod("p", "2", "1Gi", null));
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    a.runOnce(T0);
    IterationResult late = a.runOnce(T0.plus(Duration.ofMinutes(16)));
    assertThat(w.calls).containsExactly("increase general 1", "decrease general -1");
    assertThat(late.events()).extracting(EventRecord::reason).contains(Events.SCALE_UP_TIMED_OUT);
    assertThat(late.scaleUp()).isEmpty();
    assertThat(late.unschedulablePods()).singleElement()
        .satisfies(u -> assertThat(u.reason()).isEqualTo("1 in backoff after failed scale-up"));
  }

  @Test
  void aRefusedDecreaseAfterATimeoutIsRetriedUntilTheTargetMatchesTheRegisteredNodes() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    w.pods.add(pod("p", "2", "1Gi", null));
    w.refuseDecreases = 2;
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    a.runOnce(T0);

    IterationResult timedOut = a.runOnce(T0.plus(Duration.ofMinutes(16)));
    assertThat(timedOut.events()).extracting(EventRecord::reason)
        .contains(Events.SCALE_UP_TIMED_OUT, Events.FIX_NODE_GROUP_SIZE_FAILED);
    assertThat(timedOut.events()).filteredOn(e -> e.reason().equals(Events.FIX_NODE_GROUP_SIZE_FAILED)).singleElement()
        .satisfies(e -> assertThat(e.message())
            .isEqualTo("Failed to lower the target size of group general from 1 to 0 (missing nodes: 1): cloud API unavailable"));
    assertThat(w.groups.get("general").targetSize()).isEqualTo(1);

    a.runOnce(T0.plus(Duration.ofMinutes(17)));
    assertThat(w.groups.get("general").targetSize()).isEqualTo(1);
    IterationResult fixed = a.runOnce(T0.plus(Duration.ofMinutes(18)));
    assertThat(fixed.events()).extracting(EventRecord::reason).doesNotContain(Events.FIX_NODE_GROUP_SIZE_FAILED);
    assertThat(w.calls).containsExactly("increase general 1", "refused decrease general -1", "refused decrease general -1",
        "decrease general -1");
    assertThat(w.groups.get("general").targetSize()).isZero();

    // once the backoff is over, the pod is asked for again: one node, none of it counted as already upcoming
    IterationResult again = a.runOnce(T0.plus(Duration.ofHours(2)));
    assertThat(again.scaleUp()).extracting(IterationResult.ScaleUpDecision::delta).containsExactly(1);
    assertThat(again.pendingPods().onNewNodes()).isEqualTo(1);
    assertThat(again.pendingPods().onUpcomingNodes()).isZero();
    assertThat(w.groups.get("general").targetSize()).isEqualTo(1);
  }

  @Test
  void aTargetAboveTheRegisteredNodesWithoutARequestIsLoweredAfterTheProvisionTime() {
    // a target raised outside the autoscaler (or left by an earlier process) whose nodes never register
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 3, "4", "16Gi"));
    w.nodes.add(node("n1", "general", "4", "16Gi", true, T0.minusSeconds(3600)));
    w.pods.add(pod("busy1", "3", "1Gi", "n1"));
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    a.runOnce(T0);
    a.runOnce(T0.plus(Duration.ofMinutes(15)));
    assertThat(w.calls).isEmpty();
    // the pair of sizes changes: the clock starts again
    w.nodes.add(node("n2", "general", "4", "16Gi", true, T0.plus(Duration.ofMinutes(15))));
    w.pods.add(pod("busy2", "3", "1Gi", "n2"));
    a.runOnce(T0.plus(Duration.ofMinutes(16)));
    a.runOnce(T0.plus(Duration.ofMinutes(31)));
    assertThat(w.calls).isEmpty();
    a.runOnce(T0.plus(Duration.ofMinutes(32)));
    assertThat(w.calls).containsExactly("decrease general -1");
    assertThat(w.groups.get("general").targetSize()).isEqualTo(2);
  }

  @Test
  void realPodsArePlacedBeforeVirtualPods() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 1, "2", "8Gi"));
    w.nodes.add(node("n1", "general", "2", "8Gi", true, T0.minusSeconds(3600)));
    w.templates.put("tpl", podTemplate("tpl", "2", "1Gi"));
    w.buffers.add(buffer("buf", "tpl", 1));
    w.pods.add(pod("real", "2", "1Gi", null));

    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);

    assertThat(r.pendingPods().onExistingNodes()).isEqualTo(1);
    IterationResult.BufferOutcome b = r.buffers().get(0);
    assertThat(b.onExistingNodes()).isZero();
    assertThat(b.onNewNodes()).isEqualTo(1);
    assertThat(r.scaleUp()).singleElement().satisfies(d -> {
      assertThat(d.virtualPods()).isEqualTo(1);
      assertThat(d.realPods()).isZero();
    });
    Condition cap = StatusConditions.find(b.conditions(), BufferConditions.CAPACITY_AVAILABLE).orElseThrow();
    assertThat(cap.getReason()).isEqualTo(BufferConditions.REASON_REQUIRES_NEW_CAPACITY);
    assertThat(cap.getMessage()).isEqualTo("1/1 virtual pods required new capacity, 0 failed");
    assertThat(r.events()).anySatisfy(e -> {
      assertThat(e.subject().kind()).isEqualTo("CapacityBuffer");
      assertThat(e.reason()).isEqualTo(Events.TRIGGERED_SCALE_UP);
      assertThat(e.message()).isEqualTo("capacity buffer 1 fake pods triggered scale-up: [{general 1->2 (max: 10)}]");
    });
    assertThat(r.events()).noneSatisfy(e -> assertThat(e.subject().name()).startsWith("capacity-buffer-"));
    assertThat(r.unschedulablePods()).isEmpty();
  }

  @Test
  void bufferConditionsAreWrittenOnlyWhenTheyChange() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 1, "4", "16Gi"));
    w.nodes.add(node("n1", "general", "4", "16Gi", true, T0.minusSeconds(3600)));
    w.templates.put("tpl", podTemplate("tpl", "1", "1Gi"));
    w.buffers.add(buffer("buf", "tpl", 2));
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));

    IterationResult r1 = a.runOnce(T0);
    assertThat(r1.buffers().get(0).statusWritten()).isTrue();
    var conditions = w.written.get("buf");
    assertThat(StatusConditions.find(conditions, BufferConditions.PROVISIONING).orElseThrow())
        .satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("True");
          assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_FAKE_PODS_INJECTED);
        });
    assertThat(StatusConditions.find(conditions, BufferConditions.CAPACITY_AVAILABLE).orElseThrow())
        .satisfies(c -> {
          assertThat(c.getReason()).isEqualTo(BufferConditions.REASON_FITS_EXISTING_CAPACITY);
          assertThat(c.getMessage()).isEqualTo("All 2 virtual pods fit on existing capacity");
        });
    w.written.clear();
    IterationResult r2 = a.runOnce(T0.plusSeconds(10));
    assertThat(r2.buffers().get(0).statusWritten()).isFalse();
    assertThat(w.written).isEmpty();
    assertThat(r2.scaleUp()).isEmpty();
  }

  @Test
  void chunkThatFitsNowhereIsInfeasible() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 1, "96", "256Gi"));
    w.nodes.add(node("n1", "general", "96", "256Gi", true, T0.minusSeconds(3600)));
    w.templates.put("tpl", podTemplate("tpl", "200", "1Gi"));
    w.buffers.add(buffer("buf", "tpl", 3));
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    Condition cap = StatusConditions.find(r.buffers().get(0).conditions(), BufferConditions.CAPACITY_AVAILABLE).orElseThrow();
    assertThat(cap.getReason()).isEqualTo(BufferConditions.REASON_INFEASIBLE);
    assertThat(cap.getMessage()).startsWith("No node group can fit a single virtual pod of this buffer");
    assertThat(r.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpNoOptionsAvailable);
    assertThat(r.events()).anySatisfy(e -> {
      assertThat(e.reason()).isEqualTo(Events.NOT_TRIGGER_SCALE_UP);
      assertThat(e.message()).isEqualTo("capacity buffer 3 fake pods didn't trigger scale-up: 1 Insufficient cpu");
    });
  }

  @Test
  void emptyBufferReportsBufferIsEmptyAndNotEvaluated() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 1, "4", "16Gi"));
    w.nodes.add(node("n1", "general", "4", "16Gi", true, T0.minusSeconds(3600)));
    w.templates.put("tpl", podTemplate("tpl", "1", "1Gi"));
    w.buffers.add(buffer("buf", "tpl", 0));
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    var cs = r.buffers().get(0).conditions();
    assertThat(StatusConditions.find(cs, BufferConditions.PROVISIONING).orElseThrow().getReason()).isEqualTo(BufferConditions.REASON_BUFFER_IS_EMPTY);
    assertThat(StatusConditions.find(cs, BufferConditions.CAPACITY_AVAILABLE).orElseThrow().getStatus()).isEqualTo("Unknown");
  }

  @Test
  void maxNodesTotalCapsTheScaleUp() {
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.MAX_NODES_TOTAL, 2).build();
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 1, "2", "8Gi"));
    w.nodes.add(node("n1", "general", "2", "8Gi", true, T0.minusSeconds(3600)));
    for (int i = 0; i < 4; i++) {
      w.pods.add(pod("p" + i, "2", "1Gi", null));
    }
    IterationResult r = w.autoscaler(o, new AutoscalerState(o)).runOnce(T0);
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.newTargetSize()).isEqualTo(2));
  }
}
