package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The state's memory and clocks decide when the simulator may skip an autoscaler loop: a loop is skipped only
 * while every clock reads as it did at the last loop that ran, so an expiry in between always makes the next
 * loop run.
 */
class AutoscalerStateClockTest {

  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.DEFAULTS;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void unremovableRecheckIsReachedExactlyAtItsTime() {
    AutoscalerState s = new AutoscalerState(OPTIONS);
    Instant until = T0.plus(Duration.ofMinutes(5));
    s.unremovableUntil().put("n1", until);
    assertThat(s.clockReached(T0, until.minusMillis(1), OPTIONS)).isFalse();
    // the planner re-examines the node once now is no longer before its time
    assertThat(s.clockReached(T0, until, OPTIONS)).isTrue();
    assertThat(s.clockReached(T0, until.plusSeconds(60), OPTIONS)).isTrue();
    // a loop after the time already saw it: nothing flips later
    assertThat(s.clockReached(until, until.plusSeconds(60), OPTIONS)).isFalse();
  }

  @Test
  void cooldownEndsAreClocks() {
    AutoscalerState s = new AutoscalerState(OPTIONS);
    s.scaledUp(T0);
    Instant end = T0.plus(OPTIONS.scaleDownDelayAfterAdd());
    assertThat(s.clockReached(T0, end.minusSeconds(1), OPTIONS)).isFalse();
    assertThat(s.clockReached(T0, end, OPTIONS)).isTrue();
    assertThat(s.clockReached(end, end.plusSeconds(600), OPTIONS)).isFalse();

    AutoscalerState d = new AutoscalerState(OPTIONS);
    d.scaledDownAt(T0);
    assertThat(d.clockReached(T0, T0.plus(OPTIONS.scaleDownDelayAfterDelete()), OPTIONS)
        || OPTIONS.scaleDownDelayAfterDelete().isZero()).isTrue();
    AutoscalerState f = new AutoscalerState(OPTIONS);
    f.scaleDownFailedAt(T0);
    Instant failEnd = T0.plus(OPTIONS.scaleDownDelayAfterFailure());
    assertThat(f.clockReached(T0, failEnd.minusSeconds(1), OPTIONS)).isFalse();
    assertThat(f.clockReached(T0, failEnd, OPTIONS)).isTrue();
  }

  @Test
  void runningUnneededOrScaleUpTimersAlwaysCount() {
    AutoscalerState s = new AutoscalerState(OPTIONS);
    s.unneededSince().put("n1", T0);
    assertThat(s.clockReached(T0, T0.plusSeconds(1), OPTIONS)).isTrue();
    AutoscalerState u = new AutoscalerState(OPTIONS);
    u.registerScaleUp("g", 1, T0, Duration.ofMinutes(15));
    assertThat(u.clockReached(T0, T0.plusSeconds(1), OPTIONS)).isTrue();
    assertThat(new AutoscalerState(OPTIONS).clockReached(T0, T0.plus(Duration.ofDays(1)), OPTIONS)).isFalse();
  }

  @Test
  void memoryIsAValueThatSeesEveryChange() {
    AutoscalerState s = new AutoscalerState(OPTIONS);
    AutoscalerState.Memory empty = s.memory();
    assertThat(s.memory()).isEqualTo(empty);
    s.unremovableUntil().put("n1", T0);
    AutoscalerState.Memory one = s.memory();
    assertThat(one).isNotEqualTo(empty);
    s.unremovableUntil().put("n1", T0.plusSeconds(1));
    assertThat(s.memory()).isNotEqualTo(one);
    s.unremovableUntil().put("n1", T0);
    assertThat(s.memory()).isEqualTo(one);
    s.scaleDownFailedAt(T0);
    assertThat(s.memory()).isNotEqualTo(one);
    // the copy does not follow later changes
    AutoscalerState.Memory before = s.memory();
    s.unneededSince().put("n2", T0);
    assertThat(before.unneededSince()).isEmpty();
  }
}
