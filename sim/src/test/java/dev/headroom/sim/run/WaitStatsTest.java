package dev.headroom.sim.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaitStatsTest {

  @Test
  void nearestRankPercentilesAreExact() {
    WaitStats s = new WaitStats();
    assertThat(s.percentile(99)).isZero();
    assertThat(s.max()).isZero();
    for (long v : new long[] {15, 20, 35, 40, 50}) {
      s.add(v);
    }
    // nearest rank: ceil(p/100 * n)-th smallest
    assertThat(s.percentile(5)).isEqualTo(15);
    assertThat(s.percentile(30)).isEqualTo(20);
    assertThat(s.percentile(40)).isEqualTo(20);
    assertThat(s.percentile(50)).isEqualTo(35);
    assertThat(s.percentile(100)).isEqualTo(50);
    assertThat(s.over(35)).isEqualTo(2);
  }

  @Test
  void manyValuesInAnyOrder() {
    WaitStats s = new WaitStats();
    for (int i = 2000; i >= 1; i--) {
      s.add(i);
    }
    assertThat(s.count()).isEqualTo(2000);
    assertThat(s.percentile(50)).isEqualTo(1000);
    assertThat(s.percentile(95)).isEqualTo(1900);
    assertThat(s.percentile(99)).isEqualTo(1980);
    assertThat(s.max()).isEqualTo(2000);
  }
}
