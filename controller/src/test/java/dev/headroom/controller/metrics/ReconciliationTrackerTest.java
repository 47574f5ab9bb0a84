package dev.headroom.controller.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.17 (reconciliation metric), now = 1710410000, supported strategy "". */
class ReconciliationTrackerTest {
  private static final Instant NOW = Instant.ofEpochSecond(1710410000L);

  private static Instant ago(int minutes) {
    return NOW.minus(Duration.ofMinutes(minutes));
  }

  private static CapacityBuffer buf(String uid, String strategy, Instant created, boolean hasCondition) {
    CapacityBuffer b = new CapacityBuffer();
    b.setMetadata(new ObjectMetaBuilder().withName(uid).withNamespace("default").withUid(uid).withCreationTimestamp(created.toString()).build());
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setProvisioningStrategy(strategy);
    b.setSpec(spec);
    if (hasCondition) {
      CapacityBufferStatus s = new CapacityBufferStatus();
      s.getConditions().add(new ConditionBuilder().withType("ReadyForProvisioning").withStatus("True").build());
      b.setStatus(s);
    }
    return b;
  }

  static Stream<Arguments> vectors() {
    return Stream.of(
        Arguments.of("No buffers", List.of(), Map.of(), NOW, NOW, Map.of()),
        Arguments.of("New and reconciled buffers",
            List.of(buf("new-uid", "", ago(10), false), buf("proc-uid", "", NOW, false)),
            Map.of("proc-uid", ago(5)), ago(10), ago(5), Map.of("proc-uid", ago(5))),
        Arguments.of("Complex scenario",
            List.of(buf("unsupported-uid", "unsupported", NOW, false), buf("skipped-uid", "", NOW, true),
                buf("new-uid-1", "", ago(10), false), buf("new-uid-2", "", ago(20), false),
                buf("proc-uid-1", "", NOW, false), buf("proc-uid-2", "", NOW, false)),
            Map.of("proc-uid-1", ago(5), "proc-uid-2", ago(15), "unsupported-uid", ago(5)), ago(20), ago(15),
            Map.of("proc-uid-1", ago(5), "proc-uid-2", ago(15), "unsupported-uid", ago(5))),
        Arguments.of("Cleanup of stale cache entries",
            List.of(buf("active-uid", "", NOW, false), buf("unsupported-uid", "unsupported", NOW, false)),
            Map.of("active-uid", ago(5), "unsupported-uid", ago(5), "stale-uid", ago(10)), NOW, ago(5),
            Map.of("active-uid", ago(5), "unsupported-uid", ago(5))),
        Arguments.of("Oldest value reported",
            List.of(buf("proc-uid-old", "", NOW, false), buf("proc-uid-new", "", NOW, false)),
            Map.of("proc-uid-old", ago(20), "proc-uid-new", ago(5)), NOW, ago(20),
            Map.of("proc-uid-old", ago(20), "proc-uid-new", ago(5))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void reportsTheOldestTimestampsAndPrunesTheCache(String name, List<CapacityBuffer> buffers, Map<String, Instant> cache,
      Instant wantTrue, Instant wantFalse, Map<String, Instant> finalCache) {
    ReconciliationTracker tracker = new ReconciliationTracker();
    tracker.seed(new HashMap<>(cache));
    ReconciliationTracker.Oldest oldest = tracker.compute(buffers, NOW);
    assertThat(oldest.newBuffers()).isEqualTo(wantTrue);
    assertThat(oldest.reconciledBuffers()).isEqualTo(wantFalse);
    assertThat(tracker.snapshot()).isEqualTo(finalCache);
  }
}
