package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Port: writes a ProvisioningRequest's conditions through the status subresource (the full list, as decided by
 * {@link ProvisioningRequests}). Write errors are the adapter's to log; the next loop decides again.
 */
@FunctionalInterface
public interface ProvisioningRequestStatusWriter {

  /** Writes {@code conditions} as the request's {@code status.conditions}. */
  void writeConditions(ProvisioningRequest request, List<Condition> conditions);

  /** A writer that drops everything. */
  ProvisioningRequestStatusWriter NONE = (r, c) -> {};
}
