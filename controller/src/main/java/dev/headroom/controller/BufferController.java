package dev.headroom.controller;

import dev.headroom.controller.cache.ApiCallObserver;
import dev.headroom.controller.cache.ClusterCaches;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.kube.ApiTemplateStore;
import dev.headroom.controller.kube.BufferEvents;
import dev.headroom.controller.kube.CacheClusterView;
import dev.headroom.controller.kube.DryRunPodResolver;
import dev.headroom.controller.kube.StatusWriter;
import dev.headroom.controller.manager.Manager;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.controller.metrics.ReconciliationTracker;
import dev.headroom.controller.runtime.ControllerLoop;
import dev.headroom.controller.runtime.RateLimiter;
import dev.headroom.controller.runtime.ReconcileResult;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.controller.runtime.WorkQueue;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.DefaultingPodResolver;
import dev.headroom.core.buffer.PodResolver;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buffer controller as a component of the {@link Manager}: its informers come from the manager's cache
 * ({@link ClusterCaches}), its work queue and one worker run while the manager holds the lease (a leader
 * {@link Manager.Runnable}), and it registers its health checks (the worker runs while leading; the custom-kind
 * watches have listed; liveness: the worker's heartbeat within {@link #WORKER_STALL_LIMIT}) and metrics there.
 */
public final class BufferController {
  private static final Logger LOG = LoggerFactory.getLogger(BufferController.class);
  /** A worker whose one reconcile has not returned for this long counts as stuck: {@code /healthz} fails. */
  public static final Duration WORKER_STALL_LIMIT = Duration.ofMinutes(2);
  /** The controller's name in logs (the MDC's {@code controller}) and its worker thread. */
  public static final String NAME = "headroom-buffer-controller";

  private final ReconciliationTracker tracker;
  private final ControllerMetrics metrics;
  private final WorkQueue<String> queue;
  private final ClusterCaches caches;
  private final ControllerLoop<String> loop;
  private final DryRunPodResolver dryRun;
  private final Manager manager;
  private final CompletableFuture<Void> synced;

  /** Builds the controller and registers it with {@code manager} (before the manager starts). */
  public BufferController(Manager manager, ControllerOptions options, Clock clock, Ticker ticker) {
    this.manager = manager;
    this.tracker = new ReconciliationTracker(options.settings());
    KubernetesClient client = manager.client();
    ApiHealth health = manager.health();
    this.metrics = new ControllerMetrics(manager.registry(), clock, tracker);
    this.queue = new WorkQueue<>(ticker, RateLimiter.defaultControllerRateLimiter(ticker), new WorkQueue.Listener() {
      @Override
      public void added() {
        metrics.queueAdded();
      }

      @Override
      public void retried() {
        metrics.queueRetried();
      }
    });
    ApiCallObserver observer = metrics::apiError;
    this.caches = new ClusterCaches(manager.cache(), options.namespaces(), options.resyncPeriod(), queue::add, queue::addLowPriority,
        observer, health);
    metrics.bind(() -> caches.buffers().all(), queue::depth, queue::waitingCount);
    manager.beforeScrape(metrics::refresh);
    PodResolver resolver;
    if (options.dryRunEnabled()) {
      dryRun = new DryRunPodResolver(client, metrics, options.dryRunCacheTtl(), 10_000, ticker::nanoTime);
      resolver = dryRun;
    } else {
      dryRun = null;
      resolver = new DefaultingPodResolver();
    }
    NamespaceReconciler reconciler = new NamespaceReconciler(
        new BufferReconciler(options.settings()),
        new CacheClusterView(caches, observer),
        new ApiTemplateStore(client, caches, metrics),
        resolver, caches,
        new StatusWriter(client, metrics, clock),
        new BufferEvents(client, metrics, options.lease().identity()),
        tracker, clock);
    this.loop = new ControllerLoop<>(NAME, queue, reconciler, new ControllerLoop.Listener<>() {
      @Override
      public void reconciled(String key, ReconcileResult result, long nanos) {
        metrics.reconciled(result.label(), Duration.ofNanos(nanos));
      }
    }, ticker, options.concurrentReconciles());
    // after an outage (dropped watches, refused connections, a missing permission restored) every namespace with
    // buffers is reconciled again, whatever the informers' re-list delivered
    health.onRecovered(() -> {
      if (loop.isRunning()) {
        Set<String> ns = namespacesWithBuffers();
        if (!ns.isEmpty()) {
          LOG.info("API access recovered: reconciling {} namespace(s) with buffers again", ns.size());
          ns.forEach(queue::addLowPriority);
        }
      }
    });
    this.synced = caches.synced();
    manager.add(new Worker(synced), true);
    manager.add(new Manager.Runnable() {
      @Override
      public void start() {}

      @Override
      public void stop() {
        caches.close();
      }
    }, false);
    manager.addReadinessCheck("buffer-controller", this::notReadyReason);
    manager.addLivenessCheck("buffer-controller", this::notLiveReason);
    LOG.debug("buffer controller registered ({})", options.namespaces().isEmpty() ? "all namespaces" : "namespaces " + options.namespaces());
  }

  /** The worker as a leader runnable: it starts once this controller's informers have listed. */
  private final class Worker implements Manager.Runnable {
    private final CompletableFuture<Void> synced;
    private volatile boolean active;

    Worker(CompletableFuture<Void> synced) {
      this.synced = synced;
    }

    @Override
    public void start() {
      active = true;
      synced.thenRunAsync(() -> {
        if (!active) {
          return;
        }
        Set<String> ns = namespacesWithBuffers();
        ns.forEach(queue::addLowPriority);
        LOG.info("leading: reconciling {} namespace(s) with buffers", ns.size());
        loop.start();
      });
    }

    @Override
    public void stop() {
      active = false;
      loop.stop(Duration.ofSeconds(30));
    }

    @Override
    public String toString() {
      return NAME;
    }
  }

  private Set<String> namespacesWithBuffers() {
    Set<String> ns = new HashSet<>();
    caches.buffers().all().forEach(b -> ns.add(b.getMetadata().getNamespace()));
    return ns;
  }

  /** Not ready while the custom-kind watches have not listed, or while leading without a running worker. */
  private Optional<String> notReadyReason() {
    if (!caches.customKinds().hasSynced()) {
      return Optional.of("informer caches not synced yet: custom scalable kinds");
    }
    if (manager.isLeader() && synced.isDone() && !loop.isRunning()) {
      return Optional.of("leading, but the worker is not running");
    }
    return Optional.empty();
  }

  /** Why the worker counts as stuck, or empty. */
  private Optional<String> notLiveReason() {
    Duration since = loop.sinceHeartbeat();
    if (since.compareTo(WORKER_STALL_LIMIT) > 0) {
      String key = loop.inFlight();
      return Optional.of("the worker has made no progress for " + since.toSeconds() + "s" + (key == null ? "" : " (reconciling namespace " + key + ")"));
    }
    return Optional.empty();
  }

  /** True while the worker runs (this replica leads and the caches have synced). */
  public boolean isRunning() {
    return loop.isRunning();
  }

  public ControllerMetrics metrics() {
    return metrics;
  }

  public WorkQueue<String> queue() {
    return queue;
  }

  public ClusterCaches caches() {
    return caches;
  }

  /** True once dry-run pod creation was refused and the defaulting resolver took over. */
  public boolean dryRunFellBack() {
    return dryRun != null && dryRun.fellBack();
  }
}
