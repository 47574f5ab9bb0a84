package dev.headroom.core.autoscaler;

import static dev.headroom.core.provisioning.ProvisioningConditions.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.PodSet;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestSpec;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestStatus;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import dev.headroom.core.provisioning.ProvisioningRequests;
import dev.headroom.core.provisioning.ProvisioningRequests.Action;
import dev.headroom.core.provisioning.ProvisioningRequests.Decision;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ProvisioningRequests through a whole iteration: a {@link ProvisioningRequests} round around {@code runOnce}. The
 * expected conditions are the Cluster Autoscaler's (kubernetes/autoscaler a16f0ae8: {@code checkcapacity/provisioningclass.go}
 * and its test, {@code besteffortatomic/provisioning_class.go}, {@code processors/provreq/processor.go} bookCapacity,
 * {@code pods_filter.go}).
 */
class ProvisioningRequestLoopTest {
  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.builder().set(AutoscalerOptions.SCALE_DOWN_ENABLED, false).build();
  private static final Instant T0 = Fixtures.T0;
  private static final String CC = ProvisioningRequest.CLASS_CHECK_CAPACITY;
  private static final String BE = ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC;

  private final Map<String, List<Condition>> written = new LinkedHashMap<>();

  private static Fixtures.World world(int maxSize, int nodes) {
    Fixtures.World w = new Fixtures.World();
    w.group(new NodeGroup("ng", 0, maxSize, nodes, 1, Duration.ZERO, Fixtures.template("ng", "4", "16Gi"), NodeGroupOptions.NONE));
    for (int i = 0; i < nodes; i++) {
      w.nodes.add(Fixtures.node("ng-" + i, "ng", "4", "16Gi", true, T0.minusSeconds(3600)));
    }
    w.templates.put("worker", Fixtures.podTemplate("worker", "1", "1Gi"));
    return w;
  }

  static ProvisioningRequest request(String name, String cls, int count, Condition... conditions) {
    ProvisioningRequest pr = new ProvisioningRequest();
    ObjectMeta m = new ObjectMeta();
    m.setName(name);
    m.setNamespace("default");
    m.setUid(name + "-uid");
    m.setCreationTimestamp(T0.minusSeconds(120).toString());
    pr.setMetadata(m);
    ProvisioningRequestSpec spec = new ProvisioningRequestSpec();
    spec.setProvisioningClassName(cls);
    spec.setPodSets(List.of(new PodSet("worker", count)));
    pr.setSpec(spec);
    pr.setStatus(new ProvisioningRequestStatus());
    pr.getStatus().setConditions(new ArrayList<>(Arrays.asList(conditions)));
    return pr;
  }

  private record Run(IterationResult result, List<Decision> decisions, ProvisioningRequests.Round round) {
    Decision of(String name) {
      return decisions.stream().filter(d -> d.key().equals("default/" + name)).findFirst().orElseThrow();
    }
  }

  private Run run(Fixtures.World w, AutoscalerOptions o) {
    ProvisioningRequests prs = new ProvisioningRequests(ProvisioningRequests.Settings.DEFAULTS, SnapshotSimulation::new);
    ProvisioningRequests.Round round = prs.begin(w, T0);
    IterationResult r = new Autoscaler(o, round.view(), w, w, w, new AutoscalerState(o), SnapshotSimulation::new).runOnce(T0);
    List<Decision> d = round.finish(r, (pr, c) -> written.put(pr.getMetadata().getName(), c));
    return new Run(r, d, round);
  }

  private static String summary(List<Condition> cs) {
    StringBuilder sb = new StringBuilder();
    for (Condition c : cs) {
      sb.append(c.getType()).append('=').append(c.getStatus()).append(' ').append(c.getReason()).append(": ")
          .append(c.getMessage()).append('\n');
    }
    return sb.toString();
  }

  @Test
  void checkCapacityThatFitsIsProvisionedAndItsCapacityIsBookedAtOnce() {
    Fixtures.World w = world(10, 1);
    w.provisioningRequests.add(request("check", CC, 2));
    w.pods.add(Fixtures.pod("big", "3", "1Gi", null));
    Run r = run(w, OPTIONS);
    assertThat(summary(written.get("check"))).isEqualTo("""
        Accepted=True Accepted: ProvisioningRequest is accepted by ClusterAutoscaler
        Provisioned=True CapacityIsFound: Capacity is found in the cluster
        """);
    assertThat(written.get("check")).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2026-03-02T08:00:00Z"));
    assertThat(r.of("check").action()).isEqualTo(Action.DECIDED);
    assertThat(r.round().booked()).hasSize(2).allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("ng-0"));
    // the 2 booked CPUs are not the 3-CPU pod's: it gets a new node
    assertThat(w.calls).containsExactly("increase ng 1");
  }

  @Test
  void checkCapacityThatDoesNotFitIsRetriedOrFailsWithNoRetryAndNeverScalesUp() {
    Fixtures.World w = world(10, 1);
    w.provisioningRequests.add(request("check", CC, 5));
    run(w, OPTIONS);
    assertThat(summary(written.get("check"))).isEqualTo("""
        Accepted=True Accepted: ProvisioningRequest is accepted by ClusterAutoscaler
        Provisioned=False CapacityIsNotFound: Capacity is not found, CA will try to find it later.
        """);
    assertThat(w.calls).isEmpty();

    Fixtures.World w2 = world(10, 1);
    ProvisioningRequest noRetry = request("check", CC, 5);
    noRetry.getSpec().setParameters(Map.of("noRetry", "true"));
    w2.provisioningRequests.add(noRetry);
    run(w2, OPTIONS);
    assertThat(summary(written.get("check"))).isEqualTo("""
        Accepted=True Accepted: ProvisioningRequest is accepted by ClusterAutoscaler
        Failed=True CapacityIsNotFound: CA could not find requested capacity
        """);
    assertThat(w2.calls).isEmpty();
  }

  @Test
  void bestEffortAtomicScalesUpForAllItsPodsAndIsProvisioned() {
    Fixtures.World w = world(10, 0);
    w.templates.put("worker", Fixtures.podTemplate("worker", "2", "1Gi"));
    w.provisioningRequests.add(request("train", BE, 4));
    Run r = run(w, OPTIONS);
    assertThat(w.calls).containsExactly("increase ng 2");
    assertThat(r.result().podGroups()).singleElement().satisfies(g -> {
      assertThat(g.source()).isEqualTo("provisioning request");
      assertThat(g.minMember()).isEqualTo(4);
      assertThat(g.status()).isEqualTo(IterationResult.PodGroupOutcome.SCALED_UP);
    });
    assertThat(summary(written.get("train"))).isEqualTo("""
        Accepted=True Accepted: ProvisioningRequest is accepted by ClusterAutoscaler
        Provisioned=True CapacityIsProvisioned: Capacity is found in the cluster
        """);
    assertThat(r.of("train").action()).isEqualTo(Action.SCALING_UP);
  }

  @Test
  void bestEffortAtomicThatCannotGetAllOfItGetsNothing() {
    Fixtures.World w = world(1, 0);
    w.templates.put("worker", Fixtures.podTemplate("worker", "2", "1Gi"));
    w.provisioningRequests.add(request("train", BE, 4));
    Run r = run(w, OPTIONS);
    assertThat(w.calls).isEmpty();
    assertThat(summary(written.get("train"))).isEqualTo("""
        Accepted=True Accepted: ProvisioningRequest is accepted by ClusterAutoscaler
        Provisioned=False CapacityIsNotFound: Capacity is not found, CA will try to find it later.
        """);
    assertThat(r.of("train").detail()).contains("Blocked").contains("maxSize");
  }

  @Test
  void bestEffortAtomicThatFitsExistingCapacityIsFoundWithoutScaleUp() {
    Fixtures.World w = world(10, 1);
    w.provisioningRequests.add(request("small", BE, 3));
    run(w, OPTIONS);
    assertThat(w.calls).isEmpty();
    assertThat(summary(written.get("small"))).endsWith("Provisioned=True CapacityIsFound: Capacity is found in the cluster\n");
  }

  @Test
  void aProvisionedRequestHoldsItsCapacityAgainstOtherPendingPodsAndItsOwnPendingPodsTriggerNothing() {
    Condition provisioned = new Condition(T0.minusSeconds(60).toString(), CAPACITY_IS_FOUND_MSG, null, CAPACITY_IS_FOUND_REASON, TRUE, PROVISIONED);
    Fixtures.World w = world(10, 1);
    w.provisioningRequests.add(request("held", CC, 2, provisioned));
    // its consumer, pending, asks for more than is free: no scale-up for it (CA's ProvisioningRequestPodsFilter)
    Pod consumer = Fixtures.pod("consumer", "8", "1Gi", null);
    consumer.getMetadata().setAnnotations(Map.of(ProvisioningRequest.CONSUME_ANNOTATION, "held"));
    w.pods.add(consumer);
    Run r = run(w, OPTIONS);
    assertThat(w.calls).isEmpty();
    assertThat(r.of("held").action()).isEqualTo(Action.BOOKED);
    assertThat(written).isEmpty();
    // a 3-CPU pod does not fit beside the 2 booked CPUs
    Fixtures.World w2 = world(10, 1);
    w2.provisioningRequests.add(request("held", CC, 2, provisioned));
    w2.pods.add(Fixtures.pod("big", "3", "1Gi", null));
    run(w2, OPTIONS);
    assertThat(w2.calls).containsExactly("increase ng 1");
    // without the booking it fits
    Fixtures.World w3 = world(10, 1);
    w3.pods.add(Fixtures.pod("big", "3", "1Gi", null));
    run(w3, OPTIONS);
    assertThat(w3.calls).isEmpty();
  }

  @Test
  void theBookingIsConsumedWhenAllItsPodsAreScheduledAndExpiresAfterTenMinutes() {
    Condition provisioned = new Condition(T0.minusSeconds(60).toString(), CAPACITY_IS_FOUND_MSG, null, CAPACITY_IS_FOUND_REASON, TRUE, PROVISIONED);
    Fixtures.World w = world(10, 1);
    w.provisioningRequests.add(request("held", CC, 2, provisioned));
    for (int i = 0; i < 2; i++) {
      Pod p = Fixtures.pod("consumer-" + i, "1", "1Gi", "ng-0");
      p.getMetadata().setAnnotations(Map.of(ProvisioningRequest.CONSUME_ANNOTATION, "held"));
      w.pods.add(p);
    }
    Run r = run(w, OPTIONS);
    assertThat(summary(written.get("held"))).endsWith("BookingExpired=True CapacityBookingConsumed: Capacity booking consumed: all pods scheduled\n");
    assertThat(r.round().booked()).isEmpty();

    Condition old = new Condition(T0.minusSeconds(601).toString(), CAPACITY_IS_FOUND_MSG, null, CAPACITY_IS_FOUND_REASON, TRUE, PROVISIONED);
    Fixtures.World w2 = world(10, 1);
    w2.provisioningRequests.add(request("held", CC, 2, old));
    Run r2 = run(w2, OPTIONS);
    assertThat(summary(written.get("held"))).endsWith("BookingExpired=True CapacityReservationTimeExpired: Capacity reservation time is expired\n");
    assertThat(r2.round().booked()).isEmpty();
    assertThat(r2.of("held").action()).isEqualTo(Action.DONE);
  }

  @Test
  void oneRequestIsTakenUpPerLoopOldestFirstAndOneWhosePodsCannotBeMadeFails() {
    Fixtures.World w = world(10, 1);
    ProvisioningRequest broken = request("broken", CC, 1);
    broken.getSpec().setPodSets(List.of(new PodSet("missing", 1)));
    broken.getMetadata().setCreationTimestamp(T0.minusSeconds(300).toString());
    w.provisioningRequests.add(request("second", CC, 1));
    ProvisioningRequest first = request("first", CC, 1);
    first.getMetadata().setCreationTimestamp(T0.minusSeconds(200).toString());
    w.provisioningRequests.add(first);
    w.provisioningRequests.add(broken);
    w.provisioningRequests.add(request("other-class", "example.com/queued", 1));
    Run r = run(w, OPTIONS);
    assertThat(summary(written.get("broken"))).isEqualTo(
        "Failed=True FailedToCreatePods: missing pod templates, 1 pod templates were referenced, 1 templates were missing: missing\n");
    assertThat(r.of("first").action()).isEqualTo(Action.DECIDED);
    assertThat(r.of("second").action()).isEqualTo(Action.WAITING);
    assertThat(r.of("other-class").action()).isEqualTo(Action.UNSUPPORTED);
    assertThat(written).containsOnlyKeys("broken", "first");
    assertThat(r.decisions()).extracting(Decision::key)
        .containsExactly("default/broken", "default/first", "default/other-class", "default/second");
  }

  @Test
  void bookedCapacityIsNotBufferCapacity() {
    Condition provisioned = new Condition(T0.minusSeconds(60).toString(), CAPACITY_IS_FOUND_MSG, null, CAPACITY_IS_FOUND_REASON, TRUE, PROVISIONED);
    Fixtures.World w = world(10, 1);
    w.templates.put("chunk", Fixtures.podTemplate("chunk", "1", "1Gi"));
    w.buffers.add(Fixtures.buffer("buf", "chunk", 3));
    Run without = run(w, AutoscalerOptions.DEFAULTS);
    assertThat(without.result().buffers()).singleElement().satisfies(b -> assertThat(b.onExistingNodes()).isEqualTo(3));
    assertThat(w.calls).isEmpty();

    Fixtures.World booked = world(10, 1);
    booked.templates.put("chunk", Fixtures.podTemplate("chunk", "1", "1Gi"));
    booked.buffers.add(Fixtures.buffer("buf", "chunk", 3));
    booked.provisioningRequests.add(request("held", CC, 2, provisioned));
    Run with = run(booked, AutoscalerOptions.DEFAULTS);
    assertThat(with.result().buffers()).singleElement().satisfies(b -> {
      assertThat(b.onExistingNodes()).isEqualTo(2);
      assertThat(b.onNewNodes()).isEqualTo(1);
    });
    assertThat(booked.calls).containsExactly("increase ng 1");
  }

  @Test
  void scaleDownKeepsANodeThatHoldsBookedCapacity() {
    Condition provisioned = new Condition(T0.minusSeconds(60).toString(), CAPACITY_IS_FOUND_MSG, null, CAPACITY_IS_FOUND_REASON, TRUE, PROVISIONED);
    Fixtures.World w = world(10, 2);
    w.pods.add(Fixtures.pod("busy", "3", "1Gi", "ng-0"));
    Run without = run(w, AutoscalerOptions.DEFAULTS);
    assertThat(without.result().unneededNodes()).extracting(IterationResult.UnneededNode::node).containsExactly("ng-1");

    Fixtures.World booked = world(10, 2);
    booked.pods.add(Fixtures.pod("busy", "3", "1Gi", "ng-0"));
    booked.provisioningRequests.add(request("held", CC, 2, provisioned));
    Run with = run(booked, AutoscalerOptions.DEFAULTS);
    // first fit: one booked pod in ng-0's last free CPU, the other on ng-1, which has nowhere to move it
    assertThat(with.round().booked()).extracting(p -> p.getSpec().getNodeName()).containsExactly("ng-0", "ng-1");
    assertThat(with.result().unneededNodes()).isEmpty();
  }
}
