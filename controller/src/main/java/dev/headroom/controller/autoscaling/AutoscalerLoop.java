package dev.headroom.controller.autoscaling;

import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.LoopTrigger;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs core's {@code runOnce(now)} while this replica leads: every {@code --scan-interval} (fixed rate), and between
 * scans when {@link #trigger(Instant)} reports new demand, by core's {@link dev.headroom.core.autoscaler.LoopTrigger}
 * rule (the simulator follows the same rule): the woken iteration runs at the instant the trigger names (when the
 * loop can first scale up for the pod), triggers are coalesced into one iteration, they are held until the next
 * regular scan after an iteration that scaled up or down, and a woken iteration restarts the fixed rate. Each
 * leadership term starts from a fresh {@link Iteration} (new autoscaler state, provider re-read from the cluster), as
 * the upstream autoscaler does after a restart. Tests call {@link #runOnce(Instant)} directly with their own clock.
 */
public final class AutoscalerLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AutoscalerLoop.class);

  /**
   * What one leadership term iterates over: core's autoscaler, the ports it was built with, and how one iteration
   * runs ({@code run}: the autoscaler's {@code runOnce}, or that inside a ProvisioningRequest round).
   */
  public record Iteration(Autoscaler autoscaler, ClusterView view, NodeGroupProvider provider,
      Function<Instant, IterationResult> run) {
    /** An iteration that is the autoscaler's {@code runOnce} alone. */
    public Iteration(Autoscaler autoscaler, ClusterView view, NodeGroupProvider provider) {
      this(autoscaler, view, provider, autoscaler::runOnce);
    }
  }

  private final Supplier<Iteration> factory;
  private final PhaseTimer timer;
  private final AutoscalerMetrics metrics;
  private final Clock clock;
  private final Ticker ticker;
  private final Duration interval;
  private final BooleanSupplier ready;
  private Iteration current;
  private Thread thread;
  /** Guards {@link #schedule} and {@link #running}; notified by {@link #trigger(Instant)} and {@link #stop()}. */
  private final Object wake = new Object();
  /** When iterations are due, in {@link Ticker#nanoTime()}; replaced at each start. */
  private LoopTrigger.Schedule schedule;
  private boolean running;
  private volatile IterationResult last;
  private dev.headroom.core.autoscaler.PendingDemand.NotDemand loggedNotDemand = dev.headroom.core.autoscaler.PendingDemand.NotDemand.NONE;
  private java.util.Map<String, String> loggedBlocked = java.util.Map.of();
  /** {@link Ticker#nanoTime()} when the last scheduled tick ended (or the loop started). */
  private volatile long lastTick;

  /**
   * @param factory builds the ports and core's autoscaler for one leadership term (its ports should be wrapped by
   *     {@code timer}); it runs the provider's first refresh, so bootstrapped nodes exist before the first iteration
   * @param metrics may be null (benchmarks)
   * @param ready false while the informer caches have not synced (iterations are skipped)
   */
  public AutoscalerLoop(Supplier<Iteration> factory, PhaseTimer timer, AutoscalerMetrics metrics, Clock clock, Ticker ticker,
      Duration interval, BooleanSupplier ready) {
    this.factory = factory;
    this.timer = timer;
    this.metrics = metrics;
    this.clock = clock;
    this.ticker = ticker;
    this.interval = interval;
    this.ready = ready;
  }

  /** Runs one iteration at {@code now} and records its metrics. */
  public synchronized IterationResult runOnce(Instant now) {
    if (current == null) {
      current = factory.get();
    }
    timer.reset();
    long start = ticker.nanoTime();
    IterationResult r = current.run().apply(now);
    long main = ticker.nanoTime() - start;
    last = r;
    if (metrics != null) {
      metrics.record(r, main, timer.totals(), current.provider().nodeGroups(), current.view().pods());
    }
    logChanges(r);
    if (!r.scaleUp().isEmpty() || !r.scaleDown().isEmpty()) {
      LOG.info("iteration: {} scale-up {} scale-down {} ({} ms)", r.scaleUpResult(), r.scaleUp(), r.scaleDown(), main / 1_000_000);
    } else {
      LOG.debug("iteration: {} ({} ms)", r.scaleUpResult(), main / 1_000_000);
    }
    return r;
  }

  /**
   * One INFO line when the count of pending pods that are not demand changes, and one per blocked pod group when the
   * message of its {@code PodGroupNotTriggerScaleUp} event (which names the limit) changes; a steady state logs nothing.
   */
  private void logChanges(IterationResult r) {
    if (!r.notDemand().equals(loggedNotDemand)) {
      LOG.info("pending pods that are not demand: {}", r.notDemand().describe());
      loggedNotDemand = r.notDemand();
    }
    java.util.Map<String, String> blocked = new java.util.HashMap<>();
    for (dev.headroom.core.autoscaler.EventRecord e : r.events()) {
      if (dev.headroom.core.autoscaler.Events.POD_GROUP_NOT_TRIGGER_SCALE_UP.equals(e.reason())) {
        String subject = e.subject().toString();
        blocked.put(subject, e.message());
        if (!e.message().equals(loggedBlocked.get(subject))) {
          LOG.info("no scale-up for {}", e.message());
        }
      }
    }
    loggedBlocked = blocked;
  }

  /** The last iteration's result (null before the first). */
  public IterationResult last() {
    return last;
  }

  /** Starts iterating every scan interval (call when leadership is won). */
  public synchronized void start() {
    if (thread != null) {
      return;
    }
    current = null; // built by the first tick, so a failing provider start-up is retried
    lastTick = ticker.nanoTime();
    synchronized (wake) {
      running = true;
      schedule = new LoopTrigger.Schedule(interval.toNanos(), lastTick);
    }
    thread = new Thread(this::iterate, "headroom-autoscaler");
    thread.setDaemon(true);
    thread.start();
    LOG.info("autoscaler loop started (scan interval {})", interval);
  }

  /** Asks for an iteration now rather than at the next scan interval: {@link #trigger(Instant)} at the present. */
  public void trigger() {
    trigger(clock.instant());
  }

  /**
   * Asks for an iteration at {@code at} (at once when it has passed) rather than at the next scan interval; several
   * triggers before it runs make one iteration, at the earliest of their instants. After an iteration that scaled up
   * or down, triggers wait for the next regular scan.
   */
  public void trigger(Instant at) {
    long delay = Math.max(0, Duration.between(clock.instant(), at).toNanos());
    synchronized (wake) {
      if (schedule != null && schedule.trigger(ticker.nanoTime() + delay)) {
        wake.notifyAll();
      }
    }
  }

  /** The loop thread: waits for the next scan interval or a due trigger, whichever comes first, then ticks. */
  private void iterate() {
    while (true) {
      synchronized (wake) {
        try {
          while (running) {
            long wait = schedule.due() - ticker.nanoTime();
            if (wait <= 0) {
              break;
            }
            TimeUnit.NANOSECONDS.timedWait(wake, wait);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (!running) {
          return;
        }
        // fixed rate: the next regular iteration one interval after this one began (at once if it overran)
        schedule.began(ticker.nanoTime());
      }
      IterationResult r = tick();
      synchronized (wake) {
        schedule.finished(r);
      }
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }

  /** One scheduled iteration; its result, or null when it was skipped or failed. */
  private IterationResult tick() {
    org.slf4j.MDC.put(dev.headroom.controller.runtime.ControllerLoop.MDC_CONTROLLER, "autoscaler");
    org.slf4j.MDC.put(dev.headroom.controller.runtime.ControllerLoop.MDC_RECONCILE_ID, java.util.UUID.randomUUID().toString());
    try {
      if (!ready.getAsBoolean()) {
        LOG.debug("caches not synced yet; skipping an autoscaler iteration");
        return null;
      }
      return runOnce(clock.instant());
    } catch (RuntimeException e) {
      String line = e.toString();
      int nl = line.indexOf('\n');
      LOG.warn("autoscaler iteration failed: {}", nl < 0 ? line : line.substring(0, nl));
      LOG.debug("autoscaler iteration failure", e);
      if (metrics != null) {
        metrics.error(e instanceof NodeGroupProvider.ProviderException ? "cloudProviderError" : "internalError");
      }
      return null;
    } finally {
      lastTick = ticker.nanoTime();
      org.slf4j.MDC.remove(dev.headroom.controller.runtime.ControllerLoop.MDC_CONTROLLER);
      org.slf4j.MDC.remove(dev.headroom.controller.runtime.ControllerLoop.MDC_RECONCILE_ID);
    }
  }

  /**
   * Why the loop counts as stuck (liveness), or empty: while it runs, some tick must have ended within
   * {@code limit} (at least three scan intervals).
   */
  public java.util.Optional<String> stalled(Duration limit) {
    if (!isRunning()) {
      return java.util.Optional.empty();
    }
    Duration bound = limit.compareTo(interval.multipliedBy(3)) < 0 ? interval.multipliedBy(3) : limit;
    Duration since = Duration.ofNanos(Math.max(0, ticker.nanoTime() - lastTick));
    return since.compareTo(bound) > 0
        ? java.util.Optional.of("the autoscaler loop has not finished an iteration for " + since.toSeconds() + "s")
        : java.util.Optional.empty();
  }

  /** Stops iterating and waits for a running iteration (call when leadership is lost). */
  public void stop() {
    Thread t;
    synchronized (this) {
      t = thread;
      thread = null;
    }
    if (t == null) {
      return;
    }
    synchronized (wake) {
      running = false;
      wake.notifyAll();
    }
    try {
      t.join(TimeUnit.SECONDS.toMillis(30));
      if (t.isAlive()) {
        t.interrupt();
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      t.interrupt();
    }
    synchronized (this) {
      current = null;
    }
    LOG.info("autoscaler loop stopped");
  }

  public synchronized boolean isRunning() {
    return thread != null;
  }

  @Override
  public void close() {
    stop();
  }
}
