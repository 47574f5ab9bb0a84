package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's {@link BufferStatusWriter}: merges only the autoscaler's condition types ({@code Provisioning},
 * {@code CapacityAvailable}) into the buffer's status and writes it through the {@code status} subresource, locked on
 * the merged object's {@code resourceVersion}: first the object core saw (the informer's, one request when it is
 * current), then, after a conflict, a fresh read merged again, so the buffer controller's conditions and fields are
 * never overwritten. Failures are logged; the next loop writes again.
 */
public final class BufferConditionWriter implements BufferStatusWriter {
  private static final Logger LOG = LoggerFactory.getLogger(BufferConditionWriter.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** The condition types this writer owns (autoscaler side, capacitybuffer spec §7.3 and §8.1). */
  public static final Set<String> AUTOSCALER_CONDITIONS = Set.of(BufferConditions.PROVISIONING, BufferConditions.CAPACITY_AVAILABLE);
  /** Attempts per write (first write plus re-reads after conflicts). */
  public static final int MAX_ATTEMPTS = 4;

  private final KubernetesClient client;

  public BufferConditionWriter(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void writeConditions(CapacityBuffer buffer, List<Condition> conditions) {
    String ns = buffer.getMetadata().getNamespace();
    String name = buffer.getMetadata().getName();
    // First onto the object core saw, locked on its resourceVersion: when the cache is current (the usual case) one
    // request; when the buffer controller wrote since, 409, and the rounds below merge onto a fresh read.
    CapacityBuffer base = buffer;
    // without a resourceVersion the write would not be locked: read first
    boolean readFirst = buffer.getMetadata().getResourceVersion() == null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt > 1 || readFirst) {
        try {
          base = client.resources(CapacityBuffer.class).inNamespace(ns).withName(name).get();
        } catch (KubernetesClientException e) {
          LOG.warn("reading buffer {}/{} before writing its conditions failed: {}", ns, name, ApiErrors.message(e));
          return;
        }
        if (base == null || !java.util.Objects.equals(base.getMetadata().getUid(), buffer.getMetadata().getUid())) {
          return; // gone (or replaced by a new object of the same name)
        }
      }
      CapacityBuffer update = SERIALIZATION.clone(base);
      CapacityBufferStatus status = update.getStatus() == null ? new CapacityBufferStatus() : update.getStatus();
      List<Condition> merged = merge(status.getConditions(), conditions);
      if (update.getStatus() != null && StatusConditions.semanticallyEqual(status.getConditions(), merged)) {
        return;
      }
      status.setConditions(merged);
      update.setStatus(status);
      try {
        // The base's resourceVersion locks the write: a concurrent controller write gives 409 and another round.
        client.resources(CapacityBuffer.class).inNamespace(ns).resource(update).updateStatus();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return;
        }
        if (e.getCode() != 409) {
          LOG.warn("writing autoscaler conditions of buffer {}/{} failed: {}", ns, name, ApiErrors.message(e));
          return;
        }
      }
    }
    LOG.warn("writing autoscaler conditions of buffer {}/{} kept conflicting; the next loop retries", ns, name);
  }

  /** {@code stored} with the autoscaler's condition types taken from {@code computed} (replaced in place or appended). */
  static List<Condition> merge(List<Condition> stored, List<Condition> computed) {
    List<Condition> out = new ArrayList<>();
    if (stored != null) {
      for (Condition c : stored) {
        out.add(SERIALIZATION.clone(c));
      }
    }
    for (String type : List.of(BufferConditions.PROVISIONING, BufferConditions.CAPACITY_AVAILABLE)) {
      Optional<Condition> want = computed == null ? Optional.empty() : computed.stream().filter(c -> type.equals(c.getType())).findFirst();
      if (want.isEmpty()) {
        continue;
      }
      int at = -1;
      for (int i = 0; i < out.size(); i++) {
        if (type.equals(out.get(i).getType())) {
          at = i;
          break;
        }
      }
      Condition copy = SERIALIZATION.clone(want.get());
      if (at >= 0) {
        out.set(at, copy);
      } else {
        out.add(copy);
      }
    }
    return out;
  }
}
