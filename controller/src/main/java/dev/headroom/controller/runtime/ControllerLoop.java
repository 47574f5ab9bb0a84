package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The workers: each takes keys from a {@link WorkQueue}, reconciles them one at a time, and applies the result (forget
 * and optional delayed re-add on success, rate-limited re-add on a transient failure, forget on a permanent one). With
 * more than one worker (controller-runtime's {@code MaxConcurrentReconciles}) keys are reconciled concurrently; the
 * queue never hands a key to a worker while another one holds it, so one key is still reconciled by one worker at a
 * time, in the order of its adds.
 * Every log line written during a reconcile carries the MDC entries {@link #MDC_CONTROLLER}, {@link #MDC_NAMESPACE}
 * (the key up to its first {@code /}) and a fresh {@link #MDC_RECONCILE_ID}. {@link #stop} stops taking work and
 * waits for the in-flight reconciles to finish.
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
  private final int workers;
  private volatile List<Thread> threads;
  private volatile boolean running;
  /** Per worker, {@link Ticker#nanoTime()} of its last turn (before a take, after a reconcile). */
  private final AtomicLongArray heartbeats;
  /** Per worker, the key it is reconciling, or null. */
  private final AtomicReferenceArray<K> inFlight;
  /** The worker index of the calling thread ({@link #processOne} from a test runs as worker 0). */
  private final ThreadLocal<Integer> worker = ThreadLocal.withInitial(() -> 0);
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
    this(name, queue, reconciler, listener, ticker, 1);
  }

  /**
   * As above, with {@code workers} (at least 1) reconciling concurrently; the reconciler must then be safe for
   * concurrent calls on different keys.
   */
  public ControllerLoop(String name, WorkQueue<K> queue, Reconciler<K> reconciler, Listener<K> listener, Ticker ticker, int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, got " + workers);
    }
    this.workers = workers;
    this.heartbeats = new AtomicLongArray(workers);
    this.inFlight = new AtomicReferenceArray<>(workers);
    this.ticker = ticker;
    this.name = name;
    this.queue = queue;
    this.reconciler = reconciler;
    this.listener = listener;
  }

  /** Starts the worker threads ({@code name}, or {@code name-1} ... {@code name-N} with more than one). */
  public synchronized void start() {
    if (threads != null) {
      return;
    }
    running = true;
    List<Thread> started = new ArrayList<>(workers);
    for (int i = 0; i < workers; i++) {
      heartbeats.set(i, ticker.nanoTime());
      int index = i;
      Thread t = new Thread(() -> run(index), workers == 1 ? name : name + "-" + (i + 1));
      t.setDaemon(true);
      started.add(t);
    }
    threads = List.copyOf(started);
    started.forEach(Thread::start);
  }

  private void run(int index) {
    worker.set(index);
    String me = Thread.currentThread().getName();
    LOG.info("worker {} started", me);
    while (running) {
      heartbeats.set(index, ticker.nanoTime());
      Optional<K> next;
      try {
        next = queue.take(Duration.ofSeconds(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      next.ifPresent(this::processOne);
    }
    LOG.info("worker {} stopped", me);
  }

  /** Reconciles one key and applies the result; public so tests can drive the loop synchronously. */
  public void processOne(K key) {
    long start = System.nanoTime();
    int index = worker.get();
    inFlight.set(index, key);
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
        inFlight.set(index, null);
        heartbeats.set(index, ticker.nanoTime());
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

  /** Stops taking work and waits (at most {@code timeout} in all) for the in-flight reconciles to finish. */
  public void stop(Duration timeout) {
    List<Thread> ts;
    synchronized (this) {
      running = false;
      ts = threads;
      threads = null;
    }
    queue.shutDown();
    if (ts == null) {
      return;
    }
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      for (Thread t : ts) {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        if (t.isAlive()) {
          LOG.warn("worker {} did not finish within {}", t.getName(), timeout);
        }
      }
      queue.awaitIdle(1, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public boolean isRunning() {
    return running;
  }

  /**
   * Time since the last turn of the worker that has gone longest without one (zero while not running): a stuck
   * reconcile makes it grow.
   */
  public Duration sinceHeartbeat() {
    if (!running || threads == null) {
      return Duration.ZERO;
    }
    long now = ticker.nanoTime();
    long longest = 0;
    for (int i = 0; i < workers; i++) {
      longest = Math.max(longest, now - heartbeats.get(i));
    }
    return Duration.ofNanos(longest);
  }

  /** The key of the worker that has gone longest without a turn, if it is reconciling one; else any in flight, or null. */
  public K inFlight() {
    long now = ticker.nanoTime();
    K any = null;
    K longest = null;
    long worst = -1;
    for (int i = 0; i < workers; i++) {
      K k = inFlight.get(i);
      if (k != null) {
        any = any == null ? k : any;
        long since = now - heartbeats.get(i);
        if (since > worst) {
          worst = since;
          longest = k;
        }
      }
    }
    return longest != null ? longest : any;
  }

  /** The number of workers. */
  public int workers() {
    return workers;
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(30));
  }
}
