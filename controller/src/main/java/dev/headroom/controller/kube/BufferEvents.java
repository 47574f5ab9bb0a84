package dev.headroom.controller.kube;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Records Kubernetes Events on buffers: a Warning when a buffer turns NotReady. Failures are logged, never fatal. */
public final class BufferEvents {
  private static final Logger LOG = LoggerFactory.getLogger(BufferEvents.class);
  /** Reason of the event recorded when {@code ReadyForProvisioning} turns False. */
  public static final String REASON_NOT_READY = "BufferNotReady";
  /** Reason of the event recorded once when a reconcile fails permanently for a buffer. */
  public static final String REASON_FAILED = "ReconcileFailed";
  /** Event source component. */
  public static final String COMPONENT = "headroom-buffer-controller";

  private final KubernetesClient client;
  private final ControllerMetrics metrics;
  private final String instance;

  public BufferEvents(KubernetesClient client, ControllerMetrics metrics, String instance) {
    this.client = client;
    this.metrics = metrics;
    this.instance = instance;
  }

  /** True when {@code after} is NotReady and {@code before} was not (absent, True or Unknown). */
  public static boolean turnedNotReady(CapacityBuffer before, CapacityBuffer after) {
    return !readyIs(before, BufferConditions.FALSE) && readyIs(after, BufferConditions.FALSE);
  }

  private static boolean readyIs(CapacityBuffer b, String status) {
    if (b == null || b.getStatus() == null) {
      return false;
    }
    return ready(b).map(c -> status.equals(c.getStatus())).orElse(false);
  }

  private static Optional<Condition> ready(CapacityBuffer b) {
    List<Condition> cs = b.getStatus() == null ? null : b.getStatus().getConditions();
    if (cs == null) {
      return Optional.empty();
    }
    return cs.stream().filter(c -> BufferConditions.READY_FOR_PROVISIONING.equals(c.getType())).findFirst();
  }

  /** Records the NotReady event for {@code buffer} (its ReadyForProvisioning message is the event message). */
  public void notReady(CapacityBuffer buffer, Instant now) {
    warning(buffer, REASON_NOT_READY, ready(buffer).map(Condition::getMessage).orElse(BufferConditions.MESSAGE_NOT_READY), now);
  }

  /** Records a Warning event with {@code reason} and {@code message} on {@code buffer}. */
  public void warning(CapacityBuffer buffer, String reason, String message, Instant now) {
    String ts = now.truncatedTo(ChronoUnit.SECONDS).toString();
    Event event = new EventBuilder()
        .withNewMetadata()
          .withName(buffer.getMetadata().getName() + "." + Long.toHexString(now.toEpochMilli() * 1_000_000L + now.getNano() % 1_000_000))
          .withNamespace(buffer.getMetadata().getNamespace())
        .endMetadata()
        .withInvolvedObject(new ObjectReferenceBuilder()
            .withApiVersion(CapacityBuffer.API_VERSION).withKind(CapacityBuffer.KIND)
            .withNamespace(buffer.getMetadata().getNamespace()).withName(buffer.getMetadata().getName())
            .withUid(buffer.getMetadata().getUid()).withResourceVersion(buffer.getMetadata().getResourceVersion()).build())
        .withType("Warning")
        .withReason(reason)
        .withMessage(message)
        .withCount(1)
        .withFirstTimestamp(ts)
        .withLastTimestamp(ts)
        .withNewSource().withComponent(COMPONENT).endSource()
        .withReportingComponent(COMPONENT)
        .withReportingInstance(instance)
        .build();
    try {
      client.v1().events().inNamespace(buffer.getMetadata().getNamespace()).resource(event).create();
      metrics.event(reason);
    } catch (KubernetesClientException e) {
      metrics.apiError("create", e.getCode());
      LOG.warn("recording event on {}/{} failed: {}", buffer.getMetadata().getNamespace(), buffer.getMetadata().getName(), ApiErrors.message(e));
    }
  }
}
