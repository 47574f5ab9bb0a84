package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.autoscaler.EventRecord;
import dev.headroom.core.autoscaler.EventSink;
import dev.headroom.core.autoscaler.ObjectRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's {@link EventSink} writing {@code v1 Event}s. An event equal to one recorded less than the de-duplication
 * window ago (same object, type, reason and message; 5 minutes, as upstream) is dropped. Status events (subject
 * {@link ObjectRef#STATUS}) are recorded in Headroom's namespace on that Namespace object itself (Headroom writes no
 * status ConfigMap); other cluster-scoped subjects (Nodes) go to {@code default}. Writes run on the given executor so a slow API server does not stall the loop.
 */
public final class KubernetesEventSink implements EventSink {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesEventSink.class);

  /** {@code source.component} / {@code reportingComponent} of the events. */
  public static final String COMPONENT = "headroom-autoscaler";
  /** Upstream's duplicate-suppression window. */
  public static final Duration DEFAULT_DEDUP_WINDOW = Duration.ofMinutes(5);
  private static final String CLUSTER_SCOPED_EVENT_NAMESPACE = "default";

  private final KubernetesClient client;
  private final String statusNamespace;
  private final Clock clock;
  private final Duration window;
  private final Executor executor;
  private final String instance;
  private final Map<Key, Instant> recent = new HashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong suppressed = new AtomicLong();

  private record Key(String kind, String namespace, String name, String type, String reason, String message) {}

  /**
   * @param statusNamespace Headroom's namespace (where status events are recorded, on the Namespace itself)
   * @param executor where API writes run ({@code Runnable::run} for synchronous writes)
   * @param instance the reporting instance (pod name)
   */
  public KubernetesEventSink(KubernetesClient client, String statusNamespace, Clock clock, Duration window, Executor executor, String instance) {
    this.client = client;
    this.statusNamespace = statusNamespace;
    this.clock = clock;
    this.window = window;
    this.executor = executor;
    this.instance = instance;
  }

  @Override
  public void emit(EventRecord e) {
    boolean status = e.subject().equals(ObjectRef.STATUS);
    ObjectRef subject = status ? new ObjectRef(ObjectRef.STATUS.kind(), "", statusNamespace, "") : e.subject();
    String namespace = status ? statusNamespace : subject.namespace() == null || subject.namespace().isEmpty() ? CLUSTER_SCOPED_EVENT_NAMESPACE : subject.namespace();
    String objectNamespace = status || subject.namespace() == null || subject.namespace().isEmpty() ? null : subject.namespace();
    Instant now = clock.instant();
    Key key = new Key(subject.kind(), objectNamespace, subject.name(), e.type(), e.reason(), e.message());
    synchronized (recent) {
      Instant last = recent.get(key);
      if (last != null && now.isBefore(last.plus(window))) {
        suppressed.incrementAndGet();
        return;
      }
      recent.put(key, now);
      if (recent.size() > 10_000) {
        prune(now);
      }
    }
    Event event = build(e, subject, namespace, objectNamespace, now);
    executor.execute(() -> {
      try {
        client.v1().events().inNamespace(namespace).resource(event).create();
        written.incrementAndGet();
      } catch (KubernetesClientException ex) {
        LOG.warn("recording event {} on {} {}/{} failed: {}", e.reason(), subject.kind(), objectNamespace, subject.name(), ApiErrors.message(ex));
      }
    });
  }

  private void prune(Instant now) {
    for (Iterator<Instant> it = recent.values().iterator(); it.hasNext(); ) {
      if (!now.isBefore(it.next().plus(window))) {
        it.remove();
      }
    }
  }

  private Event build(EventRecord e, ObjectRef subject, String namespace, String objectNamespace, Instant now) {
    String ts = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    String name = subject.name() + "." + Long.toHexString(now.toEpochMilli() * 1000 + (sequence.incrementAndGet() % 1000));
    return new EventBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewInvolvedObject()
          .withKind(subject.kind()).withNamespace(objectNamespace).withName(subject.name())
          .withUid(subject.uid() == null || subject.uid().isEmpty() ? null : subject.uid())
          .withApiVersion(apiVersion(subject.kind()))
        .endInvolvedObject()
        .withType(e.type()).withReason(e.reason()).withMessage(e.message())
        .withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1)
        .withNewSource().withComponent(COMPONENT).endSource()
        .withReportingComponent(COMPONENT).withReportingInstance(instance)
        .build();
  }

  private static String apiVersion(String kind) {
    return CapacityBuffer.KIND.equals(kind) ? CapacityBuffer.API_VERSION : "v1";
  }

  /** Events handed to the API so far. */
  public long written() {
    return written.get();
  }

  /** Events dropped as duplicates so far. */
  public long suppressed() {
    return suppressed.get();
  }
}
