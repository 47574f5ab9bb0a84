package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The worker: takes keys from a {@link WorkQueue}, reconciles them one at a time, and applies the result (forget and
 * optional delayed re-add on success, rate-limited re-add on a transient failure, forget on a permanent one).
 * Every log line written during a reconcile carries the MDC entries {@link #MDC_CONTROLLER}, {@link #MDC_NAMESPACE}
 * (the key up to its first {@code /}) and a fresh {@link #MDC_RECONCILE_ID}. {@link #stop} stops taking work and
 * waits for the in-flight reconcile to finish.
 */
public final class ControllerLoop<K> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerLoop.class);

  /** MDC key: the controller's name. */
  public static final String MDC_CONTROLLER = "controller";
  /** MDC key: the namespace being reconciled. */
  public static final String MDC_NAMESPACE = "namespace";
  /** MDC key: a random id of one reconcile, so its lines can be grouped. */
  public static final String MDC_RECONCILE_ID = "reconcileID";

  private final String name;
  private final WorkQueue<K> queue;
  private final Reconciler<K> reconciler;
  private final Listener<K> listener;
  private final Ticker ticker;
  private volatile Thread thread;
  private volatile boolean running;
  /** {@link Ticker#nanoTime()} of the worker's last turn (before a take, after a reconcile). */
  private volatile long heartbeat;
  private volatile K inFlight;
  /** The last failure logged per key, so a key that keeps failing the same way logs one WARN line, not one per retry. */
  private final java.util.Map<K, String> lastFailure = new java.util.concurrent.ConcurrentHashMap<>();

  /** Observes reconcile outcomes (for metrics and logs). */
  public interface Listener<K> {
    default void reconciled(K key, ReconcileResult result, long nanos) {}
  }

  public ControllerLoop(String name, WorkQueue<K> queue, Reconciler<K> reconciler, Listener<K> listener) {
    this(name, queue, reconciler, listener, Ticker.SYSTEM);
  }

  /** As above, with the ticker the heartbeat is read from; {@code name} is also the MDC value of {@link #MDC_CONTROLLER}. */
  public ControllerLoop(String name, WorkQueue<K> queue, Reconciler<K> reconciler, Listener<K> listener, Ticker ticker) {
    this.ticker = ticker;
    this.name = name;
    this.queue = queue;
    this.reconciler = reconciler;
    this.listener = listener;
  }

  /** Starts the worker thread. */
  public synchronized void start() {
    if (thread != null) {
      return;
    }
    running = true;
    heartbeat = ticker.nanoTime();
    thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    LOG.info("worker {} started", name);
    while (running) {
      heartbeat = ticker.nanoTime();
      Optional<K> next;
      try {
        next = queue.take(Duration.ofSeconds(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      next.ifPresent(this::processOne);
    }
    LOG.info("worker {} stopped", name);
  }

  /** Reconciles one key and applies the result; public so tests can drive the loop synchronously. */
  public void processOne(K key) {
    long start = System.nanoTime();
    inFlight = key;
    String k = String.valueOf(key);
    int slash = k.indexOf('/');
    MDC.put(MDC_CONTROLLER, name);
    MDC.put(MDC_NAMESPACE, slash < 0 ? k : k.substring(0, slash));
    MDC.put(MDC_RECONCILE_ID, UUID.randomUUID().toString());
    try {
      ReconcileResult result;
      try {
        result = reconciler.reconcile(key);
      } catch (Exception e) {
        String line = e.toString();
        int nl = line.indexOf('\n');
        line = nl < 0 ? line : line.substring(0, nl);
        if (!line.equals(lastFailure.put(key, line))) {
          LOG.warn("reconcile of {} failed: {} (retrying with backoff)", key, line);
        }
        LOG.debug("reconcile failure of {}", key, e);
        result = ReconcileResult.retry(line);
      } finally {
        inFlight = null;
        heartbeat = ticker.nanoTime();
      }
      if (result instanceof ReconcileResult.Done) {
        lastFailure.remove(key);
      } else if (result instanceof ReconcileResult.Failed f && !f.reason().equals(lastFailure.put(key, f.reason()))) {
        LOG.warn("reconcile of {} failed permanently: {} (not retried until it or its inputs change)", key, f.reason());
      }
      try {
        if (result instanceof ReconcileResult.Done d) {
          queue.forget(key);
          d.requeueAfter().ifPresent(delay -> queue.addAfter(key, delay));
        } else if (result instanceof ReconcileResult.Failed) {
          queue.forget(key);
        } else {
          queue.addRateLimited(key);
        }
        listener.reconciled(key, result, System.nanoTime() - start);
      } finally {
        queue.done(key);
      }
    } finally {
      MDC.remove(MDC_CONTROLLER);
      MDC.remove(MDC_NAMESPACE);
      MDC.remove(MDC_RECONCILE_ID);
    }
  }

  /** Stops taking work and waits (at most {@code timeout}) for the in-flight reconcile to finish. */
  public void stop(Duration timeout) {
    Thread t;
    synchronized (this) {
      running = false;
      t = thread;
      thread = null;
    }
    queue.shutDown();
    if (t == null) {
      return;
    }
    try {
      t.join(timeout.toMillis());
      if (t.isAlive()) {
        LOG.warn("worker {} did not finish within {}", name, timeout);
      }
      queue.awaitIdle(1, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public boolean isRunning() {
    return running;
  }

  /** Time since the worker's last turn (zero while it is not running): a stuck reconcile makes it grow. */
  public Duration sinceHeartbeat() {
    return running && thread != null ? Duration.ofNanos(Math.max(0, ticker.nanoTime() - heartbeat)) : Duration.ZERO;
  }

  /** The key being reconciled right now, or null. */
  public K inFlight() {
    return inFlight;
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(30));
  }
}
