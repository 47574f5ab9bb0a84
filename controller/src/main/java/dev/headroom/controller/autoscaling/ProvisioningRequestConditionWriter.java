package dev.headroom.controller.autoscaling;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestStatus;
import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.provisioning.ProvisioningRequestStatusWriter;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's {@link ProvisioningRequestStatusWriter}: writes the conditions core decided through the {@code status}
 * subresource, locked on the {@code resourceVersion} core saw; after a conflict, onto a fresh read (the request's
 * other status fields kept). A request that is gone, or replaced by a new one of the same name, is not written.
 * Failures are logged; the next loop decides again.
 */
public final class ProvisioningRequestConditionWriter implements ProvisioningRequestStatusWriter {
  private static final Logger LOG = LoggerFactory.getLogger(ProvisioningRequestConditionWriter.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  /** Attempts per write (first write plus re-reads after conflicts). */
  public static final int MAX_ATTEMPTS = 4;

  private final KubernetesClient client;

  public ProvisioningRequestConditionWriter(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void writeConditions(ProvisioningRequest request, List<Condition> conditions) {
    String ns = request.getMetadata().getNamespace();
    String name = request.getMetadata().getName();
    ProvisioningRequest base = request;
    boolean readFirst = request.getMetadata().getResourceVersion() == null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt > 1 || readFirst) {
        try {
          base = client.resources(ProvisioningRequest.class).inNamespace(ns).withName(name).get();
        } catch (KubernetesClientException e) {
          LOG.warn("reading ProvisioningRequest {}/{} before writing its conditions failed: {}", ns, name, ApiErrors.message(e));
          return;
        }
        if (base == null || !Objects.equals(base.getMetadata().getUid(), request.getMetadata().getUid())) {
          return;
        }
      }
      ProvisioningRequest update = new ProvisioningRequest();
      update.setMetadata(SERIALIZATION.clone(base.getMetadata()));
      update.setSpec(base.getSpec());
      ProvisioningRequestStatus status = new ProvisioningRequestStatus();
      if (base.getStatus() != null) {
        status.setProvisioningClassDetails(base.getStatus().getProvisioningClassDetails());
      }
      List<Condition> copy = new ArrayList<>();
      for (Condition c : conditions) {
        copy.add(SERIALIZATION.clone(c));
      }
      status.setConditions(copy);
      update.setStatus(status);
      try {
        client.resources(ProvisioningRequest.class).inNamespace(ns).resource(update).updateStatus();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return;
        }
        if (e.getCode() != 409) {
          LOG.warn("writing the conditions of ProvisioningRequest {}/{} failed: {}", ns, name, ApiErrors.message(e));
          return;
        }
      }
    }
    LOG.warn("writing the conditions of ProvisioningRequest {}/{} kept conflicting; the next loop retries", ns, name);
  }
}
