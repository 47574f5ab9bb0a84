package dev.headroom.core.provisioning;

import static dev.headroom.core.provisioning.ProvisioningConditions.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * When a request is taken up. Vectors: kubernetes/autoscaler a16f0ae8,
 * {@code cluster-autoscaler/processors/provreq/injector_test.go} ({@code TestProvisioningRequestPodsInjector}: new,
 * Provisioned=True, Failed, Provisioned=False an hour ago, Provisioned=False a minute and a second ago with 1m initial
 * backoff, Provisioned=Unknown).
 */
class RequestBackoffTest {
  private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
  private static final Instant MIN_AGO = NOW.minusSeconds(61);
  private static final Instant HOUR_AGO = NOW.minusSeconds(3600);
  private static final String BE = ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC;

  private final RequestBackoff backoff = new RequestBackoff(Duration.ofMinutes(1), Duration.ofMinutes(10));

  @Test
  void newRequestsAreAvailableAndTerminalOnesAreNot() {
    assertThat(backoff.available(Requests.request("new", BE, "t", 1, NOW,
        Requests.condition(ACCEPTED, TRUE, MIN_AGO)), NOW)).isTrue();
    assertThat(backoff.available(Requests.request("p", BE, "t", 1, NOW, Requests.condition(PROVISIONED, TRUE, HOUR_AGO)), NOW)).isFalse();
    assertThat(backoff.available(Requests.request("f", BE, "t", 1, NOW, Requests.condition(FAILED, TRUE, HOUR_AGO)), NOW)).isFalse();
    assertThat(backoff.available(Requests.request("u", BE, "t", 1, NOW, Requests.condition(PROVISIONED, "Unknown", HOUR_AGO)), NOW)).isFalse();
  }

  @Test
  void notProvisionedIsRetriedAfterABackoffThatDoublesUpToTheMaximum() {
    ProvisioningRequest longAgo = Requests.request("b", BE, "t", 1, NOW, Requests.condition(PROVISIONED, FALSE, HOUR_AGO));
    assertThat(backoff.available(longAgo, NOW)).isTrue();
    assertThat(backoff.retryTime("b-uid")).contains(Duration.ofMinutes(2));
    // "provisioned-false-recently": 61 s ago with a 1 m initial backoff
    ProvisioningRequest recently = Requests.request("r", BE, "t", 1, NOW, Requests.condition(PROVISIONED, FALSE, MIN_AGO));
    assertThat(backoff.available(recently, NOW)).isTrue();
    ProvisioningRequest again = Requests.request("r", BE, "t", 1, NOW, Requests.condition(PROVISIONED, FALSE, NOW.minusSeconds(90)));
    assertThat(backoff.available(again, NOW)).as("within the doubled 2m").isFalse();
    assertThat(backoff.available(again, NOW.plusSeconds(31))).isTrue();
    assertThat(backoff.retryTime("r-uid")).contains(Duration.ofMinutes(4));
    for (int i = 0; i < 5; i++) {
      backoff.available(Requests.request("r", BE, "t", 1, NOW, Requests.condition(PROVISIONED, FALSE, HOUR_AGO)), NOW);
    }
    assertThat(backoff.retryTime("r-uid")).contains(Duration.ofMinutes(10));
    backoff.available(Requests.request("r", BE, "t", 1, NOW, Requests.condition(PROVISIONED, TRUE, NOW)), NOW);
    assertThat(backoff.retryTime("r-uid")).isEmpty();
  }
}
