package dev.headroom.core.provisioning;

import static dev.headroom.core.provisioning.ProvisioningConditions.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conditions' texts and merge. Source: kubernetes/autoscaler a16f0ae8,
 * {@code cluster-autoscaler/provisioningrequest/conditions/conditions.go} (constants, {@code AddOrUpdateCondition},
 * {@code ShouldCapacityBeBooked}) and {@code conditions/condition_test.go} ({@code TestBookCapacity}).
 */
class ProvisioningConditionsTest {
  private static final Instant T = Instant.parse("2026-03-02T08:00:00Z");

  @Test
  void reasonsAndMessagesAreTheClusterAutoscalers() {
    assertThat(List.of(ACCEPTED_REASON, ACCEPTED_MSG, CAPACITY_IS_NOT_FOUND_REASON, CAPACITY_IS_FOUND_REASON,
        CAPACITY_IS_FOUND_MSG, CAPACITY_IS_PROVISIONED_REASON, CAPACITY_IS_PROVISIONED_MSG, FAILED_TO_CHECK_CAPACITY_REASON,
        FAILED_TO_CHECK_CAPACITY_MSG, FAILED_TO_CREATE_PODS_REASON, FAILED_TO_BOOK_CAPACITY_REASON,
        CAPACITY_RESERVATION_TIME_EXPIRED_REASON, CAPACITY_RESERVATION_TIME_EXPIRED_MSG, CAPACITY_BOOKING_CONSUMED_REASON,
        CAPACITY_BOOKING_CONSUMED_MSG, EXPIRED_REASON, EXPIRED_MSG, NOT_FOUND_RETRY_MSG, NOT_FOUND_NO_RETRY_MSG))
        .containsExactly("Accepted", "ProvisioningRequest is accepted by ClusterAutoscaler", "CapacityIsNotFound",
            "CapacityIsFound", "Capacity is found in the cluster", "CapacityIsProvisioned", "Capacity is found in the cluster",
            "FailedToCheckCapacity", "Failed to check pre-existing capacity in the cluster", "FailedToCreatePods",
            "FailedToBookCapacity", "CapacityReservationTimeExpired", "Capacity reservation time is expired",
            "CapacityBookingConsumed", "Capacity booking consumed: all pods scheduled", "Expired",
            "ProvisioningRequest is expired", "Capacity is not found, CA will try to find it later.",
            "CA could not find requested capacity");
    assertThat(List.of(ACCEPTED, PROVISIONED, FAILED, BOOKING_EXPIRED, CAPACITY_REVOKED))
        .containsExactly("Accepted", "Provisioned", "Failed", "BookingExpired", "CapacityRevoked");
  }

  @Test
  void addOrUpdateReplacesInPlaceWithANewTransitionTimeEvenWhenTheStatusIsTheSame() {
    List<Condition> before = List.of(Requests.condition(ACCEPTED, TRUE, T.minusSeconds(600), "Accepted", "old"),
        Requests.condition(PROVISIONED, FALSE, T.minusSeconds(300), CAPACITY_IS_NOT_FOUND_REASON, NOT_FOUND_RETRY_MSG));
    List<Condition> after = addOrUpdate(before, ACCEPTED, TRUE, ACCEPTED_REASON, ACCEPTED_MSG, 3L, T);
    assertThat(after).extracting(Condition::getType).containsExactly(ACCEPTED, PROVISIONED);
    assertThat(after.get(0).getLastTransitionTime()).isEqualTo("2026-03-02T08:00:00Z");
    assertThat(after.get(0).getMessage()).isEqualTo(ACCEPTED_MSG);
    assertThat(after.get(0).getObservedGeneration()).isEqualTo(3L);
    assertThat(after.get(1)).isEqualTo(before.get(1));
    assertThat(before.get(0).getMessage()).isEqualTo("old");
  }

  @Test
  void addOrUpdateAppendsANewTypeAndIgnoresTypesItDoesNotWrite() {
    List<Condition> added = addOrUpdate(List.of(), BOOKING_EXPIRED, TRUE, CAPACITY_BOOKING_CONSUMED_REASON,
        CAPACITY_BOOKING_CONSUMED_MSG, null, T);
    assertThat(added).singleElement().satisfies(c -> {
      assertThat(c.getType()).isEqualTo(BOOKING_EXPIRED);
      assertThat(c.getObservedGeneration()).isNull();
    });
    assertThat(addOrUpdate(added, CAPACITY_REVOKED, TRUE, "Revoked", "", 1L, T)).isEqualTo(added);
  }

  /** {@code TestBookCapacity}: which requests hold booked capacity. */
  @Test
  void bookedAsShouldCapacityBeBooked() {
    for (String cls : List.of(ProvisioningRequest.CLASS_CHECK_CAPACITY, ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC)) {
      assertThat(RequestLifecycle.booked(Requests.request("a", cls, "t", 1, T, Requests.condition(PROVISIONED, TRUE, T),
          Requests.condition(BOOKING_EXPIRED, TRUE, T)), "")).as("BookingExpired %s", cls).isFalse();
      assertThat(RequestLifecycle.booked(Requests.request("a", cls, "t", 1, T, Requests.condition(PROVISIONED, TRUE, T),
          Requests.condition(FAILED, TRUE, T)), "")).as("Failed %s", cls).isFalse();
      assertThat(RequestLifecycle.booked(Requests.request("a", cls, "t", 1, T), "")).as("empty %s", cls).isFalse();
      assertThat(RequestLifecycle.booked(Requests.request("a", cls, "t", 1, T, Requests.condition(PROVISIONED, TRUE, T)), ""))
          .as("provisioned %s", cls).isTrue();
      assertThat(RequestLifecycle.booked(Requests.request("a", cls, "t", 1, T, Requests.condition(PROVISIONED, TRUE, T)), "instance"))
          .as("provisioned %s, other processor instance", cls).isFalse();
      assertThat(RequestLifecycle.booked(Requests.request("a", cls, "t", 1, T, Requests.condition(PROVISIONED, FALSE, T)), ""))
          .as("not found %s", cls).isFalse();
    }
  }
}
