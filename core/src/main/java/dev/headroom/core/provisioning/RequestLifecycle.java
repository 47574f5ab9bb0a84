package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The time rules of the Cluster Autoscaler's ProvisioningRequest processor
 * ({@code cluster-autoscaler/processors/provreq/processor.go}, {@code refresh} and {@code DeleteOldProvReqs}): a
 * booking ends {@link #RESERVATION} after {@code Provisioned=True} ({@code BookingExpired=True}
 * {@code CapacityReservationTimeExpired}); a request not provisioned within {@link #EXPIRATION} of its creation fails
 * ({@code Failed=True} {@code Expired}); at most {@link #MAX_UPDATED} requests change per loop, expired bookings
 * first; a request {@link #TERMINAL_TTL} past its {@code Provisioned} or {@code Failed} transition is to be deleted.
 */
public final class RequestLifecycle {
  /** CA's {@code defaultReservationTime}. */
  public static final Duration RESERVATION = Duration.ofMinutes(10);
  /** CA's {@code defaultExpirationTime}. */
  public static final Duration EXPIRATION = Duration.ofDays(7);
  /** CA's {@code defaultTerminalProvReqTTL}. */
  public static final Duration TERMINAL_TTL = Duration.ofDays(7);
  /** CA's {@code defaultMaxUpdated}. */
  public static final int MAX_UPDATED = 20;

  private RequestLifecycle() {}

  /**
   * The expiry updates at {@code now} over {@code requests} (in order) for processor instance {@code instance}, at most
   * {@code maxUpdated}.
   */
  public static List<StatusUpdate> refresh(List<ProvisioningRequest> requests, String instance, Instant now, int maxUpdated) {
    List<ProvisioningRequest> expired = new ArrayList<>();
    List<ProvisioningRequest> failed = new ArrayList<>();
    for (ProvisioningRequest pr : requests) {
      if (expired.size() >= maxUpdated) {
        break;
      }
      if (!ProvisioningClasses.supported(pr, instance)) {
        continue;
      }
      if (ProvisioningConditions.isTrue(pr, ProvisioningConditions.BOOKING_EXPIRED)
          || ProvisioningConditions.isTrue(pr, ProvisioningConditions.FAILED)) {
        continue;
      }
      Optional<Condition> provisioned = StatusConditions.find(ProvisioningConditions.conditions(pr), ProvisioningConditions.PROVISIONED);
      if (provisioned.isPresent() && ProvisioningConditions.TRUE.equals(provisioned.get().getStatus())) {
        if (transition(provisioned.get()).map(t -> t.plus(RESERVATION).isBefore(now)).orElse(false)) {
          expired.add(pr);
        }
      } else if (failed.size() < maxUpdated - expired.size()) {
        Optional<Instant> created = Nodes.time(pr.getMetadata().getCreationTimestamp());
        if (created.map(c -> c.plus(EXPIRATION).isBefore(now)).orElse(false)) {
          failed.add(pr);
        }
      }
    }
    List<StatusUpdate> out = new ArrayList<>();
    for (ProvisioningRequest pr : expired) {
      out.add(StatusUpdate.of(pr, ProvisioningConditions.BOOKING_EXPIRED, ProvisioningConditions.TRUE,
          ProvisioningConditions.CAPACITY_RESERVATION_TIME_EXPIRED_REASON,
          ProvisioningConditions.CAPACITY_RESERVATION_TIME_EXPIRED_MSG, now));
    }
    for (ProvisioningRequest pr : failed) {
      out.add(StatusUpdate.of(pr, ProvisioningConditions.FAILED, ProvisioningConditions.TRUE,
          ProvisioningConditions.EXPIRED_REASON, ProvisioningConditions.EXPIRED_MSG, now));
    }
    return out;
  }

  /**
   * True when capacity is held for the request's pods (CA's {@code ShouldCapacityBeBooked}): a supported class,
   * {@code Provisioned=True}, and neither {@code Failed} nor {@code BookingExpired} True.
   */
  public static boolean booked(ProvisioningRequest pr, String instance) {
    return ProvisioningClasses.supported(pr, instance)
        && !ProvisioningConditions.isTrue(pr, ProvisioningConditions.FAILED)
        && !ProvisioningConditions.isTrue(pr, ProvisioningConditions.BOOKING_EXPIRED)
        && ProvisioningConditions.isTrue(pr, ProvisioningConditions.PROVISIONED);
  }

  /** The requests whose {@code Provisioned} or {@code Failed} condition changed more than {@link #TERMINAL_TTL} ago. */
  public static List<ProvisioningRequest> toDelete(List<ProvisioningRequest> requests, Instant now) {
    List<ProvisioningRequest> out = new ArrayList<>();
    for (ProvisioningRequest pr : requests) {
      List<Condition> cs = ProvisioningConditions.conditions(pr);
      if (old(cs, ProvisioningConditions.PROVISIONED, now) || old(cs, ProvisioningConditions.FAILED, now)) {
        out.add(pr);
      }
    }
    return out;
  }

  private static boolean old(List<Condition> cs, String type, Instant now) {
    return StatusConditions.find(cs, type).flatMap(RequestLifecycle::transition)
        .map(t -> t.plus(TERMINAL_TTL).isBefore(now)).orElse(false);
  }

  static Optional<Instant> transition(Condition c) {
    return Nodes.time(c.getLastTransitionTime());
  }
}
