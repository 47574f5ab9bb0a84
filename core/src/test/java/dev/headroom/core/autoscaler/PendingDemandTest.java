package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PendingDemandTest {

  private static PodBuilder pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().addNewContainer().withName("c").endContainer().endSpec();
  }

  private static Pod withCondition(PodBuilder b, String status, String reason) {
    return b.withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus(status).withReason(reason)
        .endCondition().endStatus().build();
  }

  @Test
  void onlyPodsMarkedUnschedulableCountByDefault() {
    assertThat(PendingDemand.of(withCondition(pod("a"), "False", "Unschedulable"), Set.of())).isEqualTo(PendingDemand.Kind.DEMAND);
    assertThat(PendingDemand.of(pod("fresh").build(), Set.of())).isEqualTo(PendingDemand.Kind.NOT_TRIED);
    // another reason of PodScheduled=False (a scheduler error, say) is not a verdict that capacity is missing
    assertThat(PendingDemand.of(withCondition(pod("err"), "False", "SchedulerError"), Set.of())).isEqualTo(PendingDemand.Kind.NOT_TRIED);
  }

  @Test
  void gatedPodsNeverCountEvenForABypassedScheduler() {
    Pod gates = pod("g").editSpec().addNewSchedulingGate("kueue.x-k8s.io/admission").endSpec().build();
    Pod reason = withCondition(pod("r"), "False", "SchedulingGated");
    Set<String> all = Set.of(PendingDemand.DEFAULT_SCHEDULER);
    assertThat(PendingDemand.of(gates, all)).isEqualTo(PendingDemand.Kind.GATED);
    assertThat(PendingDemand.of(reason, all)).isEqualTo(PendingDemand.Kind.GATED);
    // gates win over an Unschedulable mark left from before the gate was added
    Pod both = withCondition(pod("b").editSpec().addNewSchedulingGate("x").endSpec(), "False", "Unschedulable");
    assertThat(PendingDemand.of(both, Set.of())).isEqualTo(PendingDemand.Kind.GATED);
  }

  @Test
  void unprocessedPodsOfBypassedSchedulersCount() {
    Pod volcano = pod("v").editSpec().withSchedulerName("volcano").endSpec().build();
    Pod defaultScheduler = pod("d").build();
    Set<String> bypassed = PendingDemand.schedulerNames(" volcano, ,default-scheduler ");
    assertThat(bypassed).containsExactlyInAnyOrder("volcano", "default-scheduler");
    assertThat(PendingDemand.of(volcano, bypassed)).isEqualTo(PendingDemand.Kind.DEMAND);
    assertThat(PendingDemand.of(volcano, Set.of("default-scheduler"))).isEqualTo(PendingDemand.Kind.NOT_TRIED);
    assertThat(PendingDemand.of(defaultScheduler, Set.of("default-scheduler"))).isEqualTo(PendingDemand.Kind.DEMAND);
    assertThat(PendingDemand.schedulerNames("")).isEmpty();
  }

  @Test
  void splitKeepsOrderAndCounts() {
    Pod u1 = withCondition(pod("u1"), "False", "Unschedulable");
    Pod gated = pod("g").editSpec().addNewSchedulingGate("x").endSpec().build();
    Pod fresh = pod("f").editSpec().withSchedulerName("kai-scheduler").endSpec().build();
    Pod u2 = withCondition(pod("u2"), "False", "Unschedulable");
    PendingDemand.Split s = PendingDemand.split(List.of(u1, gated, fresh, u2), Set.of());
    assertThat(s.demand()).containsExactly(u1, u2);
    assertThat(s.notDemand()).isEqualTo(new PendingDemand.NotDemand(1, 1));
    assertThat(PendingDemand.split(List.of(u1), Set.of()).notDemand()).isSameAs(PendingDemand.NotDemand.NONE);
  }

  @Test
  void theIterationScalesUpOnlyForDemand() {
    // the case: a gated pod and a pod of another scheduler no scheduler has tried yet: no scale-up
    Fixtures.World w = new Fixtures.World();
    w.group(new dev.headroom.core.nodegroup.NodeGroup("ng", 0, 10, 0, 1, java.time.Duration.ZERO,
        Fixtures.template("ng", "4", "16Gi"), dev.headroom.core.nodegroup.NodeGroupOptions.NONE));
    Pod gated = Fixtures.pod("gated", "1", "1Gi", null);
    gated.getSpec().setSchedulingGates(List.of(new io.fabric8.kubernetes.api.model.PodSchedulingGate("kai.scheduler/queue")));
    Pod other = Fixtures.pod("other", "1", "1Gi", null);
    other.setStatus(null);
    other.getSpec().setSchedulerName("kai-scheduler");
    w.pods.add(gated);
    w.pods.add(other);
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.SCALE_DOWN_ENABLED, false).build();
    IterationResult r = w.autoscaler(o, new AutoscalerState(o)).runOnce(Fixtures.T0);
    assertThat(r.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpNotNeeded);
    assertThat(r.scaleUp()).isEmpty();
    assertThat(r.notDemand()).isEqualTo(new PendingDemand.NotDemand(1, 1));
    assertThat(r.pendingPods().total()).isZero();

    AutoscalerOptions bypass = o.toBuilder().set(AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, "kai-scheduler").build();
    IterationResult b = w.autoscaler(bypass, new AutoscalerState(bypass)).runOnce(Fixtures.T0);
    assertThat(b.scaleUp()).singleElement().satisfies(d -> assertThat(d.realPods()).isEqualTo(1));
    assertThat(b.notDemand()).isEqualTo(new PendingDemand.NotDemand(1, 0));
  }

  @Test
  void newPodsWaitOneLoopUnlessSchedulersAreBypassed() {
    // CA's allPodsAreNew: pods younger than 2 s wait for more, but not with --bypassed-scheduler-names (set to react at once)
    Fixtures.World w = new Fixtures.World();
    w.group(new dev.headroom.core.nodegroup.NodeGroup("ng", 0, 10, 0, 1, java.time.Duration.ZERO,
        Fixtures.template("ng", "4", "16Gi"), dev.headroom.core.nodegroup.NodeGroupOptions.NONE));
    Pod fresh = Fixtures.pod("fresh", "1", "1Gi", null);
    fresh.getMetadata().setCreationTimestamp(Fixtures.T0.minusSeconds(1).toString());
    fresh.setStatus(null); // not tried by its scheduler yet
    Pod marked = Fixtures.pod("marked", "1", "1Gi", null);
    marked.getMetadata().setCreationTimestamp(Fixtures.T0.minusSeconds(1).toString());
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.SCALE_DOWN_ENABLED, false).build();

    w.pods.add(marked);
    IterationResult waits = w.autoscaler(o, new AutoscalerState(o)).runOnce(Fixtures.T0);
    assertThat(waits.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpInCooldown);
    assertThat(waits.scaleUp()).isEmpty();
    IterationResult later = w.autoscaler(o, new AutoscalerState(o)).runOnce(Fixtures.T0.plusSeconds(1));
    assertThat(later.scaleUp()).singleElement().satisfies(d -> assertThat(d.realPods()).isEqualTo(1));

    w.pods.add(fresh);
    AutoscalerOptions bypass = o.toBuilder().set(AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, PendingDemand.DEFAULT_SCHEDULER).build();
    IterationResult now = w.autoscaler(bypass, new AutoscalerState(bypass)).runOnce(Fixtures.T0);
    assertThat(now.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpSuccessful);
    assertThat(now.scaleUp()).singleElement().satisfies(d -> assertThat(d.realPods()).isEqualTo(2));
  }
}
