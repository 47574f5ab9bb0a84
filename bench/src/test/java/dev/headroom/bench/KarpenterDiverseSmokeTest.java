package dev.headroom.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Runs the bench scenario (one runOnce over the catalogue) at tiny sizes: every pod placed, sane figures, JSON. */
class KarpenterDiverseSmokeTest {

  @Test
  void tinyRunPlacesEveryPodAcrossTheZones() {
    Scenario.Outcome o = new KarpenterDiverse().prepare(250).run();
    assertThat(o.placed()).isEqualTo(250);
    // 50 hostname anti-affinity pods need 50 distinct nodes; nothing needs more than one node per pod
    assertThat(o.nodes()).isBetween(50, 250);
    assertThat(o.provisionedPerRequestedCpu()).isGreaterThanOrEqualTo(1.0);
    assertThat(o.podsPerZone().keySet()).containsExactly("test-zone-1", "test-zone-2", "test-zone-3");
    assertThat(o.podsPerZone().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(250);
  }

  @Test
  void runnerPrintsTheDocumentedJson() {
    BenchResult r = BenchRunner.run(new KarpenterDiverse(20), 100, 0, 1);
    assertThat(r.pods()).isEqualTo(100);
    assertThat(r.nodes()).isGreaterThanOrEqualTo(20);
    assertThat(r.toJson())
        .startsWith("{\"benchmark\":\"karpenter-diverse\",\"pods\":100,\"nodes\":")
        .contains("\"seconds\":", "\"podsPerSecond\":", "\"peakHeapBytes\":", "\"cores\":", "\"jvm\":\"",
            "\"coldSeconds\":", "\"coldCpuSeconds\":", "\"provisionedPerRequestedCpu\":", "\"podsPerZone\":{\"test-zone-1\":");
  }

  @Test
  void sameSeedSameResult() {
    Scenario s = new KarpenterDiverse().withTypes(50);
    assertThat(s.prepare(120).run()).isEqualTo(s.prepare(120).run());
  }

  @Test
  void onlyTheCatalogueScenarioTakesTypes() {
    assertThatThrownBy(() -> new RunOnceScaleUp().withTypes(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--types");
    assertThatThrownBy(() -> new KarpenterDiverse().withTypes(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
