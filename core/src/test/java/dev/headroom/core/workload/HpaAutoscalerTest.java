package dev.headroom.core.workload;

import static dev.headroom.core.workload.HpaFixtures.NOW;
import static dev.headroom.core.workload.HpaFixtures.pods;
import static dev.headroom.core.workload.HpaFixtures.samples;
import static dev.headroom.core.workload.HpaFixtures.uniform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stateful HPA-mode autoscaler: the full-sync vectors U-8, U-9, S-5, C-1, C-2, the reconcile branches,
 * the ScaledToZero marker, and KEDA semantics (spec section 6).
 */
class HpaAutoscalerTest {

  private static final HpaMetric CPU30 = HpaMetric.resourceUtilization("cpu", 30);

  private static HpaDecision once(HpaConfig config, ScaleTarget target, Map<String, MetricReading> readings) {
    return HpaAutoscaler.withHistory(config, NOW, new ScalingHistory()).decide(NOW, target, readings);
  }

  @Test
  void u8_minClampsTheProposal() {
    HpaConfig c = HpaConfig.of(List.of(HpaMetric.resourceUtilization("cpu", 90)), 2, 10);
    HpaDecision d = once(c, ScaleTarget.of(3, pods(1800, 2000, 2200)), Map.of("cpu", samples(20, 190, 20)));
    assertThat(d.replicas()).isEqualTo(2);
    assertThat(d.scalingLimited()).isEqualTo(HpaReasons.TOO_FEW_REPLICAS);
    assertThat(d.reason()).isEqualTo(HpaReasons.TOO_FEW_REPLICAS);
  }

  @Test
  void u9_minZeroGoesToZero() {
    // The calculator proposes 0 (HpaReplicaCalculatorTest U-9); with min 0 nothing lifts it.
    HpaNormalizer.Normalized n = HpaNormalizer.normalizeLegacy(new ScalingHistory(), NOW,
        HpaNormalizer.DEFAULT_DOWNSCALE_STABILIZATION, 3, 0, 0, 10);
    assertThat(n.replicas()).isZero();
  }

  @Test
  void s5_theSeededRecommendationHoldsAScaleDownAfterStart() {
    HpaConfig c = HpaConfig.of(List.of(HpaMetric.resourceUtilization("cpu", 50)), 1, 10);
    HpaAutoscaler a = new HpaAutoscaler(c, NOW);
    HpaDecision d = a.decide(NOW, ScaleTarget.of(5, uniform(5, 2000)), Map.of("cpu", samples(200, 600, 1000, 500, 500)));
    assertThat(d.replicas()).isEqualTo(5);
    assertThat(d.ableToScale()).isEqualTo(HpaReasons.SCALE_DOWN_STABILIZED);
    // The same input with an empty history scales to 3.
    HpaDecision fresh = once(c, ScaleTarget.of(5, uniform(5, 2000)), Map.of("cpu", samples(200, 600, 1000, 500, 500)));
    assertThat(fresh.replicas()).isEqualTo(3);
    // Five minutes later the window has passed.
    HpaDecision later = a.decide(NOW.plusSeconds(301), ScaleTarget.of(5, uniform(5, 2000)),
        Map.of("cpu", samples(200, 600, 1000, 500, 500)));
    assertThat(later.replicas()).isEqualTo(3);
  }

  @Test
  void c1_outOfRangeCountsNeedNoMetrics() {
    HpaDecision below = once(HpaConfig.of(List.of(CPU30), 2, 6), ScaleTarget.of(1, List.of()), Map.of());
    assertThat(below.replicas()).isEqualTo(2);
    assertThat(below.reason()).isEqualTo(HpaReasons.CURRENT_BELOW_MIN);
    HpaDecision above = once(HpaConfig.of(List.of(CPU30), 2, 5), ScaleTarget.of(6, List.of()), Map.of());
    assertThat(above.replicas()).isEqualTo(5);
    assertThat(above.reason()).isEqualTo(HpaReasons.CURRENT_ABOVE_MAX);
  }

  @Test
  void c2_aScaleUpGoesAheadDespiteAnInvalidMetric() {
    HpaConfig c = HpaConfig.of(List.of(CPU30, HpaMetric.pods("qps", 10_000)), 1, 10);
    HpaDecision d = once(c, ScaleTarget.of(3, uniform(3, 1000)),
        Map.of("cpu", samples(300, 400, 500), "qps", new MetricReading.Failed("adapter unavailable")));
    assertThat(d.replicas()).isEqualTo(4);
    assertThat(d.by()).isEqualTo("cpu");
    assertThat(d.error()).contains("1 invalid out of 2").contains("adapter unavailable");
  }

  @Test
  void aScaleDownWithAnInvalidMetricDoesNotScale() {
    HpaConfig c = HpaConfig.of(List.of(CPU30, HpaMetric.pods("qps", 10_000)), 1, 10);
    HpaDecision d = once(c, ScaleTarget.of(3, uniform(3, 1000)),
        Map.of("cpu", samples(10, 10, 10), "qps", new MetricReading.Failed("adapter unavailable")));
    assertThat(d.replicas()).isEqualTo(3);
    assertThat(d.reason()).isEqualTo(HpaReasons.FAILED_COMPUTE_METRICS_REPLICAS);
    assertThat(d.scalingActive()).isEqualTo(HpaReasons.FAILED_GET_PODS_METRIC);
  }

  @Test
  void severalMetricsTakeTheMaximumWithTiesToTheFirst() {
    HpaMetric a = HpaMetric.external("a", TargetKind.AVERAGE_VALUE, 10_000);
    HpaMetric b = HpaMetric.external("b", TargetKind.AVERAGE_VALUE, 10_000);
    HpaConfig c = HpaConfig.of(List.of(a, b), 1, 100);
    ScaleTarget t = ScaleTarget.of(2, uniform(2, 1000));
    assertThat(once(c, t, Map.of("a", MetricReading.external(50_000), "b", MetricReading.external(50_000))).by())
        .isEqualTo("a");
    assertThat(once(c, t, Map.of("a", MetricReading.external(30_000), "b", MetricReading.external(40_000))).by())
        .isEqualTo("b");
  }

  @Test
  void zeroWithMinAtLeastOneMeansDisabled() {
    HpaDecision d = once(HpaConfig.of(List.of(CPU30), 1, 10), ScaleTarget.of(0, List.of()), Map.of());
    assertThat(d.replicas()).isZero();
    assertThat(d.reason()).isEqualTo(HpaReasons.SCALING_DISABLED);
  }

  @Test
  void scaleToZeroKeepsTheMarkerAndAHandSetZeroStaysPaused() {
    HpaMetric queue = HpaMetric.object("queue", TargetKind.VALUE, 20_000);
    HpaConfig c = HpaConfig.of(List.of(queue), 0, 10);
    HpaAutoscaler a = HpaAutoscaler.withHistory(c, NOW, new ScalingHistory());
    HpaDecision down = a.decide(NOW, ScaleTarget.of(3, uniform(3, 1000)), Map.of("queue", new MetricReading.ObjectValue(0)));
    assertThat(down.replicas()).isZero();
    assertThat(a.scaledToZero()).isTrue();
    // From zero: ceil(value / target) with no tolerance.
    HpaDecision up = a.decide(NOW.plusSeconds(15), ScaleTarget.of(0, List.of()),
        Map.of("queue", new MetricReading.ObjectValue(41_000)));
    assertThat(up.replicas()).isEqualTo(3);
    assertThat(a.scaledToZero()).isFalse();
    // A workload someone else set to zero stays paused.
    HpaAutoscaler manual = HpaAutoscaler.withHistory(c, NOW, new ScalingHistory());
    HpaDecision paused = manual.decide(NOW, ScaleTarget.of(0, List.of()), Map.of("queue", new MetricReading.ObjectValue(41_000)));
    assertThat(paused.replicas()).isZero();
    assertThat(paused.reason()).isEqualTo(HpaReasons.SCALING_DISABLED);
  }

  @Test
  void minZeroNeedsAnObjectOrExternalMetric() {
    assertThatThrownBy(() -> HpaConfig.of(List.of(CPU30), 0, 10)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reconcilesOnlyWhenTheSyncPeriodHasElapsed() {
    HpaConfig c = HpaConfig.of(List.of(CPU30), 1, 10);
    HpaAutoscaler a = new HpaAutoscaler(c, NOW);
    ScaleTarget t = ScaleTarget.of(3, uniform(3, 1000));
    Map<String, MetricReading> hot = Map.of("cpu", samples(600, 600, 600));
    assertThat(a.decide(NOW, t, hot).replicas()).isEqualTo(6);
    HpaDecision early = a.decide(NOW.plusSeconds(10), t, hot);
    assertThat(early.reason()).isEqualTo(HpaReasons.NOT_DUE);
    assertThat(early.actor()).isEqualTo(HpaDecision.Actor.NONE);
    assertThat(a.decide(NOW.plusSeconds(15), t, hot).actor()).isEqualTo(HpaDecision.Actor.HPA);
  }

  @Test
  void behaviourPathRecordsEventsThatLimitLaterScaleUps() {
    Behavior b = new Behavior(ScalingRules.of(null, null, ScalingPolicy.pods(4, 60)), null);
    HpaConfig c = HpaConfig.of(List.of(HpaMetric.external("q", TargetKind.AVERAGE_VALUE, 1000)), 1, 100).withBehavior(b);
    HpaAutoscaler a = HpaAutoscaler.withHistory(c, NOW, new ScalingHistory());
    Map<String, MetricReading> lots = Map.of("q", MetricReading.external(50_000));
    int r = 10;
    int[] seen = new int[3];
    Instant[] at = {NOW, NOW.plusSeconds(15), NOW.plusSeconds(61)};
    for (int i = 0; i < 3; i++) {
      HpaDecision d = a.decide(at[i], ScaleTarget.of(r, uniform(r, 1000)), lots);
      r = d.replicas();
      seen[i] = r;
    }
    assertThat(seen).containsExactly(14, 14, 18);
    // The event at NOW is older than the longest period (60 s) by then, so its slot is reused.
    assertThat(a.history().scaleUpEvents()).containsExactly(new ScalingHistory.ScaleEvent(4, NOW.plusSeconds(61), false));
  }

  @Test
  void perDirectionToleranceFromTheBehaviour() {
    Behavior b = new Behavior(new ScalingRules(null, null, null, 0.01), null);
    HpaConfig c = HpaConfig.of(List.of(HpaMetric.external("ext", TargetKind.VALUE, 8800)), 1, 10).withBehavior(b);
    HpaDecision d = once(c, ScaleTarget.of(3, uniform(3, 1000)), Map.of("ext", MetricReading.external(8900)));
    assertThat(d.replicas()).isEqualTo(4);
  }

  // ---- KEDA -----------------------------------------------------------------------------------------------

  private static final HpaMetric QUEUE = HpaMetric.external("queue", TargetKind.AVERAGE_VALUE, 10_000);

  private static Map<String, MetricReading> queue(long items) {
    return Map.of("queue", MetricReading.external(items * 1000));
  }

  @Test
  void kedaWakesOnlyStrictlyAboveTheActivationThreshold() {
    KedaConfig k = KedaConfig.defaults().withActivationThresholds(Map.of("queue", 5000L));
    HpaAutoscaler a = new HpaAutoscaler(HpaConfig.keda(List.of(QUEUE), k), NOW);
    HpaDecision at5 = a.decide(NOW, ScaleTarget.of(0, List.of()), queue(5));
    assertThat(at5.replicas()).isZero();
    HpaDecision at6 = a.decide(NOW.plusSeconds(30), ScaleTarget.of(0, List.of()), queue(6));
    assertThat(at6.replicas()).isEqualTo(1);
    assertThat(at6.actor()).isEqualTo(HpaDecision.Actor.KEDA);
    assertThat(at6.reason()).isEqualTo(HpaReasons.KEDA_ACTIVATED);
    // At 1..N the generated HPA sizes it: ceil(60 / 10) = 6, within the legacy up-limit of max(2, 4) = 4.
    HpaDecision hpa = a.decide(NOW.plusSeconds(31), ScaleTarget.of(1, uniform(1, 1000)), queue(60));
    assertThat(hpa.actor()).isEqualTo(HpaDecision.Actor.HPA);
    assertThat(hpa.replicas()).isEqualTo(4);
  }

  @Test
  void kedaActivationWinsOverTheThresholdForTheDropToZero() {
    // threshold 10, activation 50, 40 messages: inactive, so it goes to 0 although the HPA alone wants 4.
    KedaConfig k = KedaConfig.defaults().withActivationThresholds(Map.of("queue", 50_000L));
    HpaAutoscaler a = new HpaAutoscaler(HpaConfig.keda(List.of(QUEUE), k), NOW.minusSeconds(1));
    HpaDecision d = a.decide(NOW, ScaleTarget.of(4, uniform(4, 1000)), queue(40));
    assertThat(d.replicas()).isZero();
    assertThat(d.reason()).isEqualTo(HpaReasons.KEDA_DEACTIVATED);
  }

  @Test
  void kedaWaitsForTheCooldownAfterTheLastActivePoll() {
    KedaConfig k = KedaConfig.defaults();
    HpaAutoscaler a = new HpaAutoscaler(HpaConfig.keda(List.of(QUEUE), k), NOW);
    a.decide(NOW, ScaleTarget.of(3, uniform(3, 1000)), queue(30));
    assertThat(a.lastActive()).isEqualTo(NOW);
    Instant t = NOW;
    int replicas = 3;
    HpaDecision d = null;
    for (int i = 0; i < 40 && replicas > 0; i++) {
      t = t.plusSeconds(15);
      d = a.decide(t, ScaleTarget.of(replicas, uniform(replicas, 1000)), queue(0));
      replicas = d.replicas();
    }
    assertThat(replicas).isZero();
    assertThat(d.actor()).isEqualTo(HpaDecision.Actor.KEDA);
    // Polls every 30 s; lastActive + 300 s must be strictly before the poll: the first poll after 300 s is at 330 s.
    assertThat(t).isEqualTo(NOW.plusSeconds(330));
    assertThat(a.scaledToZero()).isTrue();
  }

  @Test
  void kedaReportsTheCooldownWhileWaiting() {
    HpaConfig c = HpaConfig.keda(List.of(QUEUE), KedaConfig.defaults()).withSyncPeriod(Duration.ofHours(1));
    HpaAutoscaler a = new HpaAutoscaler(c, NOW);
    a.decide(NOW, ScaleTarget.of(1, uniform(1, 1000)), queue(5));
    HpaDecision d = a.decide(NOW.plusSeconds(30), ScaleTarget.of(1, uniform(1, 1000)), queue(0));
    assertThat(d.replicas()).isEqualTo(1);
    assertThat(d.reason()).isEqualTo(HpaReasons.KEDA_SCALER_COOLDOWN);
  }

  @Test
  void kedaNeverReachesZeroWithMinAtLeastOneOrCpuOnlyTriggers() {
    KedaConfig min1 = KedaConfig.defaults().withReplicas(1, 10);
    HpaAutoscaler a = new HpaAutoscaler(HpaConfig.keda(List.of(QUEUE), min1), NOW.minusSeconds(3600));
    for (int i = 0; i < 30; i++) {
      assertThat(a.decide(NOW.plusSeconds(30L * i), ScaleTarget.of(1, uniform(1, 1000)), queue(0)).replicas()).isEqualTo(1);
    }
    HpaAutoscaler cpuOnly = new HpaAutoscaler(
        HpaConfig.keda(List.of(HpaMetric.resourceUtilization("cpu", 50)), KedaConfig.defaults()), NOW.minusSeconds(3600));
    for (int i = 0; i < 30; i++) {
      HpaDecision d = cpuOnly.decide(NOW.plusSeconds(30L * i), ScaleTarget.of(1, uniform(1, 1000)),
          Map.of("cpu", samples(0)));
      assertThat(d.replicas()).isEqualTo(1);
    }
  }

  @Test
  void kedaIdleReplicaCount() {
    KedaConfig k = KedaConfig.defaults().withReplicas(2, 10).withIdleReplicaCount(0);
    HpaAutoscaler a = new HpaAutoscaler(HpaConfig.keda(List.of(QUEUE), k), NOW.minusSeconds(3600));
    assertThat(a.decide(NOW, ScaleTarget.of(3, uniform(3, 1000)), queue(0)).replicas()).isZero();
    HpaDecision wake = a.decide(NOW.plusSeconds(30), ScaleTarget.of(0, List.of()), queue(1));
    assertThat(wake.replicas()).isEqualTo(2);
    assertThatThrownBy(() -> KedaConfig.defaults().withReplicas(2, 10).withIdleReplicaCount(2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void kedaInitialCooldownAppliesWhileNeverActive() {
    KedaConfig k = KedaConfig.defaults().withInitialCooldown(Duration.ofSeconds(120));
    HpaConfig c = HpaConfig.keda(List.of(QUEUE), k).withSyncPeriod(Duration.ofHours(1));
    HpaAutoscaler a = new HpaAutoscaler(c, NOW);
    a.decide(NOW, ScaleTarget.of(2, uniform(2, 1000)), queue(0));
    assertThat(a.decide(NOW.plusSeconds(120), ScaleTarget.of(2, uniform(2, 1000)), queue(0)).replicas()).isEqualTo(2);
    assertThat(a.decide(NOW.plusSeconds(150), ScaleTarget.of(2, uniform(2, 1000)), queue(0)).replicas()).isZero();
  }

  @Test
  void kedaPausedAndScaleInPaused() {
    HpaAutoscaler paused = new HpaAutoscaler(
        HpaConfig.keda(List.of(QUEUE), KedaConfig.defaults().withPause(true, false)), NOW.minusSeconds(3600));
    assertThat(paused.decide(NOW, ScaleTarget.of(0, List.of()), queue(100)).replicas()).isZero();
    HpaAutoscaler noScaleIn = new HpaAutoscaler(
        HpaConfig.keda(List.of(QUEUE), KedaConfig.defaults().withPause(false, true)), NOW.minusSeconds(3600));
    HpaDecision d = noScaleIn.decide(NOW, ScaleTarget.of(2, uniform(2, 1000)), queue(0));
    assertThat(d.replicas()).isGreaterThan(0);
  }

  @Test
  void kedaTriggerErrorWithoutFallbackDoesNotScale() {
    HpaConfig c = HpaConfig.keda(List.of(QUEUE), KedaConfig.defaults()).withSyncPeriod(Duration.ofHours(1));
    HpaAutoscaler a = new HpaAutoscaler(c, NOW.minusSeconds(3600));
    a.decide(NOW.minusSeconds(1), ScaleTarget.of(2, uniform(2, 1000)), queue(20));
    HpaDecision d = a.decide(NOW.plusSeconds(30), ScaleTarget.of(2, uniform(2, 1000)),
        Map.of("queue", new MetricReading.Failed("broker down")));
    assertThat(d.replicas()).isEqualTo(2);
    assertThat(d.reason()).isEqualTo(HpaReasons.KEDA_TRIGGER_ERROR);
  }

  @Test
  void kedaFallbackStartsAfterTheThresholdStrictly() {
    KedaConfig k = KedaConfig.defaults().withReplicas(1, 20).withFallback(new Fallback(3, 6, Fallback.Mode.STATIC));
    HpaConfig c = HpaConfig.keda(List.of(QUEUE), k).withSyncPeriod(Duration.ZERO);
    HpaAutoscaler a = new HpaAutoscaler(c, NOW.minusSeconds(3600));
    Map<String, MetricReading> failed = Map.of("queue", new MetricReading.Failed("broker down"));
    ScaleTarget four = ScaleTarget.of(4, uniform(4, 1000));
    for (int i = 1; i <= 3; i++) {
      HpaDecision d = a.decide(NOW.plusSeconds(i), four, failed);
      assertThat(d.replicas()).as("failure %d", i).isEqualTo(4);
      assertThat(d.fallbackActive()).isFalse();
    }
    HpaDecision fourth = a.decide(NOW.plusSeconds(4), four, failed);
    assertThat(a.consecutiveFailures("queue")).isEqualTo(4);
    assertThat(fourth.fallbackActive()).isTrue();
    assertThat(fourth.replicas()).isEqualTo(6);
    // A successful read resets the counter.
    a.decide(NOW.plusSeconds(5), ScaleTarget.of(6, uniform(6, 1000)), queue(60));
    assertThat(a.consecutiveFailures("queue")).isZero();
  }

  @Test
  void fallbackModesAndSyntheticValues() {
    assertThat(new Fallback(1, 5, Fallback.Mode.STATIC).replicasFor(9)).isEqualTo(5);
    assertThat(new Fallback(1, 5, Fallback.Mode.CURRENT_REPLICAS).replicasFor(9)).isEqualTo(9);
    assertThat(new Fallback(1, 5, Fallback.Mode.CURRENT_REPLICAS_IF_HIGHER).replicasFor(3)).isEqualTo(5);
    assertThat(new Fallback(1, 5, Fallback.Mode.CURRENT_REPLICAS_IF_LOWER).replicasFor(3)).isEqualTo(3);
    assertThat(Fallback.syntheticValue(HpaMetric.external("v", TargetKind.VALUE, 4000), 6, 3)).hasValue(8000);
    assertThat(Fallback.syntheticValue(HpaMetric.external("v", TargetKind.VALUE, 4000), 6, 0)).isEmpty();
    assertThat(Fallback.syntheticValue(QUEUE, 6, 0)).hasValue(60_000);
    assertThatThrownBy(() -> HpaConfig.keda(List.of(HpaMetric.resourceUtilization("cpu", 50)),
        KedaConfig.defaults().withFallback(new Fallback(3, 1, Fallback.Mode.STATIC))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void kedaPollsOnItsOwnInterval() {
    KedaConfig k = KedaConfig.defaults();
    HpaConfig c = HpaConfig.keda(List.of(QUEUE), k);
    HpaAutoscaler a = new HpaAutoscaler(c, NOW);
    assertThat(a.decide(NOW, ScaleTarget.of(0, List.of()), queue(0)).replicas()).isZero();
    // Work arrives 5 s later, but the next poll is at 30 s.
    assertThat(a.decide(NOW.plusSeconds(5), ScaleTarget.of(0, List.of()), queue(10)).replicas()).isZero();
    assertThat(a.decide(NOW.plusSeconds(29), ScaleTarget.of(0, List.of()), queue(10)).replicas()).isZero();
    assertThat(a.decide(NOW.plusSeconds(30), ScaleTarget.of(0, List.of()), queue(10)).replicas()).isEqualTo(1);
  }
}
