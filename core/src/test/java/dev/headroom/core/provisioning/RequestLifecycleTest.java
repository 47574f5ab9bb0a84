package dev.headroom.core.provisioning;

import static dev.headroom.core.provisioning.ProvisioningConditions.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expiry and deletion. Vectors: kubernetes/autoscaler a16f0ae8,
 * {@code cluster-autoscaler/processors/provreq/processor_test.go} ({@code TestRefresh} with {@code maxUpdated} 1 and
 * the week-old "additional" request; {@code TestDeleteOldProvReqs}).
 */
class RequestLifecycleTest {
  private static final Instant NOW = Instant.parse("2026-03-10T08:00:00Z");
  private static final Instant DAY_AGO = NOW.minus(Duration.ofDays(1));
  private static final Instant WEEK_AGO = NOW.minus(RequestLifecycle.EXPIRATION).minus(Duration.ofMinutes(5));
  private static final String CC = ProvisioningRequest.CLASS_CHECK_CAPACITY;

  private static List<StatusUpdate> refresh(ProvisioningRequest pr) {
    ProvisioningRequest additional = Requests.request("additional", CC, "t", 1, WEEK_AGO);
    return RequestLifecycle.refresh(List.of(pr, additional), "", NOW, 1);
  }

  @Test
  void aNewRequestIsLeftAloneAndTheAdditionalOneExpires() {
    List<StatusUpdate> u = refresh(Requests.request("name-1", CC, "t", 1, NOW));
    assertThat(u).singleElement().satisfies(x -> {
      assertThat(x.key()).isEqualTo("default/additional");
      assertThat(x.conditions()).singleElement().satisfies(c -> {
        assertThat(c.getType()).isEqualTo(FAILED);
        assertThat(c.getStatus()).isEqualTo(TRUE);
        assertThat(c.getReason()).isEqualTo(EXPIRED_REASON);
        assertThat(c.getMessage()).isEqualTo(EXPIRED_MSG);
        assertThat(c.getLastTransitionTime()).isEqualTo(NOW.toString());
      });
    });
  }

  @Test
  void aWeekOldRequestWithoutConditionsFailsAsExpiredAndTakesTheOneUpdate() {
    List<StatusUpdate> u = refresh(Requests.request("name-1", CC, "t", 1, WEEK_AGO));
    assertThat(u).singleElement().satisfies(x -> {
      assertThat(x.key()).isEqualTo("default/name-1");
      assertThat(x.type()).isEqualTo(FAILED);
      assertThat(x.reason()).isEqualTo(EXPIRED_REASON);
    });
  }

  @Test
  void aWeekOldRequestNotProvisionedKeepsItsConditionAndGetsFailed() {
    ProvisioningRequest pr = Requests.request("name-1", CC, "t", 1, WEEK_AGO,
        Requests.condition(PROVISIONED, FALSE, DAY_AGO, EXPIRED_REASON, EXPIRED_MSG));
    List<StatusUpdate> u = refresh(pr);
    assertThat(u).singleElement().satisfies(x -> {
      assertThat(x.key()).isEqualTo("default/name-1");
      assertThat(x.conditions()).extracting(c -> c.getType() + "=" + c.getStatus()).containsExactly("Provisioned=False", "Failed=True");
      assertThat(x.conditions().get(0).getLastTransitionTime()).isEqualTo(DAY_AGO.toString());
    });
  }

  @Test
  void aBookingPastItsReservationExpiresFirst() {
    ProvisioningRequest pr = Requests.request("name-1", CC, "t", 1, DAY_AGO,
        Requests.condition(PROVISIONED, TRUE, DAY_AGO, EXPIRED_REASON, EXPIRED_MSG));
    List<StatusUpdate> u = refresh(pr);
    assertThat(u).singleElement().satisfies(x -> {
      assertThat(x.key()).isEqualTo("default/name-1");
      assertThat(x.type()).isEqualTo(BOOKING_EXPIRED);
      assertThat(x.reason()).isEqualTo(CAPACITY_RESERVATION_TIME_EXPIRED_REASON);
      assertThat(x.message()).isEqualTo(CAPACITY_RESERVATION_TIME_EXPIRED_MSG);
    });
  }

  @Test
  void theReservationIsTenMinutesExactlyExclusive() {
    ProvisioningRequest at = Requests.request("a", CC, "t", 1, DAY_AGO, Requests.condition(PROVISIONED, TRUE, NOW.minus(Duration.ofMinutes(10))));
    ProvisioningRequest past = Requests.request("b", CC, "t", 1, DAY_AGO,
        Requests.condition(PROVISIONED, TRUE, NOW.minus(Duration.ofMinutes(10)).minusSeconds(1)));
    assertThat(RequestLifecycle.refresh(List.of(at, past), "", NOW, 20)).extracting(StatusUpdate::key).containsExactly("default/b");
  }

  @Test
  void aFailedRequestIsLeftAsItIs() {
    ProvisioningRequest pr = Requests.request("name-1", CC, "t", 1, DAY_AGO, Requests.condition(FAILED, TRUE, DAY_AGO, "Failed", "Failed"));
    assertThat(refresh(pr)).extracting(StatusUpdate::key).containsExactly("default/additional");
  }

  @Test
  void terminalRequestsOlderThanAWeekAreToBeDeleted() {
    Instant tenDaysAgo = NOW.minus(Duration.ofDays(10));
    ProvisioningRequest fresh = Requests.request("name-1", CC, "t", 1, NOW);
    ProvisioningRequest oldFailed = Requests.request("failed", CC, "t", 1, tenDaysAgo, Requests.condition(FAILED, TRUE, tenDaysAgo));
    ProvisioningRequest oldExpired = Requests.request("expired", CC, "t", 1, tenDaysAgo,
        Requests.condition(PROVISIONED, TRUE, tenDaysAgo), Requests.condition(BOOKING_EXPIRED, TRUE, tenDaysAgo));
    ProvisioningRequest recentFailed = Requests.request("recent", CC, "t", 1, tenDaysAgo, Requests.condition(FAILED, TRUE, DAY_AGO));
    assertThat(RequestLifecycle.toDelete(List.of(fresh, oldFailed, oldExpired, recentFailed), NOW))
        .extracting(RequestPods::key).containsExactly("default/failed", "default/expired");
  }
}
