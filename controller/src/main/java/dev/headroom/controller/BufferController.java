package dev.headroom.controller;

import dev.headroom.controller.cache.ApiCallObserver;
import dev.headroom.controller.cache.ClusterCaches;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.http.HttpEndpoints;
import dev.headroom.controller.kube.ApiTemplateStore;
import dev.headroom.controller.kube.BufferEvents;
import dev.headroom.controller.kube.CacheClusterView;
import dev.headroom.controller.kube.DryRunPodResolver;
import dev.headroom.controller.kube.StatusWriter;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.controller.metrics.ReconciliationTracker;
import dev.headroom.controller.runtime.ControllerLoop;
import dev.headroom.controller.runtime.Leadership;
import dev.headroom.controller.runtime.RateLimiter;
import dev.headroom.controller.runtime.ReconcileResult;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.controller.runtime.WorkQueue;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.DefaultingPodResolver;
import dev.headroom.core.buffer.PodResolver;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buffer controller process: caches, work queue, one worker, leader election, HTTP endpoints. It first waits
 * (with backoff, saying why in one line) until the API server serves the CapacityBuffer CRD, then starts the caches
 * on every replica (warm before leadership); the worker runs only while this replica leads and the caches have
 * synced. Readiness: CRD served, no current API problem ({@link ApiHealth}: missing permission, unreachable server,
 * an informer that cannot list or watch), caches synced, and a leader's worker running. Liveness: no informer
 * stopped for good and the worker's heartbeat within {@link #WORKER_STALL_LIMIT}. {@link #close()} stops taking
 * work, finishes the in-flight reconcile, releases the lease, and stops the caches.
 */
public final class BufferController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BufferController.class);
  /** A worker whose one reconcile has not returned for this long counts as stuck: {@code /healthz} fails. */
  public static final Duration WORKER_STALL_LIMIT = Duration.ofMinutes(2);
  private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final ControllerOptions options;
  private final ReconciliationTracker tracker = new ReconciliationTracker();
  private final WorkQueue<String> queue;
  private final ControllerMetrics metrics;
  private final ClusterCaches caches;
  private final ControllerLoop<String> loop;
  private final Leadership leadership;
  private final DryRunPodResolver dryRun;
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final AtomicInteger exitCode = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private HttpEndpoints http;
  private volatile CompletableFuture<Void> synced = new CompletableFuture<>();
  private final List<Leadership.Callbacks> leadershipListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<Runnable> servedListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<Supplier<Optional<String>>> readinessChecks = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<Supplier<Optional<String>>> livenessChecks = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ApiHealth health;
  private final CrdWait.Backoff crdBackoff;
  private final ScheduledExecutorService scheduler;
  private volatile CrdWait crdWait;

  public BufferController(KubernetesClient client, ControllerOptions options, Clock clock, Ticker ticker) {
    this(client, options, clock, ticker, new ApiHealth(null), CrdWait.Backoff.DEFAULT);
  }

  /**
   * @param health where API problems are collected; install its observer on {@code client} (see
   *     {@link ApiHealth#install}) so that a 403 on any request is named, not only those of informers
   * @param crdBackoff how often to check again while the CapacityBuffer CRD is not served
   */
  public BufferController(KubernetesClient client, ControllerOptions options, Clock clock, Ticker ticker, ApiHealth health,
      CrdWait.Backoff crdBackoff) {
    this.client = client;
    this.options = options;
    this.health = health;
    this.crdBackoff = crdBackoff;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-startup");
      t.setDaemon(true);
      return t;
    });
    AtomicReferenceHolder<ControllerMetrics> metricsRef = new AtomicReferenceHolder<>();
    this.queue = new WorkQueue<>(ticker, RateLimiter.defaultControllerRateLimiter(ticker), new WorkQueue.Listener() {
      @Override
      public void added() {
        metricsRef.ifPresent(ControllerMetrics::queueAdded);
      }

      @Override
      public void retried() {
        metricsRef.ifPresent(ControllerMetrics::queueRetried);
      }
    });
    ApiCallObserver observer = (verb, code) -> metricsRef.ifPresent(m -> m.apiError(verb, code));
    this.caches = new ClusterCaches(client, options.namespaces(), options.resyncPeriod(), queue::add, observer, health);
    this.metrics = new ControllerMetrics(clock, () -> caches.buffers().all(), tracker, queue::depth, queue::waitingCount);
    metricsRef.set(metrics);
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
        new StatusWriter(client, metrics),
        new BufferEvents(client, metrics, options.lease().identity()),
        tracker, clock);
    this.loop = new ControllerLoop<>("headroom-buffer-controller", queue, reconciler, new ControllerLoop.Listener<>() {
      @Override
      public void reconciled(String key, ReconcileResult result, long nanos) {
        metrics.reconciled(result instanceof ReconcileResult.Done, Duration.ofNanos(nanos));
      }
    }, ticker);
    // after an outage (dropped watches, refused connections, a missing permission restored) every namespace with
    // buffers is reconciled again, whatever the informers' re-list delivered
    health.onRecovered(this::enqueueAll);
    this.leadership = new Leadership(client, options.leaderElect(), options.lease(), options.timing(), new Leadership.Callbacks() {
      @Override
      public void onStartLeading() {
        metrics.leader(true);
        startWorkerWhenSynced();
        leadershipListeners.forEach(Leadership.Callbacks::onStartLeading);
      }

      @Override
      public void onStopLeading(boolean released) {
        metrics.leader(false);
        leadershipListeners.forEach(l -> l.onStopLeading(released));
        loop.stop(Duration.ofSeconds(30));
        if (!released && !closed.get()) {
          LOG.error("lost leadership of {}/{}: stopping so that a fresh process campaigns again", options.lease().namespace(), options.lease().name());
          exitCode.set(1);
          terminated.countDown();
        }
      }
    });
  }

  /** Tiny holder so callbacks created before the metrics exist can reach them. */
  private static final class AtomicReferenceHolder<T> {
    private volatile T value;

    void set(T v) {
      value = v;
    }

    void ifPresent(java.util.function.Consumer<T> action) {
      T v = value;
      if (v != null) {
        action.accept(v);
      }
    }
  }

  /**
   * Runs {@code listener} on the same leadership transitions as the buffer controller (the autoscaler loop uses it);
   * add before {@link #start()}.
   */
  public void addLeadershipListener(Leadership.Callbacks listener) {
    leadershipListeners.add(listener);
  }

  /**
   * Runs {@code r} once the API server serves the CapacityBuffer CRD (the autoscaler starts its informers there);
   * add before {@link #start()}.
   */
  public void whenServed(Runnable r) {
    servedListeners.add(r);
  }

  /** Adds a readiness condition (empty when fine, else why not); add before {@link #start()}. */
  public void addReadinessCheck(Supplier<Optional<String>> check) {
    readinessChecks.add(check);
  }

  /** Adds a liveness condition (empty when fine, else why not); add before {@link #start()}. */
  public void addLivenessCheck(Supplier<Optional<String>> check) {
    livenessChecks.add(check);
  }

  /** Starts the HTTP endpoints, then waits for the CRD and starts the caches and the election. */
  public void start() throws IOException {
    http = HttpEndpoints.start(options.httpPort(), this::notLiveReason, this::notReadyReason, metrics::scrape);
    LOG.info("serving /healthz, /readyz and /metrics on port {}", http.port());
    crdWait = new CrdWait(CrdWait.discovery(client), crdBackoff, scheduler, this::served);
    crdWait.start();
    scheduler.scheduleWithFixedDelay(health::sweep, SWEEP_INTERVAL.toMillis(), SWEEP_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void served() {
    if (closed.get()) {
      return;
    }
    if (!options.controllerEnabled()) {
      LOG.info("the buffer controller is disabled (--capacity-buffer-controller-enabled=false)");
    } else {
      LOG.info("starting informers ({}), leader election {}", options.namespaces().isEmpty() ? "all namespaces" : "namespaces " + options.namespaces(),
          options.leaderElect() ? "on" : "off");
      synced = caches.start();
      synced.whenComplete((v, t) -> {
        if (t != null) {
          LOG.error("informers failed to start: {}", ApiHealth.oneLine(t));
        } else {
          LOG.info("caches synced");
        }
      });
    }
    for (Runnable r : servedListeners) {
      r.run();
    }
    leadership.start();
  }

  private void enqueueAll() {
    if (closed.get() || !options.controllerEnabled()) {
      return;
    }
    Set<String> namespaces = new HashSet<>();
    caches.buffers().all().forEach(b -> namespaces.add(b.getMetadata().getNamespace()));
    if (!namespaces.isEmpty()) {
      LOG.info("API access recovered: reconciling {} namespace(s) with buffers again", namespaces.size());
      namespaces.forEach(queue::add);
    }
  }

  private void startWorkerWhenSynced() {
    synced.thenRunAsync(() -> {
      if (closed.get() || !leadership.isLeader()) {
        return;
      }
      Set<String> namespaces = new HashSet<>();
      caches.buffers().all().forEach(b -> namespaces.add(b.getMetadata().getNamespace()));
      namespaces.forEach(queue::add);
      LOG.info("leading: reconciling {} namespace(s) with buffers", namespaces.size());
      loop.start();
    });
  }

  /** True when {@link #notReadyReason()} is empty. */
  public boolean isReady() {
    return notReadyReason().isEmpty();
  }

  /**
   * Why this replica is not ready, or empty: the CRD is served, no API problem is current, every informer has listed,
   * and, if it leads, its worker runs. A standby with synced caches is ready.
   */
  public Optional<String> notReadyReason() {
    if (closed.get()) {
      return Optional.of("shutting down");
    }
    CrdWait w = crdWait;
    if (w == null) {
      return Optional.of("starting");
    }
    Optional<String> waiting = w.waiting();
    if (waiting.isPresent()) {
      return waiting;
    }
    Optional<String> problem = health.problem();
    if (problem.isPresent()) {
      return problem;
    }
    if (options.controllerEnabled() && !caches.hasSynced()) {
      return Optional.of("informer caches not synced yet: " + String.join(", ", caches.unsynced()));
    }
    for (Supplier<Optional<String>> c : readinessChecks) {
      Optional<String> r = c.get();
      if (r.isPresent()) {
        return r;
      }
    }
    if (options.controllerEnabled() && leadership.isLeader() && synced.isDone() && !loop.isRunning() && !closed.get()) {
      return Optional.of("leading, but the worker is not running");
    }
    return Optional.empty();
  }

  /** Why this process should be restarted, or empty while it is alive and its worker makes progress. */
  public Optional<String> notLiveReason() {
    Optional<String> dead = health.deadInformer();
    if (dead.isPresent()) {
      return dead;
    }
    Duration since = loop.sinceHeartbeat();
    if (since.compareTo(WORKER_STALL_LIMIT) > 0) {
      String key = loop.inFlight();
      return Optional.of("the worker has made no progress for " + since.toSeconds() + "s" + (key == null ? "" : " (reconciling namespace " + key + ")"));
    }
    for (Supplier<Optional<String>> c : livenessChecks) {
      Optional<String> r = c.get();
      if (r.isPresent()) {
        return r;
      }
    }
    return Optional.empty();
  }

  /** Where API problems are collected. */
  public ApiHealth apiHealth() {
    return health;
  }

  /** The start-up wait for the CRD (null before {@link #start()}). */
  public CrdWait crdWait() {
    return crdWait;
  }

  public boolean isLeader() {
    return leadership.isLeader() && loop.isRunning();
  }

  /** Blocks until {@link #close()} or a lost leadership; returns the process exit code. */
  public int awaitTermination() throws InterruptedException {
    terminated.await();
    return exitCode.get();
  }

  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit);
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

  public ReconciliationTracker tracker() {
    return tracker;
  }

  /** True once dry-run pod creation was refused and the defaulting resolver took over. */
  public boolean dryRunFellBack() {
    return dryRun != null && dryRun.fellBack();
  }

  /** The bound HTTP port (after {@link #start()}). */
  public int httpPort() {
    return http.port();
  }

  public List<String> namespaces() {
    return options.namespaces();
  }

  /** Graceful stop: no new work, the in-flight reconcile finishes, the lease is released, caches stop. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.info("shutting down: finishing the in-flight reconcile and releasing the lease");
    health.closing();
    scheduler.shutdownNow();
    loop.stop(Duration.ofSeconds(30));
    leadership.stop();
    caches.close();
    if (http != null) {
      http.close();
    }
    terminated.countDown();
  }
}
