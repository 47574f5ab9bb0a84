package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** An expected buffer status (ref, replicas, generation, strategy, conditions), compared without lastTransitionTime. */
record ExpectedStatus(String ref, Integer replicas, Long generation, String strategy, List<Condition> conditions) {

  static final ExpectedStatus EMPTY = new ExpectedStatus(null, null, null, null, List.of());

  static ExpectedStatus of(String ref, Integer replicas, Long generation, String strategy, Condition... conditions) {
    return new ExpectedStatus(ref, replicas, generation, strategy, List.of(conditions));
  }

  void assertMatches(CapacityBuffer buffer) {
    CapacityBufferStatus s = buffer.getStatus() == null ? new CapacityBufferStatus() : buffer.getStatus();
    assertThat(s.getPodTemplateRef() == null ? null : s.getPodTemplateRef().getName()).as("podTemplateRef").isEqualTo(ref);
    assertThat(s.getReplicas()).as("replicas").isEqualTo(replicas);
    assertThat(s.getPodTemplateGeneration()).as("podTemplateGeneration").isEqualTo(generation);
    assertThat(s.getProvisioningStrategy()).as("provisioningStrategy").isEqualTo(strategy);
    assertThat(Fixtures.withoutTime(s.getConditions())).as("conditions").isEqualTo(conditions);
  }
}
