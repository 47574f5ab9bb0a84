package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.cond;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.8 (condition helpers) and the §4.2 merge rules. */
class ConditionsTest {

  static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");
  static final Instant T1 = Instant.parse("2026-03-02T11:00:00Z");
  static final Condition X = cond("ExistingCondition", "True", "Existing", "Existing message");

  static CapacityBuffer withExisting() {
    CapacityBuffer b = Fixtures.buffer("b");
    b.getSpec().setProvisioningStrategy(Fixtures.ACTIVE);
    b.setStatus(new CapacityBufferStatus());
    b.getStatus().setConditions(new ArrayList<>(List.of(cond("ExistingCondition", "True", "Existing", "Existing message"))));
    return b;
  }

  static void add(CapacityBuffer b, Condition c) {
    StatusConditions.set(b.getStatus().getConditions(), c, T0);
  }

  static Stream<Arguments> v9_8() {
    return Stream.of(
        Arguments.of("9.8 SetReady", (Consumer<CapacityBuffer>) b -> BufferStatuses.setReady(b, "pt", 1L, 1, T0),
            cond("ReadyForProvisioning", "True", "AttributesSetSuccessfully", "ready")),
        Arguments.of("9.8 SetNotReady", (Consumer<CapacityBuffer>) b -> BufferStatuses.setNotReady(b, "pt", 1L, 1, "some error", T0),
            cond("ReadyForProvisioning", "False", "error", "Buffer not ready for provisioning: some error")),
        Arguments.of("9.8 Provisioning failed", (Consumer<CapacityBuffer>) b -> add(b, BufferConditions.provisioningFailed("FailedReason", "failed message", 0)),
            cond("Provisioning", "False", "FailedReason", "failed message")),
        Arguments.of("9.8 Provisioning succeeded", (Consumer<CapacityBuffer>) b -> add(b, BufferConditions.provisioningSucceeded("SuccessReason", 0)),
            cond("Provisioning", "True", "SuccessReason", "")),
        Arguments.of("9.8 LimitedByQuota", (Consumer<CapacityBuffer>) b -> add(b, BufferConditions.limitedByQuotas(10, 5, List.of("quota-1", "quota-2"), 0)),
            cond("LimitedByQuotas", "True", "ResourceQuotasAllocated", "Buffer replicas limited from 10 to 5 due to quotas: quota-1, quota-2")),
        Arguments.of("9.8 NotLimitedByQuota", (Consumer<CapacityBuffer>) b -> add(b, BufferConditions.notLimitedByQuotas(0)),
            cond("LimitedByQuotas", "False", "ResourceQuotasAllocated", "")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v9_8")
  void conditionHelpers(String name, Consumer<CapacityBuffer> call, Condition expected) {
    CapacityBuffer b = withExisting();
    call.accept(b);
    List<Condition> got = Fixtures.withoutTime(b.getStatus().getConditions());
    got.sort(Comparator.comparing(Condition::getType));
    List<Condition> want = new ArrayList<>(List.of(X, expected));
    want.sort(Comparator.comparing(Condition::getType));
    assertThat(got).isEqualTo(want);
    assertThat(b.getStatus().getConditions()).allSatisfy(c -> assertThat(c.getMessage()).isNotNull());
  }

  @Test
  void setReadyReplacesTheFieldsAndDerivesTheStrategy() {
    CapacityBuffer b = withExisting();
    BufferStatuses.setReady(b, "pt", 1L, 1, T0);
    assertThat(b.getStatus().getPodTemplateRef().getName()).isEqualTo("pt");
    assertThat(b.getStatus().getPodTemplateGeneration()).isEqualTo(1L);
    assertThat(b.getStatus().getReplicas()).isEqualTo(1);
    assertThat(b.getStatus().getProvisioningStrategy()).isEqualTo(Fixtures.ACTIVE);
    BufferStatuses.setNotReady(b, null, null, null, null, T0);
    assertThat(b.getStatus().getPodTemplateRef()).isNull();
    assertThat(b.getStatus().getReplicas()).isNull();
    assertThat(b.getStatus().getPodTemplateGeneration()).isNull();
    assertThat(StatusConditions.find(b.getStatus().getConditions(), "ReadyForProvisioning").orElseThrow().getMessage())
        .isEqualTo("Buffer not ready for provisioning");
  }

  static Stream<Arguments> strategies() {
    return Stream.of(Arguments.of(null, null), Arguments.of("", Fixtures.ACTIVE), Arguments.of(Fixtures.ACTIVE, Fixtures.ACTIVE), Arguments.of("foo", "foo"));
  }

  @ParameterizedTest(name = "3.1 status strategy of spec strategy {0} is {1}")
  @MethodSource("strategies")
  void statusStrategy(String spec, String status) {
    assertThat(BufferStatuses.statusStrategy(spec)).isEqualTo(status);
  }

  @Test
  void mergeKeepsPositionAndTransitionTimeUnlessTheStatusFlips() {
    List<Condition> list = new ArrayList<>();
    assertThat(StatusConditions.set(list, BufferConditions.ready(0), T0)).isTrue();
    assertThat(StatusConditions.set(list, BufferConditions.notLimitedByQuotas(0), T0)).isTrue();
    assertThat(list.get(0).getLastTransitionTime()).isEqualTo("2026-03-02T10:00:00Z");

    assertThat(StatusConditions.set(list, BufferConditions.ready(0), T1)).as("identical update").isFalse();
    assertThat(list.get(0).getLastTransitionTime()).isEqualTo("2026-03-02T10:00:00Z");

    assertThat(StatusConditions.set(list, BufferConditions.limitedByQuotas(3, 2, List.of("q"), 0), T1)).isTrue();
    assertThat(list.get(1).getLastTransitionTime()).isEqualTo("2026-03-02T11:00:00Z");
    assertThat(list).extracting(Condition::getType).containsExactly("ReadyForProvisioning", "LimitedByQuotas");

    Instant t2 = T1.plusSeconds(60);
    assertThat(StatusConditions.set(list, BufferConditions.limitedByQuotas(3, 1, List.of("q"), 0), t2)).as("message only").isTrue();
    assertThat(list.get(1).getLastTransitionTime()).as("same status keeps LTT").isEqualTo("2026-03-02T11:00:00Z");

    assertThat(StatusConditions.set(list, BufferConditions.limitedByQuotas(3, 1, List.of("q"), 7), t2)).as("generation only").isTrue();
    assertThat(list.get(1).getObservedGeneration()).isEqualTo(7L);
  }

  @Test
  void suppliedTransitionTimeIsKeptOnAppend() {
    List<Condition> list = new ArrayList<>();
    Condition c = BufferConditions.ready(0);
    c.setLastTransitionTime("2020-01-01T00:00:00Z");
    StatusConditions.set(list, c, T0);
    assertThat(list.get(0).getLastTransitionTime()).isEqualTo("2020-01-01T00:00:00Z");
  }

  @Test
  void removeKeepsTheOrderOfTheOthers() {
    List<Condition> list = new ArrayList<>();
    StatusConditions.set(list, cond("A", "True", "r", ""), T0);
    StatusConditions.set(list, cond("ScheduleActive", "True", "r", ""), T0);
    StatusConditions.set(list, cond("C", "True", "r", ""), T0);
    assertThat(StatusConditions.remove(list, "ScheduleActive")).isTrue();
    assertThat(StatusConditions.remove(list, "ScheduleActive")).isFalse();
    assertThat(list).extracting(Condition::getType).containsExactly("A", "C");
  }

  @Test
  void longMessagesAreCut() {
    List<Condition> list = new ArrayList<>();
    StatusConditions.set(list, BufferConditions.notReady("x".repeat(40000), 0), T0);
    assertThat(list.get(0).getMessage()).hasSize(StatusConditions.MAX_MESSAGE_LENGTH);
  }

  @Test
  void observedGenerationZeroIsOmitted() {
    assertThat(BufferConditions.ready(0).getObservedGeneration()).isNull();
    assertThat(BufferConditions.ready(3).getObservedGeneration()).isEqualTo(3L);
  }

  @Test
  void semanticEqualityComparesTransitionTimesAtSecondPrecision() {
    Condition a = BufferConditions.ready(0);
    a.setLastTransitionTime("2026-03-02T10:00:00Z");
    Condition b = BufferConditions.ready(0);
    b.setLastTransitionTime("2026-03-02T10:00:00.400Z");
    Condition c = BufferConditions.ready(0);
    c.setLastTransitionTime("2026-03-02T10:00:01Z");
    assertThat(StatusConditions.semanticallyEqual(List.of(a), List.of(b))).isTrue();
    assertThat(StatusConditions.semanticallyEqual(List.of(a), List.of(c))).isFalse();
    assertThat(StatusConditions.semanticallyEqual(null, List.of())).isTrue();
  }
}
