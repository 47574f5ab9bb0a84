package dev.headroom.controller;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.cache.ClusterCaches;
import dev.headroom.controller.kube.BufferEvents;
import dev.headroom.controller.kube.StatusWriter;
import dev.headroom.controller.metrics.ReconciliationTracker;
import dev.headroom.controller.runtime.ReconcileResult;
import dev.headroom.controller.runtime.Reconciler;
import dev.headroom.core.buffer.BufferClusterView;
import dev.headroom.core.buffer.BufferOutcome;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.ManagedTemplateStore;
import dev.headroom.core.buffer.NamespaceResult;
import dev.headroom.core.buffer.PodResolver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One namespace reconcile as the cluster runtime performs it: core decides ({@link BufferReconciler}), this class
 * only writes what core decided — the status of each buffer whose computed status differs from the stored one, an
 * event when a buffer turns NotReady — and turns core's errors and schedule boundary into the work-queue result.
 */
public final class NamespaceReconciler implements Reconciler<String> {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceReconciler.class);
  /** Slack added to a schedule boundary so the re-evaluation lands after it. */
  static final Duration BOUNDARY_SLACK = Duration.ofMillis(200);

  private final BufferReconciler core;
  private final BufferClusterView view;
  private final ManagedTemplateStore templates;
  private final PodResolver resolver;
  private final ClusterCaches caches;
  private final StatusWriter writer;
  private final BufferEvents events;
  private final ReconciliationTracker tracker;
  private final Clock clock;
  /**
   * Per namespace, per buffer UID, the resourceVersion and message of the permanent failure reported on it: kept only
   * while the buffer keeps failing that way (each reconcile of the namespace replaces its map), so a failure is
   * reported once and nothing is kept for buffers that recovered or are gone.
   */
  private final java.util.Map<String, java.util.Map<String, String>> reported = new java.util.concurrent.ConcurrentHashMap<>();
  /** The last failure logged per namespace: a namespace that keeps failing the same way logs one WARN line. */
  private final java.util.Map<String, String> lastFailure = new java.util.concurrent.ConcurrentHashMap<>();

  public NamespaceReconciler(BufferReconciler core, BufferClusterView view, ManagedTemplateStore templates, PodResolver resolver,
      ClusterCaches caches, StatusWriter writer, BufferEvents events, ReconciliationTracker tracker, Clock clock) {
    this.core = core;
    this.view = view;
    this.templates = templates;
    this.resolver = resolver;
    this.caches = caches;
    this.writer = writer;
    this.events = events;
    this.tracker = tracker;
    this.clock = clock;
  }

  @Override
  public ReconcileResult reconcile(String namespace) {
    Instant now = clock.instant();
    NamespaceResult result = core.reconcileNamespace(namespace, view, templates, resolver, now);
    List<String> errors = new ArrayList<>(result.errors());
    List<String> permanent = new ArrayList<>();
    List<String> written = new ArrayList<>();
    java.util.Map<String, String> reportedBefore = reported.getOrDefault(namespace, java.util.Map.of());
    java.util.Map<String, String> reportedNow = new java.util.HashMap<>();
    for (BufferOutcome outcome : result.buffers()) {
      CapacityBuffer computed = outcome.buffer();
      if (outcome.changed()) {
        CapacityBuffer before = caches.buffers().get(namespace, computed.getMetadata().getName());
        if (LOG.isDebugEnabled()) {
          LOG.debug("status of {}/{} changes from {} to {}", namespace, computed.getMetadata().getName(),
              before == null ? null : io.fabric8.kubernetes.client.utils.Serialization.asJson(before.getStatus()),
              io.fabric8.kubernetes.client.utils.Serialization.asJson(computed.getStatus()));
        }
        StatusWriter.Outcome w = writer.write(computed);
        if (w instanceof StatusWriter.Outcome.Failed f) {
          if (f.permanent()) {
            permanent.add(f.error());
            reportOnce(computed, f.error(), now, reportedBefore, reportedNow);
          } else {
            errors.add(f.error());
          }
          continue;
        }
        if (w instanceof StatusWriter.Outcome.Written) {
          written.add(computed.getMetadata().getName());
          if (BufferEvents.turnedNotReady(before, computed)) {
            events.notReady(computed, now);
          }
        }
      }
      tracker.markReconciled(computed.getMetadata().getUid(), now);
    }
    if (reportedNow.isEmpty()) {
      reported.remove(namespace);
    } else {
      reported.put(namespace, reportedNow);
    }
    if (errors.isEmpty() && !permanent.isEmpty()) {
      // nothing a retry can fix: the informers add the namespace again when a buffer or one of its inputs changes
      String joined = String.join("; ", permanent);
      lastFailure.put(namespace, joined);
      return ReconcileResult.failed(joined);
    }
    errors.addAll(permanent);
    if (!errors.isEmpty()) {
      String joined = String.join("; ", errors);
      if (!written.isEmpty() || !joined.equals(lastFailure.put(namespace, joined))) {
        LOG.warn("namespace {}: {} buffer(s), status written for {}, requeued: {}", namespace, result.buffers().size(), written, joined);
      } else {
        LOG.debug("namespace {}: still failing, requeued: {}", namespace, joined);
      }
      return ReconcileResult.retry(joined);
    }
    if (lastFailure.remove(namespace) != null) {
      LOG.info("namespace {}: reconciled again after failures", namespace);
    }
    if (!written.isEmpty()) {
      LOG.info("namespace {}: {} buffer(s), status written for {}", namespace, result.buffers().size(), written);
    } else {
      LOG.debug("namespace {}: {} buffer(s), nothing changed", namespace, result.buffers().size());
    }
    if (result.nextBoundary().isPresent()) {
      Duration wait = Duration.between(now, result.nextBoundary().get()).plus(BOUNDARY_SLACK);
      return ReconcileResult.doneRequeueAfter(wait.isNegative() ? Duration.ZERO : wait);
    }
    return ReconcileResult.done();
  }

  /** A Warning event on {@code buffer} for a permanent failure, once per buffer version and message. */
  private void reportOnce(CapacityBuffer buffer, String error, Instant now, java.util.Map<String, String> before,
      java.util.Map<String, String> after) {
    String uid = buffer.getMetadata().getUid();
    String mark = buffer.getMetadata().getResourceVersion() + "|" + error;
    if (uid != null) {
      after.put(uid, mark);
    }
    if (uid == null || !mark.equals(before.get(uid))) {
      events.warning(buffer, BufferEvents.REASON_FAILED, error + " (not retried until the buffer or its inputs change)", now);
    }
  }
}
