package dev.headroom.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.sim.engine.EventQueue.Phase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventQueueTest {

  @Test
  void runsByTimeThenPhaseThenInsertionAndMovesTheVirtualClock() {
    VirtualClock clock = new VirtualClock();
    EventQueue q = new EventQueue(clock);
    List<String> seen = new ArrayList<>();
    q.at(2000, Phase.RECORD, () -> seen.add("2000 record @" + clock.millis()));
    q.at(2000, Phase.LIFECYCLE, () -> seen.add("2000 lifecycle"));
    q.at(1000, Phase.SCHEDULER, () -> seen.add("1000 scheduler a"));
    q.at(1000, Phase.SCHEDULER, () -> seen.add("1000 scheduler b"));
    q.at(1000, Phase.WORKLOAD, () -> {
      seen.add("1000 workload");
      q.after(0, Phase.LIFECYCLE, () -> seen.add("1000 lifecycle, scheduled from a later phase"));
    });
    q.runUntil(1500);
    assertThat(seen).containsExactly("1000 workload", "1000 lifecycle, scheduled from a later phase", "1000 scheduler a",
        "1000 scheduler b");
    assertThat(clock.millis()).isEqualTo(1500);
    q.runUntil(5000);
    assertThat(seen).endsWith("2000 lifecycle", "2000 record @2000");
    assertThat(clock.instant()).isEqualTo(VirtualClock.EPOCH.plusMillis(5000));
    assertThat(q.processed()).isEqualTo(6);
  }

  @Test
  void aFixedScheduleRunsFromItsStartEveryStepUntilTheEndOrOnceWithoutAStep() {
    VirtualClock clock = new VirtualClock();
    EventQueue q = new EventQueue(clock);
    List<Long> every = new ArrayList<>();
    List<Long> once = new ArrayList<>();
    List<Long> none = new ArrayList<>();
    q.every(1000, 1500, 5500, Phase.CONTROLLER, () -> every.add(clock.millis()));
    q.every(2000, 0, 5500, Phase.CONTROLLER, () -> once.add(clock.millis()));
    q.every(6000, 100, 5500, Phase.CONTROLLER, () -> none.add(clock.millis()));
    q.runUntil(10_000);
    assertThat(every).containsExactly(1000L, 2500L, 4000L);
    assertThat(once).containsExactly(2000L);
    assertThat(none).isEmpty();
  }

  @Test
  void actionsInThePastRunNowAndTimeNeverGoesBack() {
    VirtualClock clock = new VirtualClock();
    EventQueue q = new EventQueue(clock);
    q.runUntil(1000);
    List<Long> at = new ArrayList<>();
    q.at(10, Phase.LIFECYCLE, () -> at.add(clock.millis()));
    q.runUntil(2000);
    assertThat(at).containsExactly(1000L);
    assertThatThrownBy(() -> clock.advanceTo(5)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void seededStreamsAreReproducibleAndIndependent() {
    SimRandom a = new SimRandom(42);
    SimRandom b = new SimRandom(42);
    assertThat(a.stream("x").suffix(12)).isEqualTo(b.stream("x").suffix(12));
    assertThat(a.stream("x").suffix(12)).isNotEqualTo(a.stream("y").suffix(12));
    assertThat(new SimRandom(1).stream("x").nextDouble()).isNotEqualTo(new SimRandom(2).stream("x").nextDouble());
    SimRandom j = new SimRandom(3);
    for (int i = 0; i < 1000; i++) {
      assertThat(j.jitter(15)).isBetween(-15L, 15L);
    }
    assertThat(j.jitter(0)).isZero();
    double sum = 0;
    SimRandom p = new SimRandom(5);
    for (int i = 0; i < 2000; i++) {
      sum += p.poisson(4.0);
    }
    assertThat(sum / 2000).isBetween(3.8, 4.2);
  }
}
