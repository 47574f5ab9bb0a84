package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.IterationResult.PodGroupOutcome;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** All-or-nothing scale-up around the scale-up step ({@link GangScaleUp}), through the whole iteration. */
class GangScaleUpTest {

  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.builder().set(AutoscalerOptions.SCALE_DOWN_ENABLED, false).build();

  private static Fixtures.World world(int maxSize) {
    Fixtures.World w = new Fixtures.World();
    // 4-CPU nodes: two 2-CPU workers each
    w.group(new NodeGroup("ng", 0, maxSize, 0, 1, Duration.ZERO, Fixtures.template("ng", "4", "16Gi"), NodeGroupOptions.NONE));
    return w;
  }

  private static Pod coscheduled(String name, String group, String node) {
    Pod p = Fixtures.pod(name, "2", "1Gi", node);
    p.getMetadata().setLabels(Map.of(PodGroups.COSCHEDULING_LABEL, group));
    return p;
  }

  private static PodGroups.Group group(PodGroups.Source source, String name, int minMember) {
    return new PodGroups.Group(new PodGroups.Key(source, "default", name), minMember);
  }

  private static void job(Fixtures.World w, String group, int pods) {
    for (int i = 0; i < pods; i++) {
      w.pods.add(coscheduled(group + "-" + i, group, null));
    }
  }

  private static IterationResult run(Fixtures.World w, AutoscalerOptions o) {
    return w.autoscaler(o, new AutoscalerState(o)).runOnce(Fixtures.T0);
  }

  @Test
  void aGroupThatFitsIsScaledForOnceAndTheTrialsLeaveNoTrace() {
    Fixtures.World w = world(10);
    w.podGroups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "train", 4)));
    job(w, "train", 4);
    AutoscalerState state = new AutoscalerState(OPTIONS);
    IterationResult r = w.autoscaler(OPTIONS, state).runOnce(Fixtures.T0);
    assertThat(w.calls).containsExactly("increase ng 2");
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.newTargetSize()).isEqualTo(2));
    assertThat(r.podGroups()).containsExactly(new PodGroupOutcome("coscheduling", "default", "train", 4, 4, 0, 4,
        PodGroupOutcome.SCALED_UP, ""));
    // one request registered, and the ScaledUpGroup pair of events once: nothing of the trial reached the ports
    assertThat(state.scaleUpRequests()).containsOnlyKeys("ng");
    assertThat(state.scaleUpRequests().get("ng").increase()).isEqualTo(2);
    assertThat(w.events).filteredOn(e -> e.reason().equals(Events.SCALED_UP_GROUP)).hasSize(2);
    assertThat(r.events()).isEqualTo(w.events);
  }

  @Test
  void aGroupBlockedByMaxSizeGetsNoNodeAndSaysWhy() {
    Fixtures.World w = world(1);
    w.podGroups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "train", 4)));
    job(w, "train", 4);
    AutoscalerState state = new AutoscalerState(OPTIONS);
    IterationResult r = w.autoscaler(OPTIONS, state).runOnce(Fixtures.T0);
    assertThat(w.calls).isEmpty();
    assertThat(state.scaleUpRequests()).isEmpty();
    assertThat(state.lastScaleUp()).isEmpty();
    assertThat(r.scaleUpResult()).isEqualTo(ScaleUpResult.ScaleUpNoOptionsAvailable);
    String limit = "node group maxSize reached: ng (maxSize 1)";
    assertThat(r.podGroups()).containsExactly(new PodGroupOutcome("coscheduling", "default", "train", 4, 4, 0, 2,
        PodGroupOutcome.BLOCKED, limit));
    String message = "pod group default/train (coscheduling, minMember 4): 2 of 4 members would get capacity, so none is requested: " + limit;
    assertThat(r.unschedulablePods()).hasSize(4).allSatisfy(u -> assertThat(u.reason()).isEqualTo(message));
    assertThat(w.events).filteredOn(e -> e.reason().equals(Events.POD_GROUP_NOT_TRIGGER_SCALE_UP))
        .singleElement().satisfies(e -> {
          assertThat(e.message()).isEqualTo(message);
          assertThat(e.subject().name()).isEqualTo("train-0");
        });
    assertThat(w.events).noneMatch(e -> e.reason().equals(Events.SCALED_UP_GROUP));
  }

  @Test
  void aGroupBlockedByMaxNodesTotal() {
    Fixtures.World w = world(10);
    w.podGroups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "train", 4)));
    job(w, "train", 4);
    AutoscalerOptions o = OPTIONS.toBuilder().set(AutoscalerOptions.MAX_NODES_TOTAL, 1).build();
    IterationResult r = run(w, o);
    assertThat(w.calls).isEmpty();
    assertThat(r.podGroups()).singleElement().satisfies(g -> {
      assertThat(g.status()).isEqualTo(PodGroupOutcome.BLOCKED);
      assertThat(g.limit()).isEqualTo("max-nodes-total 1 reached");
    });
  }

  @Test
  void runningMembersCountTowardMinMember() {
    Fixtures.World w = world(10);
    w.nodes.add(Fixtures.node("ng-0", "ng", "4", "16Gi", true, Fixtures.T0.minusSeconds(3600)));
    w.groups.put("ng", new NodeGroup("ng", 0, 2, 1, 1, Duration.ZERO, Fixtures.template("ng", "4", "16Gi"), NodeGroupOptions.NONE));
    w.podGroups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "train", 4)));
    w.pods.add(coscheduled("train-0", "train", "ng-0"));
    w.pods.add(coscheduled("train-1", "train", "ng-0"));
    w.pods.add(coscheduled("train-2", "train", null));
    w.pods.add(coscheduled("train-3", "train", null));
    IterationResult r = run(w, OPTIONS);
    // one more node (maxSize 2) holds the two pending members: 2 running + 2 placed = 4
    assertThat(w.calls).containsExactly("increase ng 1");
    assertThat(r.podGroups()).containsExactly(new PodGroupOutcome("coscheduling", "default", "train", 4, 4, 2, 4,
        PodGroupOutcome.SCALED_UP, ""));
  }

  @Test
  void ofTwoCompetingGroupsTheLaterOneYields() {
    Fixtures.World w = world(2);
    w.podGroups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "a", 4), group(PodGroups.Source.VOLCANO, "b", 4)));
    job(w, "a", 4);
    for (int i = 0; i < 4; i++) {
      Pod p = Fixtures.pod("b-" + i, "2", "1Gi", null);
      p.getMetadata().setAnnotations(Map.of(PodGroups.VOLCANO_ANNOTATION, "b"));
      w.pods.add(p);
    }
    IterationResult r = run(w, OPTIONS);
    assertThat(w.calls).containsExactly("increase ng 2");
    assertThat(r.podGroups()).extracting(g -> g.name() + " " + g.source() + " " + g.status() + " " + g.placed())
        .containsExactly("a coscheduling ScaledUp 4", "b volcano Blocked 0");
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.realPods()).isEqualTo(4));
  }

  @Test
  void aGroupWithFewerPodsThanMinMemberWaitsAndOtherPodsAreScaledFor() {
    Fixtures.World w = world(10);
    w.podGroups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "train", 4)));
    job(w, "train", 3);
    w.pods.add(Fixtures.pod("web", "2", "1Gi", null));
    IterationResult r = run(w, OPTIONS);
    assertThat(w.calls).containsExactly("increase ng 1");
    assertThat(r.scaleUp()).singleElement().satisfies(d -> assertThat(d.realPods()).isEqualTo(1));
    assertThat(r.podGroups()).singleElement().satisfies(g -> assertThat(g.limit()).isEqualTo("only 3 of 4 members exist"));
  }

  @Test
  void withoutGroupsTheStepRunsAlone() {
    Fixtures.World w = world(1);
    job(w, "train", 4); // labelled, but no PodGroup object is known: not a group
    IterationResult r = run(w, OPTIONS);
    assertThat(w.calls).containsExactly("increase ng 1");
    assertThat(r.podGroups()).isEmpty();
  }

  @Test
  void podGroupsMatchByNamespaceAndSource() {
    PodGroups groups = new PodGroups(List.of(group(PodGroups.Source.COSCHEDULING, "g", 2), group(PodGroups.Source.VOLCANO, "v", 3)));
    Pod labelled = coscheduled("p", "g", null);
    assertThat(groups.groupOf(labelled)).map(PodGroups.Group::minMember).hasValue(2);
    Pod other = coscheduled("q", "g", null);
    other.getMetadata().setNamespace("elsewhere");
    assertThat(groups.groupOf(other)).isEmpty();
    Pod wrongSource = coscheduled("r", "v", null); // a coscheduling label naming a Volcano group
    assertThat(groups.groupOf(wrongSource)).isEmpty();
    Pod volcano = Fixtures.pod("s", "1", "1Gi", null);
    volcano.getMetadata().setAnnotations(Map.of(PodGroups.VOLCANO_ANNOTATION, "v"));
    assertThat(groups.groupOf(volcano)).map(g -> g.key().source()).hasValue(PodGroups.Source.VOLCANO);
    assertThat(PodGroups.Source.ofApiGroup("scheduling.x-k8s.io")).hasValue(PodGroups.Source.COSCHEDULING);
    assertThat(PodGroups.Source.ofApiGroup("scheduling.volcano.sh")).hasValue(PodGroups.Source.VOLCANO);
    assertThat(PodGroups.Source.ofApiGroup("scheduling.k8s.io")).isEmpty();
  }
}
