package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * New conditions for a request: the full list to write through the status subresource, and the condition that
 * changed ({@code type}, {@code status}, {@code reason}, {@code message}), for reports.
 */
public record StatusUpdate(ProvisioningRequest request, List<Condition> conditions, String type, String status,
    String reason, String message) {

  /** {@link ProvisioningConditions#addOrUpdate} of one condition on {@code pr}'s conditions at {@code now}. */
  public static StatusUpdate of(ProvisioningRequest pr, String type, String status, String reason, String message,
      java.time.Instant now) {
    return new StatusUpdate(pr, ProvisioningConditions.addOrUpdate(pr, type, status, reason, message, now), type, status,
        reason, message);
  }

  /** {@code namespace/name} of the request. */
  public String key() {
    return RequestPods.key(request);
  }
}
