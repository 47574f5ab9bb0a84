package dev.headroom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Runs the bench scenario at a tiny size: every pod placed, a sane node count, valid JSON shape. */
class KarpenterDiverseSmokeTest {

  @Test
  void tinyRunPlacesEveryPod() {
    KarpenterDiverse.Solution s =
        KarpenterDiverse.solve(DiverseWorkload.templates(DiverseWorkload.INSTANCE_TYPES), DiverseWorkload.pods(250, KarpenterDiverse.SEED));
    assertThat(s.placed()).isEqualTo(250);
    // 50 hostname anti-affinity pods need 50 distinct nodes; nothing needs more than one node per pod.
    assertThat(s.nodeTypes()).hasSizeBetween(50, 250);
    assertThat(s.nodeTypes()).allMatch(t -> t.startsWith("it-"));
  }

  @Test
  void runnerPrintsTheDocumentedJson() {
    BenchResult r = BenchRunner.run(new KarpenterDiverse(), 100, 0, 1);
    assertThat(r.pods()).isEqualTo(100);
    assertThat(r.nodes()).isGreaterThanOrEqualTo(20);
    assertThat(r.toJson())
        .startsWith("{\"benchmark\":\"karpenter-diverse\",\"pods\":100,\"nodes\":")
        .contains("\"seconds\":", "\"podsPerSecond\":", "\"peakHeapBytes\":", "\"cores\":", "\"jvm\":\"");
  }

  @Test
  void sameSeedSameResult() {
    var a = KarpenterDiverse.solve(DiverseWorkload.templates(50), DiverseWorkload.pods(120, 1));
    var b = KarpenterDiverse.solve(DiverseWorkload.templates(50), DiverseWorkload.pods(120, 1));
    assertThat(a).isEqualTo(b);
  }
}
