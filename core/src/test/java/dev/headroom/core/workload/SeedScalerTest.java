package dev.headroom.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The seed scaler: vectors SC-1..SC-6 and the 0 ↔ 1 / cooldown properties. */
class SeedScalerTest {

  private static final MetricSpec QUEUE10 = MetricSpec.averageValue("queue", 10);

  private static Map<String, Double> q(double v) {
    return Map.of("queue", v);
  }

  @Test
  void sc1_wakesOnlyAboveActivationThenFollowsTheFormula() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 10, 5, 0));
    assertThat(s.decide(0, q(0))).isEqualTo(new Decision(0, "", DecisionReason.STAYED_AT_ZERO));
    assertThat(s.decide(0, q(5))).isEqualTo(new Decision(0, "", DecisionReason.STAYED_AT_ZERO));
    assertThat(s.decide(0, q(6))).isEqualTo(new Decision(1, "", DecisionReason.WOKE));
    assertThat(s.decide(1, q(60))).isEqualTo(new Decision(6, "queue", DecisionReason.SCALE_UP));
    assertThat(s.decide(6, q(200))).isEqualTo(new Decision(10, "queue", DecisionReason.SCALE_UP));
    assertThat(s.decide(10, q(500))).isEqualTo(new Decision(10, "queue", DecisionReason.NO_CHANGE));
  }

  @Test
  void sc2_cooldownHoldsOneThenDropsOnTheThirdIdleDecision() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 10, 0, 2));
    assertThat(s.decide(3, q(0))).isEqualTo(new Decision(1, "queue", DecisionReason.COOLDOWN_HOLD));
    assertThat(s.idle()).isEqualTo(1);
    assertThat(s.decide(1, q(0)).reason()).isEqualTo(DecisionReason.COOLDOWN_HOLD);
    assertThat(s.idle()).isEqualTo(2);
    assertThat(s.decide(1, q(0))).isEqualTo(new Decision(0, "queue", DecisionReason.SCALED_TO_ZERO));
    assertThat(s.idle()).isEqualTo(3);
    assertThat(s.decide(0, q(0))).isEqualTo(new Decision(0, "", DecisionReason.STAYED_AT_ZERO));
    assertThat(s.idle()).isEqualTo(3);
  }

  @Test
  void sc3_workDuringTheCooldownRestartsTheCount() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 10, 0, 2));
    int[] idle = new int[6];
    int[] replicas = new int[6];
    double[] readings = {0, 0, 7, 0, 0, 0};
    int r = 1;
    for (int i = 0; i < readings.length; i++) {
      Decision d = s.decide(r, q(readings[i]));
      r = d.replicas();
      replicas[i] = r;
      idle[i] = s.idle();
      if (i == 2) {
        assertThat(d.reason()).isEqualTo(DecisionReason.NO_CHANGE);
      }
    }
    assertThat(replicas).containsExactly(1, 1, 1, 1, 1, 0);
    assertThat(idle).containsExactly(1, 2, 0, 1, 2, 3);
  }

  @Test
  void sc4_cooldownZeroDropsAtOnce() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 10, 0, 0));
    assertThat(s.decide(4, q(0))).isEqualTo(new Decision(0, "queue", DecisionReason.SCALED_TO_ZERO));
  }

  @ParameterizedTest(name = "SC-5 min {0}")
  @ValueSource(ints = {1, 2})
  void sc5_zeroIsNotAllowedWithMinAtLeastOne(int min) {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), min, 10, 5, 2));
    for (double v : new double[] {0, 3, 500}) {
      assertThat(s.decide(0, q(v))).isEqualTo(new Decision(min, "", DecisionReason.RESTORED_TO_MIN));
      assertThat(s.idle()).isZero();
    }
    assertThat(s.decide(3, q(0)).replicas()).isEqualTo(min);
    assertThat(s.idle()).isZero();
  }

  @Test
  void sc6_workCountsReadingsOutsideTheConfiguredMetrics() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 10, 0, 0));
    assertThat(s.decide(0, Map.of("other", 3.0))).isEqualTo(new Decision(1, "", DecisionReason.WOKE));
  }

  @Test
  void wakingFromZeroResetsIdle() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 10, 0, 5));
    s.decide(2, q(0));
    s.decide(1, q(0));
    assertThat(s.idle()).isEqualTo(2);
    s.decide(0, q(1));
    assertThat(s.idle()).isZero();
  }

  @Test
  void duringTheCooldownItGoesStraightFromNToOne() {
    SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 0, 0, 3));
    assertThat(s.decide(17, q(0)).replicas()).isEqualTo(1);
  }

  @Test
  void dropHappensOnTheCooldownPlusFirstIdleDecision() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 50; trial++) {
      int cooldown = rnd.nextInt(8);
      SeedScaler s = new SeedScaler(new ScalerConfig(List.of(QUEUE10), 0, 0, 0, cooldown));
      int r = 1 + rnd.nextInt(30);
      int decisions = 0;
      while (r > 0) {
        r = s.decide(r, q(0)).replicas();
        decisions++;
        if (r > 0) {
          assertThat(r).isEqualTo(1);
        }
      }
      assertThat(decisions).isEqualTo(cooldown + 1);
    }
  }

  @Test
  void validation() {
    assertThatThrownBy(() -> new ScalerConfig(List.of(QUEUE10), 3, 2, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScalerConfig(List.of(QUEUE10), -1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScalerConfig(List.of(QUEUE10), 0, 0, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScalerConfig(List.of(QUEUE10, QUEUE10), 0, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScalerConfig(List.of(QUEUE10), 0, 0, Double.NaN, 0))
        .isInstanceOf(IllegalArgumentException.class);
    SeedScaler s = new SeedScaler(ScalerConfig.of(List.of(QUEUE10), 1, 10));
    assertThatThrownBy(() -> s.decide(-1, q(0))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.decide(1, q(Double.POSITIVE_INFINITY))).isInstanceOf(IllegalArgumentException.class);
    assertThat(ScalerConfig.of(List.of(QUEUE10), 0, 0).allowsZero()).isTrue();
    assertThat(ScalerConfig.of(List.of(QUEUE10), 1, 0).allowsZero()).isFalse();
  }

  @Test
  void messagesNameTheDecidingMetric() {
    assertThat(new Decision(5, "queue", DecisionReason.SCALE_UP).message()).isEqualTo("queue is above its target");
    assertThat(new Decision(5, "cpu", DecisionReason.SCALE_DOWN).message()).isEqualTo("cpu has headroom");
  }
}
