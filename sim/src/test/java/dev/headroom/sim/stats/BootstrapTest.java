package dev.headroom.sim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.run.WaitStats;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BootstrapTest {

  static final double[] PS = {50, 95, 99};

  @Test
  void pointEstimatesAreTheNearestRankPercentilesOfThePooledWaits() {
    SplittableRandom r = new SplittableRandom(3);
    long[] a = new long[300];
    long[] b = new long[250];
    WaitStats all = new WaitStats();
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextLong(0, 120_000);
      all.add(a[i]);
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = r.nextLong(0, 60_000);
      all.add(b[i]);
    }
    Bootstrap.Estimate[] e = Bootstrap.percentiles(List.of(a, b), PS, 7);
    for (int q = 0; q < PS.length; q++) {
      assertThat(e[q].value()).isEqualTo(all.percentile(PS[q]));
      assertThat(e[q].low()).isLessThanOrEqualTo(e[q].value());
      assertThat(e[q].high()).isGreaterThanOrEqualTo(e[q].value());
    }
    // a non-degenerate sample gives a non-degenerate interval
    assertThat(e[1].high()).isGreaterThan(e[1].low());
  }

  @Test
  void sameSeedSameIntervalsAndTheSeedComesFromTheRunsSeeds() {
    long[] a = {0, 0, 0, 5_000, 90_000, 100_000, 0, 0};
    long[] b = {0, 1_000, 0, 0, 0, 0, 0, 110_000};
    Bootstrap.Estimate[] x = Bootstrap.percentiles(List.of(a, b), PS, Bootstrap.seedOf(List.of(1L, 2L), "none"));
    Bootstrap.Estimate[] y = Bootstrap.percentiles(List.of(a, b), PS, Bootstrap.seedOf(List.of(1L, 2L), "none"));
    assertThat(x).containsExactly(y);
    assertThat(Bootstrap.seedOf(List.of(1L, 2L), "none")).isNotEqualTo(Bootstrap.seedOf(List.of(1L, 3L), "none"))
        .isNotEqualTo(Bootstrap.seedOf(List.of(1L, 2L), "buffer-10pct"));
  }

  @Test
  void runsAreResampledWholeSoOneBadRunWidensTheInterval() {
    // nine calm runs and one where every pod waited a minute: pooled p99 is 60 s, but a resample that misses the
    // bad run has p99 0, so the interval reaches down to 0 (a pod-level bootstrap would pin it at 60 s)
    List<long[]> runs = new java.util.ArrayList<>();
    for (int i = 0; i < 9; i++) {
      runs.add(new long[30]);
    }
    long[] bad = new long[30];
    java.util.Arrays.fill(bad, 60_000);
    runs.add(bad);
    Bootstrap.Estimate p99 = Bootstrap.percentiles(runs, new double[] {99}, 11)[0];
    assertThat(p99.value()).isEqualTo(60_000);
    assertThat(p99.low()).isZero();
    assertThat(p99.high()).isEqualTo(60_000);
  }

  @Test
  void constantAndEmptySamples() {
    long[] same = new long[50];
    java.util.Arrays.fill(same, 4_000);
    assertThat(Bootstrap.percentiles(List.of(same), PS, 1)).containsOnly(new Bootstrap.Estimate(4_000, 4_000, 4_000));
    assertThat(Bootstrap.percentiles(List.of(new long[0]), PS, 1)).containsOnly(new Bootstrap.Estimate(0, 0, 0));
  }
}
