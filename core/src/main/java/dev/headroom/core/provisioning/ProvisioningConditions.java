package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The conditions of a ProvisioningRequest: types, the Cluster Autoscaler's reasons and messages (kubernetes/autoscaler
 * {@code cluster-autoscaler/provisioningrequest/conditions/conditions.go}, and the messages its classes write inline),
 * and its merge rule. Every reason and message a Headroom component writes on a request is a constant here.
 */
public final class ProvisioningConditions {
  /** The request was taken up: its pods are being provisioned for. */
  public static final String ACCEPTED = "Accepted";
  /** Capacity for all the pods was found or requested (True), or not yet (False). */
  public static final String PROVISIONED = "Provisioned";
  /** The request cannot be fulfilled; terminal. */
  public static final String FAILED = "Failed";
  /** The booking of a provisioned request ended (expired, or every pod arrived); terminal. */
  public static final String BOOKING_EXPIRED = "BookingExpired";
  /** The requested resources are no longer valid. Defined by the API; neither CA nor Headroom sets it. */
  public static final String CAPACITY_REVOKED = "CapacityRevoked";

  public static final String TRUE = "True";
  public static final String FALSE = "False";

  public static final String ACCEPTED_REASON = "Accepted";
  public static final String ACCEPTED_MSG = "ProvisioningRequest is accepted by ClusterAutoscaler";
  public static final String CAPACITY_IS_NOT_FOUND_REASON = "CapacityIsNotFound";
  public static final String CAPACITY_IS_FOUND_REASON = "CapacityIsFound";
  public static final String CAPACITY_IS_FOUND_MSG = "Capacity is found in the cluster";
  public static final String CAPACITY_IS_PROVISIONED_REASON = "CapacityIsProvisioned";
  /** CA's message for a successful scale-up; the same text as {@link #CAPACITY_IS_FOUND_MSG} upstream. */
  public static final String CAPACITY_IS_PROVISIONED_MSG = "Capacity is found in the cluster";
  public static final String FAILED_TO_CHECK_CAPACITY_REASON = "FailedToCheckCapacity";
  public static final String FAILED_TO_CHECK_CAPACITY_MSG = "Failed to check pre-existing capacity in the cluster";
  public static final String FAILED_TO_CREATE_PODS_REASON = "FailedToCreatePods";
  public static final String FAILED_TO_BOOK_CAPACITY_REASON = "FailedToBookCapacity";
  public static final String CAPACITY_RESERVATION_TIME_EXPIRED_REASON = "CapacityReservationTimeExpired";
  public static final String CAPACITY_RESERVATION_TIME_EXPIRED_MSG = "Capacity reservation time is expired";
  public static final String CAPACITY_BOOKING_CONSUMED_REASON = "CapacityBookingConsumed";
  public static final String CAPACITY_BOOKING_CONSUMED_MSG = "Capacity booking consumed: all pods scheduled";
  public static final String EXPIRED_REASON = "Expired";
  public static final String EXPIRED_MSG = "ProvisioningRequest is expired";
  /** {@code Provisioned=False} when no capacity was found and the request will be retried (both classes). */
  public static final String NOT_FOUND_RETRY_MSG = "Capacity is not found, CA will try to find it later.";
  /** {@code Failed=True} when check-capacity found no capacity and the request asked for {@code noRetry}. */
  public static final String NOT_FOUND_NO_RETRY_MSG = "CA could not find requested capacity";
  /** {@code Failed=True} {@link #FAILED_TO_BOOK_CAPACITY_REASON}: the pods of a provisioned request cannot be made. */
  public static final String FAILED_TO_BOOK_CAPACITY_MSG_PREFIX = "Couldn't create pods, err: ";

  /** The types {@link #addOrUpdate} writes; any other is left as it is (CA logs and ignores it). */
  private static final Set<String> WRITTEN = Set.of(PROVISIONED, BOOKING_EXPIRED, FAILED, ACCEPTED);

  private ProvisioningConditions() {}

  /** True iff the request's condition {@code type} is {@code True}. */
  public static boolean isTrue(ProvisioningRequest pr, String type) {
    return StatusConditions.isStatus(conditions(pr), type, TRUE);
  }

  /** The request's conditions (never null; not a copy). */
  public static List<Condition> conditions(ProvisioningRequest pr) {
    return pr.getStatus() == null || pr.getStatus().getConditions() == null ? List.of() : pr.getStatus().getConditions();
  }

  /**
   * The Cluster Autoscaler's merge ({@code AddOrUpdateCondition}): the condition of {@code type} replaced in place, or
   * appended; every field is the new one, {@code lastTransitionTime} is {@code now} even when the status is unchanged,
   * and {@code observedGeneration} is the request's generation. Types other than Accepted, Provisioned, Failed and
   * BookingExpired leave the list as it is.
   *
   * @return a new list; {@code previous} is not changed
   */
  public static List<Condition> addOrUpdate(List<Condition> previous, String type, String status, String reason,
      String message, Long generation, Instant now) {
    List<Condition> out = new ArrayList<>(StatusConditions.copy(previous == null ? List.of() : previous));
    if (!WRITTEN.contains(type)) {
      return out;
    }
    Condition c = new Condition(StatusConditions.format(now), message, generation == null || generation == 0 ? null : generation,
        reason, status, type);
    for (int i = 0; i < out.size(); i++) {
      if (Objects.equals(out.get(i).getType(), type)) {
        out.set(i, c);
        return out;
      }
    }
    out.add(c);
    return out;
  }

  /** {@link #addOrUpdate} on the request's current conditions. */
  public static List<Condition> addOrUpdate(ProvisioningRequest pr, String type, String status, String reason,
      String message, Instant now) {
    return addOrUpdate(conditions(pr), type, status, reason, message, pr.getMetadata() == null ? null
        : pr.getMetadata().getGeneration(), now);
  }
}
