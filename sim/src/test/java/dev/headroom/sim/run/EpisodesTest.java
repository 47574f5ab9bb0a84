package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class EpisodesTest {

  @Test
  void overlappingWaitsFormOneEpisodeWithTheMostPodsWaitingAtOnce() {
    // pods (created, wait) in seconds: three overlap from 100 s, one alone at 500 s, two bound at once (wait 0)
    long[][] pods = {{100, 90}, {110, 80}, {150, 60}, {300, 0}, {500, 3}, {600, 0}};
    long[] created = new long[pods.length];
    long[] waits = new long[pods.length];
    for (int i = 0; i < pods.length; i++) {
      created[i] = pods[i][0] * 1000;
      waits[i] = pods[i][1] * 1000;
    }
    List<Episodes.BufferStep> buffer = List.of(new Episodes.BufferStep(0, 2), new Episodes.BufferStep(400_000, 5));
    List<StrategyResult.ScaleUpEvent> scaleUps = List.of(new StrategyResult.ScaleUpEvent(105_000, "general", 1, 2, 0),
        new StrategyResult.ScaleUpEvent(160_000, "general", 2, 1, 0), new StrategyResult.ScaleUpEvent(450_000, "general", 1, 0, 3));
    List<Episodes.Episode> e = Episodes.of(PodWaits.of(created, waits), buffer, scaleUps, 5_000);
    assertThat(e).containsExactly(
        new Episodes.Episode(100_000, 210_000, 3, 3, 90_000, 3, 2, 3),
        new Episodes.Episode(500_000, 503_000, 1, 0, 3_000, 1, 5, 0));
  }

  @Test
  void aPodBoundAsAnotherArrivesIsNotCountedTwice() {
    // the first wait ends exactly when the second pod is created: one episode, never two pods at once
    List<Episodes.Episode> e = Episodes.of(PodWaits.of(new long[] {0, 10_000}, new long[] {10_000, 10_000}), List.of(),
        List.of(), 5_000);
    assertThat(e).hasSize(1);
    assertThat(e.get(0).peakPending()).isEqualTo(1);
    assertThat(e.get(0).pods()).isEqualTo(2);
  }
}
