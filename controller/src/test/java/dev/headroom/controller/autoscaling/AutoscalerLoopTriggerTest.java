package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.EventSink;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The loop's triggers: an iteration on {@link AutoscalerLoop#trigger(Instant)}, held after a productive one. */
class AutoscalerLoopTriggerTest {
  /** Far beyond the tests' waits: any iteration they see was triggered. */
  private static final Duration HOUR = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicInteger iterations = new AtomicInteger();
  private AutoscalerLoop loop;

  @AfterEach
  void stop() {
    if (loop != null) {
      loop.stop();
    }
  }

  /** A Ready node outside any group, so the group's template is its own. */
  private static Node node(String name, String cpu, boolean ready) {
    Node n = groupNode(name, cpu, ready);
    n.getMetadata().setLabels(Map.of());
    return n;
  }

  private static Node groupNode(String name, String cpu, boolean ready) {
    Map<String, Quantity> r = Map.of("cpu", new Quantity(cpu), "memory", new Quantity("8Gi"), "pods", new Quantity("110"));
    return new NodeBuilder().withNewMetadata().withName(name).withUid(name).withCreationTimestamp(CREATED.toString())
        .withLabels(Map.of(NodeGroupLabels.NODE_GROUP, "ng")).endMetadata().withNewSpec().endSpec()
        .withNewStatus().withCapacity(r).withAllocatable(r).addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
        .endCondition().endStatus().build();
  }

  private static Pod pending(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid(name).withCreationTimestamp(CREATED.toString())
        .endMetadata().withNewSpec().addNewContainer().withName("c").withNewResources().addToRequests("cpu", new Quantity("2"))
        .addToRequests("memory", new Quantity("1Gi")).endResources().endContainer().endSpec()
        .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
        .endCondition().endStatus().build();
  }

  /** Starts a loop of scan interval {@code interval} over {@code view}, counting iterations (each reads the nodes once). */
  private RecordingNodeGroupProvider start(ClusterView view, Duration interval) {
    RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(
        new NodeGroup("ng", 0, 10, 0, 1.0, Duration.ZERO, groupNode("template-ng", "4", true), NodeGroupOptions.NONE, null)));
    ClusterView counted = (ClusterView) Proxy.newProxyInstance(ClusterView.class.getClassLoader(), new Class<?>[] {ClusterView.class},
        (proxy, m, args) -> {
          if (m.getName().equals("nodes")) {
            iterations.incrementAndGet();
          }
          try {
            return m.invoke(view, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    AutoscalerOptions options = AutoscalerOptions.builder().set(AutoscalerOptions.SCALE_DOWN_ENABLED, false).build();
    PhaseTimer timer = new PhaseTimer(Ticker.SYSTEM);
    loop = new AutoscalerLoop(() -> new AutoscalerLoop.Iteration(new Autoscaler(options, counted, provider, EventSink.NONE,
        (BufferStatusWriter) (b, c) -> {}, new AutoscalerState(options), SnapshotSimulation::new), counted, provider),
        timer, null, Clock.systemUTC(), Ticker.SYSTEM, interval, () -> true);
    loop.start();
    return provider;
  }

  @Test
  void aTriggerRunsAnIterationWithoutWaitingForTheScanInterval() {
    start(StaticClusterView.builder().node(node("n1", "1", true)).build(), HOUR);
    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> iterations.get() == 0);
    loop.trigger();
    await().atMost(Duration.ofSeconds(10)).until(() -> loop.last() != null);
    IterationResult first = loop.last();
    loop.trigger();
    await().atMost(Duration.ofSeconds(10)).until(() -> loop.last() != first);
    // idle iterations trigger nothing more
    int n = iterations.get();
    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> iterations.get() == n);
    assertThat(n).isEqualTo(2);
  }

  @Test
  void afterAScaleUpTriggersWaitForTheNextScanInterval() {
    RecordingNodeGroupProvider provider = start(StaticClusterView.builder().node(node("n1", "1", true)).pod(pending("p")).build(),
        Duration.ofSeconds(3));
    loop.trigger();
    await().atMost(Duration.ofSeconds(10)).until(() -> loop.last() != null);
    assertThat(iterations).hasValue(1);
    assertThat(provider.increases()).singleElement().satisfies(i -> assertThat(i.group()).isEqualTo("ng"));
    // the scale-up's node is given the interval: a trigger now is held until the next regular iteration
    loop.trigger();
    await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> iterations.get() == 1);
    await().atMost(Duration.ofSeconds(10)).until(() -> iterations.get() == 2 && loop.last().scaleUp().isEmpty());
    // which finds the pod on the upcoming node: no second scale-up, and triggers act at once again
    assertThat(provider.increases()).hasSize(1);
    assertThat(loop.last().scaleUp()).isEmpty();
    IterationResult second = loop.last();
    loop.trigger();
    await().atMost(Duration.ofSeconds(2)).until(() -> loop.last() != second);
  }

  @Test
  void aTriggerForALaterInstantRunsItsIterationThenAndNotBefore() {
    start(StaticClusterView.builder().node(node("n1", "1", true)).build(), HOUR);
    long asked = System.nanoTime();
    loop.trigger(Instant.now().plusMillis(800));
    loop.trigger(Instant.now().plusSeconds(600)); // coalesced with the earlier one
    await().atMost(Duration.ofSeconds(10)).until(() -> loop.last() != null);
    assertThat(Duration.ofNanos(System.nanoTime() - asked)).isGreaterThanOrEqualTo(Duration.ofMillis(700));
    int n = iterations.get();
    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> iterations.get() == n);
    assertThat(n).isEqualTo(1);
  }

  @Test
  void newDemandWakesTheLoopWhenItsCooldownEnds() {
    java.util.List<Instant> woken = new java.util.ArrayList<>();
    Pod young = pending("young");
    Instant now = CREATED.plusMillis(300);
    new DemandTrigger(AutoscalerOptions.DEFAULTS, Clock.fixed(now, java.time.ZoneOffset.UTC), woken::add).onAdd(young);
    // created at CREATED, so the scale-up step waits for more pods until CREATED + new-pod-cooldown (2 s)
    assertThat(woken).containsExactly(CREATED.plus(AutoscalerOptions.DEFAULTS.newPodCooldown()));
    AutoscalerOptions bypassing = AutoscalerOptions.builder().set(AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, "other").build();
    new DemandTrigger(bypassing, Clock.fixed(now, java.time.ZoneOffset.UTC), woken::add).onAdd(young);
    assertThat(woken).last().isEqualTo(now); // no cooldown with bypassed schedulers
    AutoscalerOptions none = AutoscalerOptions.builder().set(AutoscalerOptions.NEW_POD_COOLDOWN, Duration.ZERO).build();
    new DemandTrigger(none, Clock.fixed(now, java.time.ZoneOffset.UTC), woken::add).onAdd(young);
    assertThat(woken).last().isEqualTo(now);
  }

  @Test
  void withoutTriggersItIteratesEveryScanInterval() {
    start(StaticClusterView.builder().node(node("n1", "1", true)).build(), Duration.ofMillis(200));
    await().atMost(Duration.ofSeconds(10)).until(() -> iterations.get() >= 3);
  }

  @Test
  void demandWakesTheLoopOnlyWhenAPodBecomesDemand() {
    AtomicInteger woken = new AtomicInteger();
    Clock later = Clock.fixed(CREATED.plusSeconds(60), java.time.ZoneOffset.UTC);
    DemandTrigger t = new DemandTrigger(AutoscalerOptions.DEFAULTS, later, at -> woken.incrementAndGet());
    Pod fresh = pending("fresh");
    fresh.setStatus(null); // not tried by its scheduler yet: not demand without a bypassed scheduler
    Pod marked = pending("fresh");
    Pod bound = pending("bound");
    bound.getSpec().setNodeName("n1");
    t.onAdd(fresh);
    t.onAdd(bound);
    assertThat(woken).hasValue(0);
    t.onUpdate(fresh, marked);
    assertThat(woken).hasValue(1);
    t.onUpdate(marked, marked); // still demand: a status update of a pod that stays pending
    t.onUpdate(marked, bound);
    assertThat(woken).hasValue(1);
    t.onAdd(marked);
    assertThat(woken).hasValue(2);
    DemandTrigger bypassing = new DemandTrigger(AutoscalerOptions.builder()
        .set(AutoscalerOptions.BYPASSED_SCHEDULER_NAMES, "default-scheduler").build(), later, at -> woken.incrementAndGet());
    bypassing.onAdd(fresh);
    assertThat(woken).hasValue(3);
  }
}
