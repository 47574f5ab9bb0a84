package dev.headroom.sim.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.scenario.LoadProfile;
import dev.headroom.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadModelTest {

  @Test
  void profilesGiveTheRateOverTime() {
    assertThat(new LoadProfile.Constant(7).rateAt(123)).isEqualTo(7);
    LoadProfile.Step step = new LoadProfile.Step(10, List.of(new LoadProfile.Point(60, 20), new LoadProfile.Point(120, 5)));
    assertThat(step.rateAt(0)).isEqualTo(10);
    assertThat(step.rateAt(59.9)).isEqualTo(10);
    assertThat(step.rateAt(60)).isEqualTo(20);
    assertThat(step.rateAt(500)).isEqualTo(5);
    LoadProfile.Spikes spikes = new LoadProfile.Spikes(100, List.of(new LoadProfile.Spike(600, 600, 400, 100)));
    assertThat(spikes.rateAt(599)).isEqualTo(100);
    assertThat(spikes.rateAt(650)).isCloseTo(250, within(1e-9));
    assertThat(spikes.rateAt(900)).isEqualTo(400);
    assertThat(spikes.rateAt(1150)).isCloseTo(250, within(1e-9));
    assertThat(spikes.rateAt(1200)).isEqualTo(100);
    LoadProfile.Diurnal d = new LoadProfile.Diurnal(10, 50, 14 * 3600, 86400);
    assertThat(d.rateAt(14 * 3600)).isCloseTo(50, within(1e-9));
    assertThat(d.rateAt(2 * 3600)).isCloseTo(10, within(1e-9));
    assertThat(d.rateAt(8 * 3600)).isCloseTo(30, within(1e-9));
    LoadProfile.Trace t = new LoadProfile.Trace("t.csv", List.of(new LoadProfile.Point(0, 10), new LoadProfile.Point(100, 30)));
    assertThat(t.rateAt(-5)).isEqualTo(10);
    assertThat(t.rateAt(25)).isCloseTo(15, within(1e-9));
    assertThat(t.rateAt(1000)).isEqualTo(30);
  }

  @Test
  void queueAndUtilisationFollowTheSeedChaptersDefinitions() {
    MetricsHistory h = new MetricsHistory(0, 1000);
    LoadModel m = new LoadModel(new Scenario.Load(new LoadProfile.Constant(200), 10, 0), new SimRandom(1), h);
    // 4 replicas serve 40/s of 200/s arriving: backlog grows by 160 per second, CPU pinned at 100%
    m.step(1000, 1.0, 4);
    assertThat(m.backlog()).isEqualTo(160);
    assertThat(m.lastUtilization()).isEqualTo(100);
    // 64 replicas (640/s) clear the 160 backlog plus 200 new items: utilisation = processed / capacity
    m.step(2000, 1.0, 64);
    assertThat(m.backlog()).isZero();
    assertThat(m.lastUtilization()).isCloseTo(100.0 * 360 / 640, within(1e-9));
    // no replica: nothing served, utilisation reported as 0
    m.step(3000, 1.0, 0);
    assertThat(m.backlog()).isEqualTo(200);
    assertThat(m.lastUtilization()).isZero();
    assertThat(m.arrivedTotal()).isEqualTo(600);
    assertThat(m.servedTotal()).isEqualTo(400);
  }

  @Test
  void metricsAreReadThroughTheDelay() {
    MetricsHistory h = new MetricsHistory(30_000, 5_000);
    LoadModel m = new LoadModel(new Scenario.Load(new LoadProfile.Constant(100), 10, 0), new SimRandom(1), h);
    assertThat(h.read(20_000)).isNull();
    for (long t = 5_000; t <= 60_000; t += 5_000) {
      m.step(t, 5, (int) (t / 5_000));
    }
    assertThat(h.read(60_000).atMillis()).isEqualTo(30_000);
    assertThat(h.read(60_000).readyReplicas()).isEqualTo(6);
    assertThat(h.read(64_999).atMillis()).isEqualTo(30_000);
    assertThat(h.read(65_000).atMillis()).isEqualTo(35_000);
    assertThat(h.latest().atMillis()).isEqualTo(60_000);
  }

  @Test
  void noiseIsSeeded() {
    Scenario.Load load = new Scenario.Load(new LoadProfile.Constant(100), 10, 0.2);
    LoadModel a = new LoadModel(load, new SimRandom(9), new MetricsHistory(0, 1000));
    LoadModel b = new LoadModel(load, new SimRandom(9), new MetricsHistory(0, 1000));
    for (int i = 1; i <= 50; i++) {
      a.step(i * 1000L, 1, 12);
      b.step(i * 1000L, 1, 12);
      assertThat(a.lastRate()).isEqualTo(b.lastRate());
    }
    assertThat(a.arrivedTotal()).isNotEqualTo(5000.0);
  }
}
