package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EpisodesTest {

  /** Waits of pods given as {created s, wait s} with their workloads. */
  static PodWaits waits(long[][] pods, String... workloads) {
    long[] created = new long[pods.length];
    long[] waits = new long[pods.length];
    for (int i = 0; i < pods.length; i++) {
      created[i] = pods[i][0] * 1000;
      waits[i] = pods[i][1] * 1000;
    }
    return PodWaits.of(created, waits, workloads);
  }

  @Test
  void overlappingWaitsFormOneEpisodeWithTheMostPodsWaitingAtOnce() {
    // pods (created, wait) in seconds: three overlap from 100 s, one alone at 500 s, two bound at once (wait 0)
    long[][] pods = {{100, 90}, {110, 80}, {150, 60}, {300, 0}, {500, 3}, {600, 0}};
    PodWaits w = waits(pods, "web", "web", "web", "web", "web", "web");
    Episodes.Coverage buffer = new Episodes.Coverage(Map.of("web", List.of("web-buffer")),
        Map.of("web", List.of(new Episodes.BufferStep(0, 2), new Episodes.BufferStep(400_000, 5))));
    List<StrategyResult.ScaleUpEvent> scaleUps = List.of(new StrategyResult.ScaleUpEvent(105_000, "general", 1, 2, 0),
        new StrategyResult.ScaleUpEvent(160_000, "general", 2, 1, 0), new StrategyResult.ScaleUpEvent(450_000, "general", 1, 0, 3));
    List<Episodes.Episode> e = Episodes.of(w, buffer, scaleUps, 5_000);
    assertThat(e).containsExactly(
        new Episodes.Episode(100_000, 210_000, 3, 3, 90_000, 3, 2, 3,
            List.of(new Episodes.Share("web", 3, 3, 90_000, 3, List.of("web-buffer"), 2))),
        new Episodes.Episode(500_000, 503_000, 1, 0, 3_000, 1, 5, 0,
            List.of(new Episodes.Share("web", 1, 0, 3_000, 1, List.of("web-buffer"), 5))));
  }

  @Test
  void aPodBoundAsAnotherArrivesIsNotCountedTwice() {
    // the first wait ends exactly when the second pod is created: one episode, never two pods at once
    List<Episodes.Episode> e = Episodes.of(waits(new long[][] {{0, 10}, {10, 10}}, "web", "web"),
        Episodes.Coverage.none(), List.of(), 5_000);
    assertThat(e).hasSize(1);
    assertThat(e.get(0).peakPending()).isEqualTo(1);
    assertThat(e.get(0).pods()).isEqualTo(2);
  }

  @Test
  void anEpisodeIsSplitByWorkloadAgainstTheBuffersThatTargetEach() {
    // one episode from 100 s: two web pods overlap (web's buffer at 3), four batch pods overlap (no buffer)
    long[][] pods = {{100, 40}, {105, 4}, {120, 30}, {120, 30}, {121, 29}, {122, 28}, {400, 0}};
    PodWaits w = waits(pods, "web", "web", "batch", "batch", "batch", "batch", "batch");
    Episodes.Coverage coverage = new Episodes.Coverage(Map.of("web", List.of("web-buffer", "web-extra")),
        Map.of("web", List.of(new Episodes.BufferStep(0, 1), new Episodes.BufferStep(50_000, 3))));
    List<Episodes.Episode> e = Episodes.of(w, coverage, List.of(), 5_000);
    assertThat(e).hasSize(1);
    Episodes.Episode ep = e.get(0);
    assertThat(ep.pods()).isEqualTo(6);
    assertThat(ep.peakPending()).isEqualTo(5); // at 122 s: the first web pod and the four batch pods
    assertThat(ep.bufferReplicas()).isEqualTo(3);
    // most pods over the SLO first: batch (4 over) before web (1 over: 40 s; the 4 s wait is within)
    assertThat(ep.workloads()).containsExactly(
        new Episodes.Share("batch", 4, 4, 30_000, 4, List.of(), 0),
        new Episodes.Share("web", 2, 1, 40_000, 2, List.of("web-buffer", "web-extra"), 3));
    assertThat(ep.workloads().get(0).covered()).isFalse();
    assertThat(ep.workloads().get(1).covered()).isTrue();
  }

  @Test
  void coverageRecordsAStepOnlyWhenAWorkloadsSizeChanges() {
    Episodes.CoverageRecorder r = new Episodes.CoverageRecorder(Map.of("web", List.of("b1"), "api", List.of("b2")));
    r.record(0, Map.of("web", 0, "api", 2));
    r.record(10, Map.of("web", 4, "api", 2));
    r.record(20, Map.of("web", 4, "api", 1));
    Episodes.Coverage c = r.coverage();
    assertThat(c.steps().get("web")).containsExactly(new Episodes.BufferStep(10, 4));
    assertThat(c.steps().get("api")).containsExactly(new Episodes.BufferStep(0, 2), new Episodes.BufferStep(20, 1));
    assertThat(c.replicasAt("web", 9)).isZero();
    assertThat(c.totalAt(15)).isEqualTo(6);
    assertThat(c.totalAt(25)).isEqualTo(5);
    assertThat(c.buffersOf("batch")).isEmpty();
  }
}
