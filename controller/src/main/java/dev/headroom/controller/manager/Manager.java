package dev.headroom.controller.manager;

import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.http.HttpEndpoints;
import dev.headroom.controller.http.ApiServerAuthorizer;
import dev.headroom.controller.http.MetricsServer;
import dev.headroom.controller.runtime.Leadership;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process host of {@code headroom run}, in the shape of controller-runtime's manager: it owns the client, the one
 * shared {@link InformerCache}, the metrics registry, the health checks, the HTTP endpoints and the leader election.
 * Components (the buffer controller, the autoscaler) take informers from the cache and register {@link Runnable}s:
 * those that need the lease start when it is won and stop when it is lost, the others start once the API server
 * serves the CapacityBuffer CRD. Order of {@link #start()}: HTTP endpoints; wait for the CRD ({@link CrdWait}); start
 * the cache and the runnables without election; campaign. A lease lost (not released) ends the process with exit 1,
 * so a fresh one campaigns with fresh state. {@link #close()} stops the leader runnables (each finishes its work in
 * flight), releases the lease, and stops the cache.
 */
public final class Manager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Manager.class);
  /** 1 while this replica holds the lease. */
  public static final String LEADER_METRIC = "headroom_leader";
  private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(2);

  /** A component's part of the process: started and stopped by the manager. */
  public interface Runnable {
    void start();

    /** Stops; returns when the work in flight has finished (or its own timeout passed). */
    void stop();
  }

  /**
   * @param leaderElect {@code --leader-elect}; without it the leader runnables start at once
   * @param httpPort {@code --http-port} of {@code /healthz} and {@code /readyz} (and of {@code /metrics} when not secure)
   */
  public record Options(boolean leaderElect, Leadership.LeaseId lease, Leadership.Timing timing, int httpPort, MetricsServer.Options metrics) {}

  private final KubernetesClient client;
  private final Options options;
  private final ApiHealth health;
  private final InformerCache cache;
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Leadership leadership;
  private final CrdWait.Backoff crdBackoff;
  private final ScheduledExecutorService scheduler;
  private final List<Runnable> always = new CopyOnWriteArrayList<>();
  private final List<Runnable> leaders = new CopyOnWriteArrayList<>();
  private final List<Check> readiness = new CopyOnWriteArrayList<>();
  private final List<Check> liveness = new CopyOnWriteArrayList<>();
  private final List<java.lang.Runnable> beforeScrape = new CopyOnWriteArrayList<>();
  private final AtomicInteger leaderGauge = new AtomicInteger();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final AtomicInteger exitCode = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean leadersRunning = new AtomicBoolean();
  private volatile CrdWait crdWait;
  private HttpEndpoints http;
  private MetricsServer metricsServer;

  private record Check(String name, Supplier<Optional<String>> check) {}

  /**
   * @param health where API problems are collected; install its observer on {@code client} ({@link ApiHealth#install})
   * @param crdBackoff how often to check again while the CapacityBuffer CRD is not served
   */
  public Manager(KubernetesClient client, Options options, ApiHealth health, CrdWait.Backoff crdBackoff) {
    this.client = client;
    this.options = options;
    this.health = health;
    this.crdBackoff = crdBackoff;
    this.cache = new InformerCache(client, health);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-startup");
      t.setDaemon(true);
      return t;
    });
    Gauge.builder(LEADER_METRIC.replace('_', '.'), leaderGauge::get).description("1 while this replica holds the lease").register(registry);
    this.leadership = new Leadership(client, options.leaderElect(), options.lease(), options.timing(), new Leadership.Callbacks() {
      @Override
      public void onStartLeading() {
        leaderGauge.set(1);
        if (leadersRunning.compareAndSet(false, true)) {
          leaders.forEach(Runnable::start);
        }
      }

      @Override
      public void onStopLeading(boolean released) {
        leaderGauge.set(0);
        stopLeaders();
        if (!released && !closed.get()) {
          LOG.error("lost leadership of {}/{}: stopping so that a fresh process campaigns again", options.lease().namespace(), options.lease().name());
          exitCode.set(1);
          terminated.countDown();
        }
      }
    });
  }

  public KubernetesClient client() {
    return client;
  }

  public InformerCache cache() {
    return cache;
  }

  public ApiHealth health() {
    return health;
  }

  /** The one metrics registry {@code /metrics} serves. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Adds a runnable; with {@code needsLeaderElection} it runs only while this replica holds the lease. */
  public void add(Runnable r, boolean needsLeaderElection) {
    requireNotStarted();
    (needsLeaderElection ? leaders : always).add(r);
  }

  /** Adds a readiness check (empty when fine, else why not), asked in the order added. */
  public void addReadinessCheck(String name, Supplier<Optional<String>> check) {
    readiness.add(new Check(name, check));
  }

  /** Adds a liveness check (empty while alive, else why the process should be restarted). */
  public void addLivenessCheck(String name, Supplier<Optional<String>> check) {
    liveness.add(new Check(name, check));
  }

  /** Runs {@code r} before every scrape (gauges derived from the caches). */
  public void beforeScrape(java.lang.Runnable r) {
    beforeScrape.add(r);
  }

  /** The names of the registered checks (diagnostics). */
  public List<String> checks() {
    return java.util.stream.Stream.concat(readiness.stream(), liveness.stream()).map(Check::name).toList();
  }

  private void requireNotStarted() {
    if (started.get()) {
      throw new IllegalStateException("add runnables before the manager starts");
    }
  }

  /** Renders the registry in Prometheus text format after the scrape hooks ran. */
  public String scrape() {
    beforeScrape.forEach(java.lang.Runnable::run);
    return registry.scrape();
  }

  /** Starts the HTTP endpoints, then waits for the CRD; the cache, the runnables and the election start after it. */
  public void start() throws IOException {
    if (!started.compareAndSet(false, true)) {
      return;
    }
    MetricsServer.Options m = options.metrics();
    http = HttpEndpoints.start(options.httpPort(), this::notLiveReason, this::notReadyReason, m.secure() ? null : this::scrape);
    if (m.secure()) {
      try {
        metricsServer = MetricsServer.start(m, new ApiServerAuthorizer(client, ApiServerAuthorizer.DEFAULT_TTL, System::nanoTime), this::scrape);
      } catch (GeneralSecurityException e) {
        http.close();
        throw new IOException("cannot serve /metrics over HTTPS: " + e.getMessage(), e);
      }
      LOG.info("serving /healthz and /readyz on port {}, /metrics over HTTPS (authenticated, authorized) on port {}", http.port(), metricsServer.port());
    } else {
      LOG.info("serving /healthz, /readyz and /metrics on port {}", http.port());
    }
    crdWait = new CrdWait(CrdWait.discovery(client), crdBackoff, scheduler, this::served);
    crdWait.start();
    scheduler.scheduleWithFixedDelay(health::sweep, SWEEP_INTERVAL.toMillis(), SWEEP_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void served() {
    if (closed.get()) {
      return;
    }
    LOG.info("starting {} informer(s): {}; leader election {}", cache.keys().size(), cache.keys(), options.leaderElect() ? "on" : "off");
    cache.start().whenComplete((v, t) -> {
      if (t != null) {
        LOG.error("informers failed to start: {}", ApiHealth.oneLine(t));
      } else {
        LOG.info("caches synced");
      }
    });
    always.forEach(Runnable::start);
    leadership.start();
  }

  /**
   * Why this replica is not ready, or empty: the CRD is served, no API problem is current, every informer has
   * listed, and every registered check passes. A standby with synced caches is ready.
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
    if (!cache.hasSynced()) {
      return Optional.of("informer caches not synced yet: " + String.join(", ", cache.unsynced()));
    }
    return first(readiness);
  }

  /** Why this process should be restarted, or empty. */
  public Optional<String> notLiveReason() {
    Optional<String> dead = health.deadInformer();
    return dead.isPresent() ? dead : first(liveness);
  }

  private static Optional<String> first(List<Check> checks) {
    for (Check c : checks) {
      Optional<String> r = c.check().get();
      if (r.isPresent()) {
        return r;
      }
    }
    return Optional.empty();
  }

  /** True while this replica holds the lease. */
  public boolean isLeader() {
    return leadership.isLeader();
  }

  /** The start-up wait for the CRD (null before {@link #start()}). */
  public CrdWait crdWait() {
    return crdWait;
  }

  /** The bound port of {@code /healthz} and {@code /readyz} (after {@link #start()}). */
  public int httpPort() {
    return http.port();
  }

  /** Blocks until {@link #close()} or a lost leadership; returns the process exit code. */
  public int awaitTermination() throws InterruptedException {
    terminated.await();
    return exitCode.get();
  }

  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit);
  }

  /** Stops the leader runnables once per leadership term. */
  private void stopLeaders() {
    if (leadersRunning.compareAndSet(true, false)) {
      leaders.forEach(Manager::stopQuietly);
    }
  }

  private static void stopQuietly(Runnable r) {
    try {
      r.stop();
    } catch (RuntimeException e) {
      LOG.warn("stopping {} failed: {}", r, e.toString());
    }
  }

  /** Graceful stop: leader runnables finish their work in flight, the lease is released, the cache stops. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.info("shutting down: finishing the work in flight and releasing the lease");
    health.closing();
    scheduler.shutdownNow();
    stopLeaders();
    leadership.stop();
    always.forEach(Manager::stopQuietly);
    cache.close();
    if (metricsServer != null) {
      metricsServer.close();
    }
    if (http != null) {
      http.close();
    }
    terminated.countDown();
  }
}
