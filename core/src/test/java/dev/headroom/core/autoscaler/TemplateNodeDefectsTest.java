package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.group;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Scale-up from size 0 for hostname-keyed constraints, and the provision timeout's absent value. */
class TemplateNodeDefectsTest {

  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.DEFAULTS;

  private static Pod labelled(Pod p) {
    p.getMetadata().setLabels(new HashMap<>(Map.of("app", "web")));
    return p;
  }

  private static void hostnameSpread(PodSpec spec) {
    spec.setTopologySpreadConstraints(List.of(new TopologySpreadConstraintBuilder().withMaxSkew(1)
        .withTopologyKey(NodeGroupLabels.HOSTNAME).withWhenUnsatisfiable("DoNotSchedule")
        .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build()).build()));
  }

  private static void hostnameSelfAffinity(PodSpec spec) {
    spec.setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder().withNewPodAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder()
            .withTopologyKey(NodeGroupLabels.HOSTNAME)
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build()).build())
        .endPodAffinity().build());
  }

  @Test
  void groupAtSizeZeroScalesUpForHostnameSpreadPods() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    for (int i = 0; i < 4; i++) {
      Pod p = labelled(pod("p" + i, "1", "1Gi", null));
      hostnameSpread(p.getSpec());
      w.pods.add(p);
    }
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    // as in the scheduler, skew is counted over the nodes that exist: a cluster of one new node satisfies maxSkew 1
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.delta()).isEqualTo(1));
    assertThat(r.pendingPods().onNewNodes()).isEqualTo(4);
    assertThat(r.unschedulablePods()).isEmpty();
  }

  @Test
  void groupAtSizeZeroScalesUpForRequiredHostnameAffinity() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    for (int i = 0; i < 3; i++) {
      Pod p = labelled(pod("p" + i, "1", "1Gi", null));
      hostnameSelfAffinity(p.getSpec());
      w.pods.add(p);
    }
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.delta()).isEqualTo(1));
    assertThat(r.pendingPods().onNewNodes()).isEqualTo(3);
  }

  @Test
  void virtualPodsWithHostnameSpreadScaleUpAGroupAtSizeZero() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    io.fabric8.kubernetes.api.model.PodTemplate t = podTemplate("tpl", "1", "1Gi");
    t.getTemplate().getMetadata().setLabels(Map.of("app", "web"));
    hostnameSpread(t.getTemplate().getSpec());
    w.templates.put("tpl", t);
    w.buffers.add(buffer("buf", "tpl", 2));
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    assertThat(r.scaleUp()).singleElement().satisfies(d -> {
      assertThat(d.delta()).isEqualTo(1);
      assertThat(d.virtualPods()).isEqualTo(2);
    });
    assertThat(r.buffers().get(0).onNewNodes()).isEqualTo(2);
  }

  private static NodeGroup withProvisionTime(NodeGroup g, Duration d) {
    return new NodeGroup(g.id(), g.minSize(), g.maxSize(), g.targetSize(), g.pricePerHour(), g.provisioningDelay(), g.template(),
        new NodeGroupOptions(null, null, null, null, d, null, null));
  }

  @Test
  void groupWithoutItsOwnProvisionTimeUsesTheGlobalOneInTimeoutAndEvent() {
    AutoscalerOptions options = OPTIONS.toBuilder().set(AutoscalerOptions.MAX_NODE_PROVISION_TIME, Duration.ofMinutes(5)).build();
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 0, "4", "16Gi"));
    w.pods.add(pod("p", "2", "1Gi", null));
    Autoscaler a = w.autoscaler(options, new AutoscalerState(options));
    a.runOnce(T0);
    IterationResult late = a.runOnce(T0.plus(Duration.ofMinutes(6)));
    assertThat(late.events()).anySatisfy(e -> {
      assertThat(e.reason()).isEqualTo(Events.SCALE_UP_TIMED_OUT);
      assertThat(e.message()).isEqualTo("Nodes added to group general failed to register within 5m0s");
    });
  }

  @Test
  void groupThatSetsFifteenMinutesKeepsThemUnderAFiveMinuteGlobal() {
    AutoscalerOptions options = OPTIONS.toBuilder().set(AutoscalerOptions.MAX_NODE_PROVISION_TIME, Duration.ofMinutes(5)).build();
    Fixtures.World w = new Fixtures.World().group(withProvisionTime(group("general", 0, 10, 0, "4", "16Gi"), Duration.ofMinutes(15)));
    w.pods.add(pod("p", "2", "1Gi", null));
    Autoscaler a = w.autoscaler(options, new AutoscalerState(options));
    a.runOnce(T0);
    IterationResult at6 = a.runOnce(T0.plus(Duration.ofMinutes(6)));
    assertThat(at6.events()).noneSatisfy(e -> assertThat(e.reason()).isEqualTo(Events.SCALE_UP_TIMED_OUT));
    assertThat(w.calls).containsExactly("increase general 1");
    IterationResult at16 = a.runOnce(T0.plus(Duration.ofMinutes(16)));
    assertThat(at16.events()).anySatisfy(e -> assertThat(e.message())
        .isEqualTo("Nodes added to group general failed to register within 15m0s"));
  }
}
