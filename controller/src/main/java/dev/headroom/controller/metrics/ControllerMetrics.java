package dev.headroom.controller.metrics;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Condition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** The controller's metrics, rendered in Prometheus text format by {@link #scrape()}. */
public final class ControllerMetrics {
  /** Upstream gauge name, kept for dashboard compatibility (spec §6.5). */
  public static final String OLDEST_RECONCILIATION = "cluster_autoscaler_capacity_buffer_oldest_reconciliation_timestamp_seconds";
  /** Label of {@link #OLDEST_RECONCILIATION}. */
  public static final String NEW_BUFFER_LABEL = "new_buffer";
  /** Buffers by condition type and status. */
  public static final String BUFFERS = "headroom_buffers";
  /** Reconcile duration histogram (seconds). */
  public static final String RECONCILE_DURATION = "headroom_reconcile_duration_seconds";
  /** Status writes by result. */
  public static final String STATUS_WRITES = "headroom_status_writes_total";
  /** Managed template writes by verb. */
  public static final String TEMPLATE_WRITES = "headroom_template_writes_total";
  /** API errors by verb and HTTP code. */
  public static final String API_ERRORS = "headroom_api_errors_total";
  /** Events recorded by reason. */
  public static final String EVENTS = "headroom_events_total";
  /** Work-queue depth (keys ready to be processed). */
  public static final String WORKQUEUE_DEPTH = "headroom_workqueue_depth";
  /** Keys waiting for a delay or a backoff. */
  public static final String WORKQUEUE_WAITING = "headroom_workqueue_waiting";
  /** Rate-limited re-adds. */
  public static final String WORKQUEUE_RETRIES = "headroom_workqueue_retries_total";
  /** Keys added. */
  public static final String WORKQUEUE_ADDS = "headroom_workqueue_adds_total";
  /** 1 while this replica leads (registered by the manager). */
  public static final String LEADER = dev.headroom.controller.manager.Manager.LEADER_METRIC;
  /** 1 once the server refused dry-run pod creation and the defaulting resolver took over. */
  public static final String DRY_RUN_FALLBACK = "headroom_pod_dry_run_fallback";

  private final PrometheusMeterRegistry registry;
  private final Clock clock;
  private volatile Supplier<Collection<CapacityBuffer>> buffers = List::of;
  private final ReconciliationTracker tracker;
  private final MultiGauge byCondition;
  private final AtomicReference<ReconciliationTracker.Oldest> oldest;
  private final AtomicInteger dryRunFallback = new AtomicInteger();
  private final Counter retries;
  private final Counter adds;

  /** As below on a registry of its own, with the gauges bound at once (tests). */
  public ControllerMetrics(Clock clock, Supplier<Collection<CapacityBuffer>> buffers, ReconciliationTracker tracker, IntSupplier queueDepth, IntSupplier queueWaiting) {
    this(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), clock, tracker);
    bind(buffers, queueDepth, queueWaiting);
  }

  /** The counters and timers on {@code registry}; the gauges over the caches and the queue come with {@link #bind}. */
  public ControllerMetrics(PrometheusMeterRegistry registry, Clock clock, ReconciliationTracker tracker) {
    this.registry = registry;
    this.clock = clock;
    this.tracker = tracker;
    this.oldest = new AtomicReference<>(new ReconciliationTracker.Oldest(clock.instant(), clock.instant()));
    Gauge.builder(name(OLDEST_RECONCILIATION), () -> oldest.get().newBuffers().getEpochSecond())
        .description("Oldest creation time of a buffer that was never reconciled (true) and oldest last reconciliation of the others (false)")
        .tag(NEW_BUFFER_LABEL, "true").register(registry);
    Gauge.builder(name(OLDEST_RECONCILIATION), () -> oldest.get().reconciledBuffers().getEpochSecond())
        .description("Oldest creation time of a buffer that was never reconciled (true) and oldest last reconciliation of the others (false)")
        .tag(NEW_BUFFER_LABEL, "false").register(registry);
    byCondition = MultiGauge.builder(name(BUFFERS)).description("CapacityBuffers by condition type and status").register(registry);
    Gauge.builder(name(DRY_RUN_FALLBACK), dryRunFallback::get).description("1 once the server refused dry-run pod creation and the defaulting resolver is used").register(registry);
    retries = Counter.builder(name(WORKQUEUE_RETRIES)).description("Rate-limited re-adds of namespaces").register(registry);
    adds = Counter.builder(name(WORKQUEUE_ADDS)).description("Namespaces added to the work queue").register(registry);
  }

  /**
   * Binds the scrape-time gauges: {@code buffers} all buffers in the caches, {@code queueDepth} the work-queue depth,
   * {@code queueWaiting} the keys waiting for a delay.
   */
  public void bind(Supplier<Collection<CapacityBuffer>> buffers, IntSupplier queueDepth, IntSupplier queueWaiting) {
    this.buffers = buffers;
    Gauge.builder(name(WORKQUEUE_DEPTH), queueDepth::getAsInt).description("Namespaces ready to be reconciled").register(registry);
    Gauge.builder(name(WORKQUEUE_WAITING), queueWaiting::getAsInt).description("Namespaces waiting for a backoff or a schedule boundary").register(registry);
  }

  private static String name(String prometheusName) {
    String n = prometheusName.endsWith("_total") ? prometheusName.substring(0, prometheusName.length() - 6) : prometheusName;
    return n.replace('_', '.');
  }

  /** Records one namespace reconcile by result ({@code success}, {@code error}: retried, {@code failed}: permanent). */
  public void reconciled(String result, Duration took) {
    Timer.builder(name(RECONCILE_DURATION).replace(".seconds", ""))
        .description("Duration of one namespace reconcile")
        .tag("result", result)
        .publishPercentileHistogram()
        .register(registry)
        .record(took.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Counts one status write attempt by result ({@code written}, {@code conflict}, {@code error}). */
  public void statusWrite(String result) {
    Counter.builder(name(STATUS_WRITES)).description("Buffer status writes by result").tag("result", result).register(registry).increment();
  }

  /** Counts one managed template write by verb ({@code create}, {@code update}). */
  public void templateWrite(String verb) {
    Counter.builder(name(TEMPLATE_WRITES)).description("Managed PodTemplate writes by verb").tag("verb", verb).register(registry).increment();
  }

  /** Counts one failed API call. {@code code} 0 means no HTTP status (transport error). */
  public void apiError(String verb, int code) {
    Counter.builder(name(API_ERRORS)).description("Failed API calls by verb and HTTP status code").tags("verb", verb, "code", Integer.toString(code)).register(registry).increment();
  }

  /** Counts one recorded event. */
  public void event(String reason) {
    Counter.builder(name(EVENTS)).description("Events recorded on buffers by reason").tag("reason", reason).register(registry).increment();
  }

  public void queueAdded() {
    adds.increment();
  }

  public void queueRetried() {
    retries.increment();
  }

  public void dryRunFallback() {
    dryRunFallback.set(1);
  }

  /** Recomputes the scrape-time gauges and renders everything in Prometheus text format. */
  public String scrape() {
    refresh();
    return registry.scrape();
  }

  /** Recomputes the gauges derived from the caches (buffers by condition, oldest reconciliation). */
  public void refresh() {
    Collection<CapacityBuffer> all = buffers.get();
    oldest.set(tracker.compute(all, clock.instant()));
    Map<List<String>, Integer> counts = new TreeMap<>((a, b) -> String.join("\u0000", a).compareTo(String.join("\u0000", b)));
    for (CapacityBuffer b : all) {
      if (b.getStatus() == null || b.getStatus().getConditions() == null) {
        continue;
      }
      for (Condition c : b.getStatus().getConditions()) {
        counts.merge(List.of(String.valueOf(c.getType()), String.valueOf(c.getStatus())), 1, Integer::sum);
      }
    }
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    counts.forEach((k, v) -> rows.add(MultiGauge.Row.of(Tags.of("type", k.get(0), "status", k.get(1)), v)));
    byCondition.register(rows, true);
  }

  /** The underlying registry (tests and embedding). */
  public PrometheusMeterRegistry registry() {
    return registry;
  }
}
