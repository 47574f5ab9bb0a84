package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.group;
import static dev.headroom.core.autoscaler.Fixtures.node;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.scaledown.UnremovableReason;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ScaleDownTest {

  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.DEFAULTS;

  private static Fixtures.World twoNodes(int min) {
    Fixtures.World w = new Fixtures.World().group(group("general", min, 10, 2, "4", "16Gi"));
    w.nodes.add(node("n1", "general", "4", "16Gi", true, T0.minusSeconds(7200)));
    w.nodes.add(node("n2", "general", "4", "16Gi", true, T0.minusSeconds(7200)));
    w.pods.add(pod("busy", "3", "1Gi", "n1"));
    return w;
  }

  @Test
  void emptyNodeIsRemovedAfterTheUnneededTime() {
    Fixtures.World w = twoNodes(0);
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    IterationResult r1 = a.runOnce(T0);
    assertThat(r1.unneededNodes()).extracting(IterationResult.UnneededNode::node).containsExactly("n2");
    assertThat(r1.scaleDown()).isEmpty();
    assertThat(a.runOnce(T0.plus(Duration.ofMinutes(9))).scaleDown()).isEmpty();
    IterationResult r3 = a.runOnce(T0.plus(Duration.ofMinutes(10)).plusSeconds(1));
    assertThat(r3.scaleDown()).singleElement().satisfies(d -> {
      assertThat(d.node()).isEqualTo("n2");
      assertThat(d.reason()).isEqualTo("empty");
    });
    assertThat(w.calls).containsExactly("delete n2");
    assertThat(r3.events()).extracting(EventRecord::reason).contains(Events.SCALE_DOWN_EMPTY);
  }

  @Test
  void minSizeIsRespected() {
    Fixtures.World w = twoNodes(2);
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    a.runOnce(T0);
    assertThat(a.runOnce(T0.plus(Duration.ofMinutes(11))).scaleDown()).isEmpty();
    assertThat(w.calls).isEmpty();
  }

  @Test
  void nodeWhoseRoomABufferNeedsStays() {
    Fixtures.World w = twoNodes(0);
    w.templates.put("tpl", podTemplate("tpl", "2", "1Gi"));
    w.buffers.add(buffer("buf", "tpl", 1));
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    IterationResult r1 = a.runOnce(T0);
    assertThat(r1.buffers().get(0).onExistingNodes()).isEqualTo(1);
    assertThat(r1.unneededNodes()).isEmpty();
    assertThat(r1.unremovableNodes()).anySatisfy(u -> {
      assertThat(u.node()).isEqualTo("n2");
      assertThat(u.reason()).isEqualTo(UnremovableReason.NoPlaceToMovePods.name());
    });
    IterationResult r2 = a.runOnce(T0.plus(Duration.ofMinutes(30)));
    assertThat(r2.scaleDown()).isEmpty();
    assertThat(w.calls).isEmpty();
  }

  @Test
  void bufferOnlyNodeIsNotEmptyAndGoesFirstWhenItsChunksFitElsewhere() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 3, "4", "16Gi"));
    w.nodes.add(node("a", "general", "4", "16Gi", true, T0.minusSeconds(7200)));
    w.nodes.add(node("b", "general", "4", "16Gi", true, T0.minusSeconds(7200)));
    w.nodes.add(node("big", "general", "4", "16Gi", true, T0.minusSeconds(7200)));
    w.pods.add(pod("fill-a", "1", "1Gi", "a"));
    w.pods.add(pod("fill-big", "2100m", "1Gi", "big"));
    w.templates.put("tpl", podTemplate("tpl", "1500m", "1Gi"));
    w.buffers.add(buffer("buf", "tpl", 2));
    // Placement rotates from the last match: chunk 1 lands on a (1 + 1.5 cores), chunk 2 on b.
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    assertThat(r.buffers().get(0).onExistingNodes()).isEqualTo(2);
    // b holds only a virtual pod: cost 0, tried first, not empty, removable because its chunk fits on a.
    // a (one real pod, cost 1) then finds no room for its real pod.
    assertThat(r.unneededNodes()).singleElement().satisfies(u -> {
      assertThat(u.node()).isEqualTo("b");
      assertThat(u.empty()).isFalse();
    });
    assertThat(r.unremovableNodes()).anySatisfy(u -> assertThat(u.node()).isEqualTo("a"));
  }

  @Test
  void disruptionCostOrdersCandidates() {
    Fixtures.World w = new Fixtures.World().group(group("general", 0, 10, 4, "4", "16Gi"));
    for (String n : List.of("a", "b", "c", "d")) {
      w.nodes.add(node(n, "general", "4", "16Gi", true, T0.minusSeconds(7200)));
    }
    Pod important = pod("important", "1", "1Gi", "a");
    important.getSpec().setPriority(1_000_000_000);
    w.pods.add(important);
    w.pods.add(pod("plain", "1", "1Gi", "b"));
    Pod cheap = pod("cheap", "1", "1Gi", "c");
    cheap.getMetadata().setAnnotations(Map.of("controller.kubernetes.io/pod-deletion-cost", "-1000000000"));
    w.pods.add(cheap);
    w.pods.add(pod("d-fill", "3", "1Gi", "d"));
    IterationResult r = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS)).runOnce(T0);
    // Cheapest first: c (cost ~0), then b (cost 1); a (cost 10) is simulated last and finds no room left,
    // because the placements of c's and b's pods were committed.
    assertThat(r.unneededNodes()).extracting(IterationResult.UnneededNode::node).containsExactly("c", "b");
    assertThat(r.unneededNodes()).allSatisfy(u -> assertThat(u.empty()).isFalse());
    assertThat(r.unremovableNodes()).anySatisfy(u -> {
      assertThat(u.node()).isEqualTo("a");
      assertThat(u.reason()).isEqualTo(UnremovableReason.NoPlaceToMovePods.name());
    });
  }

  static Stream<Arguments> unremovable() {
    return Stream.of(
        Arguments.of("pod without controller", (Consumer<Fixtures.World>) w -> last(w).getMetadata().setOwnerReferences(List.of()),
            "BlockedByPod", "NotReplicated"),
        Arguments.of("local storage", (Consumer<Fixtures.World>) w -> {
          Pod p = last(w);
          p.getSpec().setVolumes(List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName("scratch").withNewEmptyDir().endEmptyDir().build()));
        }, "BlockedByPod", "LocalStorageRequested"),
        Arguments.of("kube-system pod without PDB", (Consumer<Fixtures.World>) w -> last(w).getMetadata().setNamespace("kube-system"),
            "BlockedByPod", "UnmovableKubeSystemPod"),
        Arguments.of("safe-to-evict false", (Consumer<Fixtures.World>) w ->
            last(w).getMetadata().setAnnotations(Map.of("cluster-autoscaler.kubernetes.io/safe-to-evict", "false")),
            "BlockedByPod", "NotSafeToEvictAnnotation"),
        Arguments.of("PDB without budget", (Consumer<Fixtures.World>) w -> {
          last(w).getMetadata().setLabels(Map.of("app", "web"));
          w.pdbs.add(new PodDisruptionBudgetBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
              .withNewSpec().withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec()
              .withNewStatus().withDisruptionsAllowed(0).endStatus().build());
        }, "BlockedByPod", "NotEnoughPdb"),
        Arguments.of("scale-down-disabled annotation", (Consumer<Fixtures.World>) w ->
            w.nodes.get(1).getMetadata().setAnnotations(Map.of("cluster-autoscaler.kubernetes.io/scale-down-disabled", "true")),
            "ScaleDownDisabledAnnotation", ""),
        Arguments.of("Headroom scale-down-disabled alias", (Consumer<Fixtures.World>) w ->
            w.nodes.get(1).getMetadata().setAnnotations(Map.of("headroom.dev/scale-down-disabled", "true")),
            "ScaleDownDisabledAnnotation", ""));
  }

  private static Pod last(Fixtures.World w) {
    return w.pods.get(w.pods.size() - 1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unremovable")
  void unremovableReasons(String name, Consumer<Fixtures.World> setup, String reason, String detailPrefix) {
    Fixtures.World w = twoNodes(0);
    w.pods.add(pod("small", "100m", "100Mi", "n2"));
    setup.accept(w);
    Autoscaler a = w.autoscaler(OPTIONS, new AutoscalerState(OPTIONS));
    IterationResult r = a.runOnce(T0);
    assertThat(r.unremovableNodes()).anySatisfy(u -> {
      assertThat(u.node()).isEqualTo("n2");
      assertThat(u.reason()).isEqualTo(reason);
      assertThat(u.detail()).startsWith(detailPrefix);
    });
    assertThat(a.runOnce(T0.plus(Duration.ofMinutes(30))).scaleDown()).isEmpty();
    assertThat(w.calls).isEmpty();
  }
}
