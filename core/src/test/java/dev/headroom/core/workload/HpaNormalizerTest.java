package dev.headroom.core.workload;

import static dev.headroom.core.workload.HpaFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Behaviour, rate-limit and stabilisation vectors of spec section 7.7 (B-1..B-19, S-1..S-4). */
class HpaNormalizerTest {

  private static final Duration FIVE_MIN = HpaNormalizer.DEFAULT_DOWNSCALE_STABILIZATION;

  private static Behavior up(SelectPolicy select, ScalingPolicy... policies) {
    return new Behavior(ScalingRules.of(null, select, policies), null).withDefaults(FIVE_MIN, Tolerance.DEFAULT);
  }

  private static Behavior down(SelectPolicy select, ScalingPolicy... policies) {
    return new Behavior(null, ScalingRules.of(null, select, policies)).withDefaults(FIVE_MIN, Tolerance.DEFAULT);
  }

  private static final Behavior DEFAULTS = Behavior.defaults().withDefaults(FIVE_MIN, Tolerance.DEFAULT);

  private static Arguments b(String id, int min, int max, int cur, int pre, Behavior behavior, ScalingHistory h,
      int expected, String reason) {
    return Arguments.of(id, min, max, cur, pre, behavior, h, expected, reason);
  }

  private static ScalingHistory ups(int... changes) {
    ScalingHistory h = new ScalingHistory();
    for (int i = 0; i < changes.length; i++) {
      h.scaleUp(changes[i], NOW.minusSeconds(10L * (i + 1)));
    }
    return h;
  }

  private static ScalingHistory downs(int... changes) {
    ScalingHistory h = new ScalingHistory();
    for (int i = 0; i < changes.length; i++) {
      h.scaleDown(changes[i], NOW.minusSeconds(10L * (i + 1)));
    }
    return h;
  }

  static Stream<Arguments> rateVectors() {
    ScalingHistory none = new ScalingHistory();
    return Stream.of(
        b("B-1 [D1]", 3, 8, 5, 7, DEFAULTS, none, 7, HpaReasons.DESIRED_WITHIN_RANGE),
        b("B-2 [D2]", 2, 8, 3, 1, DEFAULTS, none, 2, HpaReasons.TOO_FEW_REPLICAS),
        b("B-3 [D3]", 0, 10, 1, 0, DEFAULTS, none, 0, HpaReasons.DESIRED_WITHIN_RANGE),
        b("B-4 [D4]", 1, 10, 20, 1000, DEFAULTS, none, 10, HpaReasons.TOO_MANY_REPLICAS),
        b("B-5 [D5]", 1, 1000, 10, 50, DEFAULTS, none, 20, HpaReasons.SCALE_UP_LIMIT),
        b("B-6 [D6]", 1, 2000, 3, 1000, up(null, ScalingPolicy.percent(1, 60)), none, 4, HpaReasons.SCALE_UP_LIMIT),
        b("B-7 [D8]", 1, 1000, 10, 500, up(SelectPolicy.MAX, ScalingPolicy.pods(100, 60), ScalingPolicy.percent(100, 60)),
            none, 110, HpaReasons.SCALE_UP_LIMIT),
        b("B-7 [D9]", 1, 1000, 10, 500, up(SelectPolicy.MAX, ScalingPolicy.pods(2, 60), ScalingPolicy.percent(100, 60)),
            none, 20, HpaReasons.SCALE_UP_LIMIT),
        b("B-8 [D10]", 1, 1000, 10, 50, up(null, ScalingPolicy.pods(30, 60)), none, 40, HpaReasons.SCALE_UP_LIMIT),
        b("B-8 [D11]", 1, 1000, 10, 50, up(null, ScalingPolicy.percent(200, 60)), none, 30, HpaReasons.SCALE_UP_LIMIT),
        b("B-9 [D12]", 1, 1000, 100, 2,
            down(SelectPolicy.MAX, ScalingPolicy.pods(20, 60), ScalingPolicy.percent(1, 60)), none, 80,
            HpaReasons.SCALE_DOWN_LIMIT),
        b("B-9 [D13]", 1, 1000, 100, 2,
            down(SelectPolicy.MAX, ScalingPolicy.pods(2, 60), ScalingPolicy.percent(1, 60)), none, 98,
            HpaReasons.SCALE_DOWN_LIMIT),
        b("B-10 [D14]", 5, 1000, 10, 2, down(null, ScalingPolicy.percent(100, 60)), none, 5, HpaReasons.TOO_FEW_REPLICAS),
        b("B-11 [D15]", 1, 1000, 10, 2, down(null, ScalingPolicy.pods(5, 60)), none, 5, HpaReasons.SCALE_DOWN_LIMIT),
        b("B-12 [D16]", 1, 1000, 100, 500, up(null, ScalingPolicy.pods(150, 120)), ups(1, 5, 9), 235,
            HpaReasons.SCALE_UP_LIMIT),
        b("B-13 [D17]", 1, 1000, 100, 500, up(null, ScalingPolicy.percent(200, 120)), ups(1, 5, 9), 255,
            HpaReasons.SCALE_UP_LIMIT),
        b("B-14 [D18]", 1, 1000, 100, 500, up(null, ScalingPolicy.pods(5, 120)), ups(1, 5, 9), 100,
            HpaReasons.SCALE_UP_LIMIT),
        b("B-15 [D19]", 1, 1000, 6, 24, up(null, ScalingPolicy.percent(300, 300)), ups(4).scaleDown(2, NOW.minusSeconds(5)),
            16, HpaReasons.SCALE_UP_LIMIT),
        b("B-16 [D20]", 1, 1000, 100, 0, down(null, ScalingPolicy.percent(50, 120)), downs(2, 4, 6), 56,
            HpaReasons.SCALE_DOWN_LIMIT),
        b("B-17 [D21]", 1, 1000, 10, 1, down(null, ScalingPolicy.percent(50, 180)), downs(4).scaleUp(2, NOW.minusSeconds(5)),
            6, HpaReasons.SCALE_DOWN_LIMIT),
        b("B-18 [D22]", 1, 1000, 100, 0, down(null, ScalingPolicy.percent(10, 120)), downs(10, 10, 10), 100,
            HpaReasons.SCALE_DOWN_LIMIT));
  }

  @ParameterizedTest(name = "{0}: {3} -> {4} gives {7}")
  @MethodSource("rateVectors")
  void behaviourRateVector(String id, int min, int max, int cur, int pre, Behavior behavior, ScalingHistory h,
      int expected, String reason) {
    HpaNormalizer.Limit limit = HpaNormalizer.convertWithBehaviorRate(h, NOW, behavior, cur, pre, min, max);
    assertThat(limit.replicas()).as(id).isEqualTo(expected);
    assertThat(limit.reason()).as(id).isEqualTo(reason);
  }

  static Stream<Arguments> legacyVectors() {
    return Stream.of(
        Arguments.of("B-1 [D1]", 3, 8, 5, 7, 7, HpaReasons.DESIRED_WITHIN_RANGE),
        Arguments.of("B-2 [D2]", 2, 8, 3, 1, 2, HpaReasons.TOO_FEW_REPLICAS),
        Arguments.of("B-3 [D3]", 0, 10, 1, 0, 0, HpaReasons.DESIRED_WITHIN_RANGE),
        Arguments.of("B-4 [D4]", 1, 10, 20, 1000, 10, HpaReasons.TOO_MANY_REPLICAS),
        Arguments.of("B-5 [D5]", 1, 1000, 10, 50, 20, HpaReasons.SCALE_UP_LIMIT));
  }

  @ParameterizedTest(name = "{0} (legacy rules): {3} -> {4} gives {5}")
  @MethodSource("legacyVectors")
  void legacyRuleVector(String id, int min, int max, int cur, int pre, int expected, String reason) {
    HpaNormalizer.Limit limit = HpaNormalizer.convertWithRules(cur, pre, min, max);
    assertThat(limit.replicas()).isEqualTo(expected);
    assertThat(limit.reason()).isEqualTo(reason);
  }

  @Test
  void b19_minSelectPolicy() {
    ScalingRules rules = ScalingRules.of(60, SelectPolicy.MIN, ScalingPolicy.pods(2, 60), ScalingPolicy.percent(50, 60));
    assertThat(HpaNormalizer.scaleUpLimit(1, java.util.List.of(), java.util.List.of(), rules, NOW)).isEqualTo(2);
    assertThat(HpaNormalizer.scaleDownLimit(5, java.util.List.of(), java.util.List.of(), rules, NOW)).isEqualTo(3);
  }

  @Test
  void disabledFreezesTheDirection() {
    Behavior b = new Behavior(ScalingRules.of(null, SelectPolicy.DISABLED, ScalingPolicy.pods(4, 15)), null)
        .withDefaults(FIVE_MIN, Tolerance.DEFAULT);
    assertThat(HpaNormalizer.convertWithBehaviorRate(new ScalingHistory(), NOW, b, 5, 50, 1, 100).replicas()).isEqualTo(5);
  }

  @Test
  void eventsOutsideThePeriodDoNotCount() {
    ScalingHistory h = ups(1, 5, 9).scaleUp(50, NOW.minusSeconds(121));
    Behavior b = up(null, ScalingPolicy.pods(150, 120));
    assertThat(HpaNormalizer.convertWithBehaviorRate(h, NOW, b, 100, 500, 1, 1000).replicas()).isEqualTo(235);
  }

  @Test
  void percentDownTruncatesAndPodsDominatesBelowForty() {
    Behavior b = down(SelectPolicy.MAX, ScalingPolicy.percent(10, 60), ScalingPolicy.pods(4, 60));
    ScalingHistory h = new ScalingHistory();
    int cur = 80;
    int[] seen = new int[3];
    for (int i = 0; i < 3; i++) {
      Duration step = Duration.ofSeconds(61L * i);
      cur = HpaNormalizer.convertWithBehaviorRate(h, NOW.plus(step), b, cur, 1, 1, 1000).replicas();
      seen[i] = cur;
    }
    assertThat(seen).containsExactly(72, 64, 57);
    assertThat(HpaNormalizer.convertWithBehaviorRate(h, NOW, b, 39, 1, 1, 1000).replicas()).isEqualTo(35);
  }

  // ---- stabilisation --------------------------------------------------------------------------------------

  private static ScalingHistory history(int olderRec, int newerRec) {
    return new ScalingHistory().recommendation(olderRec, NOW.minusSeconds(120)).recommendation(newerRec, NOW.minusSeconds(60));
  }

  private static Behavior windows(int up, int down) {
    return new Behavior(ScalingRules.of(up, null), ScalingRules.of(down, null)).withDefaults(FIVE_MIN, Tolerance.DEFAULT);
  }

  @Test
  void s1_downWindowHoldsTheHighestRecentRecommendation() {
    HpaNormalizer.Stabilized s = HpaNormalizer.stabilizeWithBehavior(history(4, 5), NOW, windows(0, 180), 100, 3);
    assertThat(s.replicas()).isEqualTo(5);
    assertThat(s.reason()).isEqualTo(HpaReasons.SCALE_DOWN_STABILIZED);
  }

  @Test
  void s2_upWindowHoldsTheLowestRecentRecommendation() {
    HpaNormalizer.Stabilized s = HpaNormalizer.stabilizeWithBehavior(history(4, 5), NOW, windows(300, 0), 1, 7);
    assertThat(s.replicas()).isEqualTo(4);
    assertThat(s.reason()).isEqualTo(HpaReasons.SCALE_UP_STABILIZED);
  }

  @Test
  void s3_upWindowDoesNotHoldAScaleDown() {
    assertThat(HpaNormalizer.stabilizeWithBehavior(history(1, 2), NOW, windows(300, 0), 100, 3).replicas()).isEqualTo(3);
  }

  @Test
  void s4_legacyFiveMinuteWindow() {
    ScalingHistory h = new ScalingHistory()
        .recommendation(10, NOW.minusSeconds(600))
        .recommendation(4, NOW.minusSeconds(60))
        .recommendation(5, NOW.minusSeconds(120))
        .recommendation(9, NOW.minusSeconds(540));
    assertThat(HpaNormalizer.stabilizeLegacy(h, NOW, FIVE_MIN, 3)).isEqualTo(5);
    // The new recommendation reuses a stale slot instead of growing the history.
    assertThat(h.recommendations()).hasSize(4);
    assertThat(h.recommendations()).extracting(ScalingHistory.TimedRecommendation::replicas).contains(3, 4, 5);
  }

  @Test
  void behaviourStoresTheUnstabilisedProposal() {
    ScalingHistory h = history(4, 5);
    HpaNormalizer.stabilizeWithBehavior(h, NOW, windows(0, 180), 100, 3);
    assertThat(h.recommendations()).extracting(ScalingHistory.TimedRecommendation::replicas).containsExactly(4, 5, 3);
  }

  @Test
  void defaultsAreFilledPerField() {
    Behavior b = new Behavior(new ScalingRules(null, SelectPolicy.MIN, null, 0.05), null)
        .withDefaults(FIVE_MIN, new Tolerance(0.2, 0.3));
    assertThat(b.scaleUp().window()).isZero();
    assertThat(b.scaleUp().selectPolicy()).isEqualTo(SelectPolicy.MIN);
    assertThat(b.scaleUp().policies()).isEqualTo(Behavior.DEFAULT_SCALE_UP_POLICIES);
    assertThat(b.scaleDown().window()).isEqualTo(300);
    assertThat(b.scaleDown().policies()).isEqualTo(Behavior.DEFAULT_SCALE_DOWN_POLICIES);
    assertThat(b.tolerance()).isEqualTo(new Tolerance(0.2, 0.05));
  }
}
