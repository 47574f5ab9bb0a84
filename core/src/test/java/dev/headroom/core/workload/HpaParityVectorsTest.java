package dev.headroom.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two series of the e2e tier's {@code HpaParityE2eTest} (the real HPA controller of kube-controller-manager
 * v1.36.3 against {@link HpaAutoscaler}), replayed here on an exact 1 s sync grid, so the boundaries the real run
 * crosses at about 1.01-1.05 s per sync fall exactly on a period or window edge. Upstream source
 * (k8s.io/kubernetes v1.36.3, pkg/controller/podautoscaler):
 *
 * <ul>
 *   <li>{@code horizontal.go} {@code getReplicasChangePerPeriod}: a scale event counts while
 *       {@code timestamp.After(now - period)}, so an event exactly one period old no longer limits.
 *   <li>{@code horizontal.go} {@code stabilizeRecommendationWithBehaviors}: a recommendation counts while
 *       {@code timestamp.After(now - window)}; the up window takes the minimum, the down window the maximum, and the
 *       unstabilised recommendation of this sync is recorded.
 *   <li>{@code horizontal.go} {@code calculateScaleUpLimitWithScalingRules}: Pods
 *       {@code periodStart + value}, Percent {@code ceil(periodStart × (1 + value/100))};
 *       {@code calculateScaleDownLimitWithBehaviors}: Percent {@code int32(periodStart × (1 - value/100))}, which
 *       truncates (7 at 50 % may drop to 3), and selectPolicy Min keeps the largest floor.
 *   <li>{@code replica_calculator.go} {@code GetExternalPerPodMetricReplicas}: {@code ceil(total / target)} unless
 *       {@code |total / (target × status.replicas) - 1|} is within the tolerance (75 over 7 replicas of 10 stays 7);
 *       {@code GetExternalMetricReplicas}: {@code ceil(total / target × ready pods)}.
 * </ul>
 */
class HpaParityVectorsTest {
  private static final Instant T0 = Instant.parse("2026-12-02T14:45:00Z");

  /** A value held from a sync on (seconds after the first sync). */
  private record Step(int from, long value) {}

  private static List<PodInfo> ready(int n) {
    List<PodInfo> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pods.add(PodInfo.running("p-" + i, 100, T0.minusSeconds(600), T0.minusSeconds(600)));
    }
    return pods;
  }

  /** The count after each sync, one sync per second for {@code seconds}, pods Ready at once. */
  private static int[] replay(HpaConfig config, String metric, int initial, int seconds, Step... steps) {
    HpaAutoscaler a = new HpaAutoscaler(config, T0);
    int current = initial;
    int[] after = new int[seconds];
    for (int t = 0; t < seconds; t++) {
      long value = 0;
      for (Step s : steps) {
        if (t >= s.from()) {
          value = s.value();
        }
      }
      HpaDecision d = a.decide(T0.plusSeconds(t), ScaleTarget.of(current, ready(current)),
          Map.of(metric, MetricReading.external(value * 1000)));
      current = d.replicas();
      after[t] = current;
    }
    return after;
  }

  private static HpaConfig config(HpaMetric metric, int min, int max, ScalingRules up, ScalingRules down) {
    return HpaConfig.of(List.of(metric), min, max).withBehavior(new Behavior(up, down)).withSyncPeriod(Duration.ZERO);
  }

  @Test
  void averageValueWithAPodsUpLimitAPercentDownLimitAndADownWindow() {
    HpaConfig c = config(HpaMetric.external("queue_avg", TargetKind.AVERAGE_VALUE, 10_000), 1, 10,
        ScalingRules.of(0, SelectPolicy.MAX, ScalingPolicy.pods(2, 4)),
        ScalingRules.of(6, SelectPolicy.MAX, ScalingPolicy.percent(50, 4)));
    int[] r = replay(c, "queue_avg", 1, 60, new Step(0, 10), new Step(10, 75), new Step(29, 18), new Step(49, 3));
    assertThat(r[9]).isEqualTo(1);
    // 75 / 10 -> 8, but 2 pods per 4 s: 3 at once, 5 exactly 4 s later (the event at t=10 is no longer After the
    // cutoff at t=14), 7 at t=18; at 7, 75 / 70 = 1.07 is within the tolerance, so 8 is never reached.
    assertThat(r[10]).isEqualTo(3);
    assertThat(r[13]).isEqualTo(3);
    assertThat(r[14]).isEqualTo(5);
    assertThat(r[17]).isEqualTo(5);
    assertThat(r[18]).isEqualTo(7);
    assertThat(r[28]).isEqualTo(7);
    // 18 -> 2, held by the 6 s down window while a 7 is After the cutoff (the last 7 was recorded at t=28).
    assertThat(r[33]).isEqualTo(7);
    // t=34: every recommendation After t=28 is 2; Percent 50 of 7 truncates to 3.
    assertThat(r[34]).isEqualTo(3);
    assertThat(r[37]).isEqualTo(3);
    assertThat(r[38]).isEqualTo(2);
    // 3 -> 1 after the window (t=54: every recommendation After t=48 is 1).
    assertThat(r[53]).isEqualTo(2);
    assertThat(r[54]).isEqualTo(1);
    // The path the real controller took in the e2e run.
    assertThat(path(1, r)).containsExactly(1, 3, 5, 7, 3, 2, 1);
  }

  @Test
  void valueTargetWithAnUpWindowMaxUpPoliciesAndMinDownPolicies() {
    HpaConfig c = config(HpaMetric.external("backlog_val", TargetKind.VALUE, 20_000), 1, 12,
        ScalingRules.of(2, SelectPolicy.MAX, ScalingPolicy.percent(100, 3), ScalingPolicy.pods(1, 3)),
        ScalingRules.of(5, SelectPolicy.MIN, ScalingPolicy.pods(1, 2), ScalingPolicy.percent(50, 2)));
    int[] r = replay(c, "backlog_val", 2, 70, new Step(0, 20), new Step(10, 30), new Step(30, 8));
    // 30 / 20 = 1.5 x 2 ready -> 3, held by the 2 s up window at t=10 (the 2 of t=9 is After t=8).
    assertThat(r[10]).isEqualTo(2);
    assertThat(r[11]).isEqualTo(3);
    // At 3 ready -> 5, but the up window still holds the 3 of t=11.
    assertThat(r[12]).isEqualTo(3);
    // Max(Percent 100, Pods 1) over 3 s from the period start 2: 4.
    assertThat(r[13]).isEqualTo(4);
    assertThat(r[29]).isEqualTo(12);
    // 8 / 20 = 0.4 x 12 -> 5; the 5 s down window (the 18 recorded at t=29 is no longer After t=29 at t=34), then
    // Min(Pods 1, Percent 50) per 2 s keeps the larger floor: one pod per 2 s.
    assertThat(r[33]).isEqualTo(12);
    assertThat(r[34]).isEqualTo(11);
    assertThat(r[35]).isEqualTo(11);
    assertThat(r[36]).isEqualTo(10);
    assertThat(r[69]).isEqualTo(1);
    List<Integer> down = path(12, java.util.Arrays.copyOfRange(r, 30, 70));
    assertThat(down).containsExactly(12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  }

  private static List<Integer> path(int initial, int[] after) {
    List<Integer> p = new ArrayList<>(List.of(initial));
    for (int v : after) {
      if (v != p.get(p.size() - 1)) {
        p.add(v);
      }
    }
    return p;
  }
}
