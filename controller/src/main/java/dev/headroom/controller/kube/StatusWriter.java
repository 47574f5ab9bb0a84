package dev.headroom.controller.kube;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.BufferConsumption;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.BufferStatuses;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a computed buffer status through the {@code status} subresource with {@code resourceVersion} optimistic
 * locking. On a 409 it re-reads the buffer and, if its spec is unchanged, puts the controller-owned parts of the
 * computed status (the four status fields and the controller's condition types) onto the fresh status and tries
 * again; conditions owned by others (the autoscaler's) are kept as they are on the server.
 */
public final class StatusWriter {
  private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);
  /** Condition types the controller writes (spec §4.1); all others belong to other writers. */
  public static final Set<String> CONTROLLER_CONDITIONS = Set.of(
      BufferConditions.READY_FOR_PROVISIONING, BufferConditions.LIMITED_BY_QUOTAS, BufferConditions.SCHEDULE_ACTIVE,
      BufferConsumption.CONSUMED, BufferConsumption.FULFILLED);
  /** Attempts per buffer and reconcile (the first write plus re-read retries). */
  public static final int MAX_ATTEMPTS = 5;

  /** Result of one write. */
  public sealed interface Outcome {
    /** The status is on the server (written, or already equal after a re-read). */
    record Written(CapacityBuffer stored) implements Outcome {}

    /** Nothing to write any more: the buffer is gone or its spec changed meanwhile (a new reconcile follows). */
    record Superseded(String why) implements Outcome {}

    /**
     * The write failed. {@code permanent}: the server rejected the status itself (400 Bad Request, 422 Invalid), so
     * writing it again cannot succeed until the buffer or its inputs change; else the namespace is retried.
     */
    record Failed(String error, boolean permanent) implements Outcome {
      public Failed(String error) {
        this(error, false);
      }
    }
  }

  private final KubernetesClient client;
  private final ControllerMetrics metrics;
  private final Clock clock;

  public StatusWriter(KubernetesClient client, ControllerMetrics metrics, Clock clock) {
    this.client = client;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** Writes {@code computed}'s status; {@code computed} carries the resourceVersion it was computed from. */
  public Outcome write(CapacityBuffer computed) {
    String ns = computed.getMetadata().getNamespace();
    String name = computed.getMetadata().getName();
    CapacityBuffer attempt = computed;
    for (int i = 1; ; i++) {
      try {
        CapacityBuffer stored = client.resources(CapacityBuffer.class).inNamespace(ns).resource(attempt).updateStatus();
        metrics.statusWrite("written");
        return new Outcome.Written(stored);
      } catch (KubernetesClientException e) {
        metrics.apiError("update", e.getCode());
        if (e.getCode() == 404) {
          metrics.statusWrite("gone");
          return new Outcome.Superseded("buffer " + ns + "/" + name + " is gone");
        }
        if (e.getCode() != 409) {
          metrics.statusWrite("error");
          return new Outcome.Failed("status update of " + ns + "/" + name + " failed: " + ApiErrors.message(e), e.getCode() == 400 || e.getCode() == 422);
        }
        metrics.statusWrite("conflict");
        if (i >= MAX_ATTEMPTS) {
          return new Outcome.Failed("status update of " + ns + "/" + name + " kept conflicting: " + ApiErrors.message(e));
        }
      }
      CapacityBuffer fresh;
      try {
        fresh = client.resources(CapacityBuffer.class).inNamespace(ns).withName(name).get();
      } catch (KubernetesClientException e) {
        metrics.apiError("get", e.getCode());
        return new Outcome.Failed("re-reading " + ns + "/" + name + " after a conflict failed: " + ApiErrors.message(e));
      }
      if (fresh == null) {
        return new Outcome.Superseded("buffer " + ns + "/" + name + " is gone");
      }
      if (!Objects.equals(fresh.getMetadata().getGeneration(), computed.getMetadata().getGeneration())
          || !sameControllerAnnotations(fresh, computed)) {
        return new Outcome.Superseded("buffer " + ns + "/" + name + " changed while its status was written");
      }
      CapacityBufferStatus rebased = rebase(fresh.getStatus(), computed.getStatus(), clock.instant());
      if (BufferStatuses.semanticallyEqual(fresh.getStatus(), rebased)) {
        LOG.debug("status of {}/{} is already up to date after a conflict", ns, name);
        return new Outcome.Written(fresh);
      }
      fresh.setStatus(rebased);
      attempt = fresh;
    }
  }

  /** The annotations the reconcile reads (schedule, consumption): a change of any makes the computed status stale. */
  private static boolean sameControllerAnnotations(CapacityBuffer a, CapacityBuffer b) {
    for (String key : BufferReconciler.READ_ANNOTATIONS) {
      if (!Objects.equals(annotation(a, key), annotation(b, key))) {
        return false;
      }
    }
    return true;
  }

  private static String annotation(CapacityBuffer b, String key) {
    return b.getMetadata().getAnnotations() == null ? null : b.getMetadata().getAnnotations().get(key);
  }

  /**
   * The server's status with the controller-owned parts taken from {@code computed}: the four status fields, and
   * the controller's condition types merged by core's {@link StatusConditions#set} (the merge the simulator's status
   * writes use too: in place, appended in the computed order, the server's {@code lastTransitionTime} kept while the
   * status does not flip) or removed when the computed status no longer has them.
   */
  static CapacityBufferStatus rebase(CapacityBufferStatus server, CapacityBufferStatus computed, Instant now) {
    CapacityBufferStatus out = Copies.of(server == null ? new CapacityBufferStatus() : server);
    CapacityBufferStatus mine = computed == null ? new CapacityBufferStatus() : computed;
    out.setPodTemplateRef(Copies.of(mine.getPodTemplateRef()));
    out.setReplicas(mine.getReplicas());
    out.setPodTemplateGeneration(mine.getPodTemplateGeneration());
    out.setProvisioningStrategy(mine.getProvisioningStrategy());
    List<Condition> conditions = new ArrayList<>(out.getConditions() == null ? List.of() : out.getConditions());
    List<Condition> computedConditions = mine.getConditions() == null ? List.of() : mine.getConditions();
    for (String type : CONTROLLER_CONDITIONS) {
      if (StatusConditions.find(computedConditions, type).isEmpty()) {
        StatusConditions.remove(conditions, type);
      }
    }
    for (Condition want : computedConditions) {
      if (CONTROLLER_CONDITIONS.contains(want.getType())) {
        // a computed condition always carries its transition time; the writer's clock is only the merge's fallback
        StatusConditions.set(conditions, want, now);
      }
    }
    out.setConditions(conditions);
    return out;
  }
}
