package dev.headroom.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusWriterTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:01:00Z");

  private static Condition c(String type, String status) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason("r").withMessage("m").withLastTransitionTime("2026-01-01T00:00:00Z").build();
  }

  private static CapacityBufferStatus status(Integer replicas, Condition... conditions) {
    CapacityBufferStatus s = new CapacityBufferStatus();
    s.setReplicas(replicas);
    s.setConditions(new ArrayList<>(List.of(conditions)));
    return s;
  }

  @Test
  void rebaseKeepsOthersConditionsAndTakesTheControllersFromTheComputedStatus() {
    CapacityBufferStatus server = status(1, c("ReadyForProvisioning", "False"), c("Provisioning", "True"), c("ScheduleActive", "True"));
    server.setProvisioningStrategy("old");
    CapacityBufferStatus computed = status(5, c("ReadyForProvisioning", "True"), c("LimitedByQuotas", "False"));
    computed.setPodTemplateRef(new LocalObjectRef("capacitybuffer-b-pod-template"));
    computed.setPodTemplateGeneration(3L);
    computed.setProvisioningStrategy("buffer.x-k8s.io/active-capacity");

    CapacityBufferStatus out = StatusWriter.rebase(server, computed, NOW);
    assertThat(out.getReplicas()).isEqualTo(5);
    assertThat(out.getPodTemplateRef().getName()).isEqualTo("capacitybuffer-b-pod-template");
    assertThat(out.getPodTemplateGeneration()).isEqualTo(3L);
    assertThat(out.getProvisioningStrategy()).isEqualTo("buffer.x-k8s.io/active-capacity");
    assertThat(out.getConditions()).extracting(Condition::getType, Condition::getStatus).containsExactly(
        org.assertj.core.groups.Tuple.tuple("ReadyForProvisioning", "True"),
        org.assertj.core.groups.Tuple.tuple("Provisioning", "True"),
        org.assertj.core.groups.Tuple.tuple("LimitedByQuotas", "False"));
  }

  @Test
  void rebaseKeepsTheServersTransitionTimeOfAConditionWhoseStatusDidNotFlip() {
    // the computed status came from a cache that had not yet seen the controller's own last write: its conditions
    // carry a later transition time for the same statuses (PeersCaE2eTest saw this move them after a 409)
    CapacityBufferStatus server = status(3, c("ReadyForProvisioning", "True"), c("LimitedByQuotas", "False"), c("Provisioning", "True"));
    CapacityBufferStatus computed = status(3, at(c("ReadyForProvisioning", "True"), "2026-01-01T00:00:05Z"),
        at(c("LimitedByQuotas", "True"), "2026-01-01T00:00:05Z"));

    CapacityBufferStatus out = StatusWriter.rebase(server, computed, NOW);
    assertThat(out.getConditions()).extracting(Condition::getType, Condition::getStatus, Condition::getLastTransitionTime).containsExactly(
        org.assertj.core.groups.Tuple.tuple("ReadyForProvisioning", "True", "2026-01-01T00:00:00Z"),
        org.assertj.core.groups.Tuple.tuple("LimitedByQuotas", "True", "2026-01-01T00:00:05Z"),
        org.assertj.core.groups.Tuple.tuple("Provisioning", "True", "2026-01-01T00:00:00Z"));
    CapacityBufferStatus same = status(3, at(c("ReadyForProvisioning", "True"), "2026-01-01T00:00:05Z"),
        at(c("LimitedByQuotas", "False"), "2026-01-01T00:00:05Z"));
    assertThat(dev.headroom.core.buffer.BufferStatuses.semanticallyEqual(server, StatusWriter.rebase(server, same, NOW)))
        .as("an up-to-date server status stays as it is (no write)").isTrue();
  }

  private static Condition at(Condition c, String lastTransitionTime) {
    c.setLastTransitionTime(lastTransitionTime);
    return c;
  }

  @Test
  void rebaseOntoAnEmptyServerStatusKeepsTheComputedOrder() {
    CapacityBufferStatus computed = status(2, c("ReadyForProvisioning", "True"), c("LimitedByQuotas", "False"), c("ScheduleActive", "True"));
    CapacityBufferStatus out = StatusWriter.rebase(null, computed, NOW);
    assertThat(out.getConditions()).extracting(Condition::getType).containsExactly("ReadyForProvisioning", "LimitedByQuotas", "ScheduleActive");
  }

  @Test
  void theConsumptionConditionsAreTheControllersToo() {
    CapacityBufferStatus server = status(4, c("ReadyForProvisioning", "True"), c("Consumed", "False"), c("Fulfilled", "False"), c("Provisioning", "True"));
    CapacityBufferStatus computed = status(0, c("ReadyForProvisioning", "True"), c("Consumed", "True"), c("Fulfilled", "True"));
    CapacityBufferStatus out = StatusWriter.rebase(server, computed, NOW);
    assertThat(out.getReplicas()).isZero();
    assertThat(out.getConditions()).extracting(Condition::getType, Condition::getStatus).containsExactly(
        org.assertj.core.groups.Tuple.tuple("ReadyForProvisioning", "True"),
        org.assertj.core.groups.Tuple.tuple("Consumed", "True"),
        org.assertj.core.groups.Tuple.tuple("Fulfilled", "True"),
        org.assertj.core.groups.Tuple.tuple("Provisioning", "True"));
    CapacityBufferStatus plain = status(4, c("ReadyForProvisioning", "True"));
    assertThat(StatusWriter.rebase(server, plain, NOW).getConditions()).extracting(Condition::getType)
        .as("a buffer whose annotations were removed loses them").containsExactly("ReadyForProvisioning", "Provisioning");
  }
}
