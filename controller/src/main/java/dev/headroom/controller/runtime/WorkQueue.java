package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A de-duplicating, delaying, rate-limited work queue with client-go's semantics.
 *
 * <ul>
 *   <li>An item that is already waiting is not queued twice ({@code dirty} set).
 *   <li>An item that is being processed is never handed out again until {@link #done} is called; adds in the
 *       meantime are remembered and re-queue it on {@code done}.
 *   <li>{@link #addAfter} keeps the earliest due time per item; {@link #addRateLimited} asks the rate limiter.
 *   <li>Two priorities, as controller-runtime's priority queue has: {@link #addLowPriority} (periodic resyncs, the
 *       bulk enqueue when leadership is won) queues behind every item added by {@link #add}, and an item waiting at
 *       low priority that is added normally moves up to the normal queue's end, so a real change is never queued
 *       behind a resync pass over every key.
 * </ul>
 *
 * <p>Time comes from an injectable {@link Ticker}; {@link #poll()} lets tests drive the queue without blocking.
 */
public final class WorkQueue<K> {
  private final Ticker ticker;
  private final RateLimiter<K> rateLimiter;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<K> queue = new ArrayDeque<>();
  /** Items queued at low priority (not processing), in order of their adds; taken only when {@link #queue} is empty. */
  private final java.util.LinkedHashSet<K> low = new java.util.LinkedHashSet<>();
  private final Set<K> dirty = new HashSet<>();
  /** The dirty items whose pending add is only a low-priority one (a subset of {@link #dirty}). */
  private final Set<K> dirtyLow = new HashSet<>();
  private final Set<K> processing = new HashSet<>();
  private final Map<K, Long> waitingDue = new HashMap<>();
  private final PriorityQueue<Waiting<K>> waiting = new PriorityQueue<>();
  private final Listener listener;
  private long sequence;
  private boolean shuttingDown;

  /** Observes queue activity (for metrics). */
  public interface Listener {
    Listener NONE = new Listener() {};

    default void added() {}

    default void retried() {}
  }

  private record Waiting<K>(long due, long seq, K item) implements Comparable<Waiting<K>> {
    @Override
    public int compareTo(Waiting<K> o) {
      int c = Long.compare(due, o.due);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  public WorkQueue(Ticker ticker, RateLimiter<K> rateLimiter) {
    this(ticker, rateLimiter, Listener.NONE);
  }

  public WorkQueue(Ticker ticker, RateLimiter<K> rateLimiter, Listener listener) {
    this.ticker = ticker;
    this.rateLimiter = rateLimiter;
    this.listener = listener;
  }

  /** Queues {@code item} now, unless it is already queued. */
  public void add(K item) {
    lock.lock();
    try {
      addLocked(item);
    } finally {
      lock.unlock();
    }
  }

  private void addLocked(K item) {
    if (shuttingDown) {
      return;
    }
    if (!dirty.add(item)) {
      if (dirtyLow.remove(item) && low.remove(item)) {
        queue.addLast(item); // a real change of an item a resync queued: it moves up
        changed.signalAll();
      }
      return;
    }
    listener.added();
    if (!processing.contains(item)) {
      queue.addLast(item);
      changed.signalAll();
    }
  }

  /**
   * Queues {@code item} at low priority, unless it is already queued (at either priority): it is taken only when no
   * item added by {@link #add} is waiting.
   */
  public void addLowPriority(K item) {
    lock.lock();
    try {
      if (shuttingDown || !dirty.add(item)) {
        return;
      }
      dirtyLow.add(item);
      listener.added();
      if (!processing.contains(item)) {
        low.add(item);
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Queues {@code item} once {@code delay} has passed; an earlier pending due time wins. */
  public void addAfter(K item, Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      add(item);
      return;
    }
    lock.lock();
    try {
      if (shuttingDown) {
        return;
      }
      long due = ticker.nanoTime() + delay.toNanos();
      Long existing = waitingDue.get(item);
      if (existing != null && existing <= due) {
        return;
      }
      waitingDue.put(item, due);
      waiting.add(new Waiting<>(due, sequence++, item));
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Queues {@code item} after the delay its rate limiter gives (one more retry). */
  public void addRateLimited(K item) {
    listener.retried();
    addAfter(item, rateLimiter.when(item));
  }

  /** Resets the retry history of {@code item}. */
  public void forget(K item) {
    rateLimiter.forget(item);
  }

  /** Consecutive retries of {@code item}. */
  public int retries(K item) {
    return rateLimiter.retries(item);
  }

  /** Takes the next due item without blocking. */
  public Optional<K> poll() {
    lock.lock();
    try {
      promoteDue();
      return Optional.ofNullable(popLocked());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Blocks until an item is due, the queue shuts down (empty result), or {@code timeout} passes (empty result).
   */
  public Optional<K> take(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (true) {
        promoteDue();
        K item = popLocked();
        if (item != null) {
          return Optional.of(item);
        }
        if (shuttingDown) {
          return Optional.empty();
        }
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return Optional.empty();
        }
        Waiting<K> next = waiting.peek();
        if (next != null) {
          remaining = Math.min(remaining, Math.max(1, next.due - ticker.nanoTime()));
        }
        changed.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
  }

  private K popLocked() {
    K item = queue.pollFirst();
    if (item == null && !low.isEmpty()) {
      java.util.Iterator<K> first = low.iterator();
      item = first.next();
      first.remove();
    }
    if (item != null) {
      processing.add(item);
      dirty.remove(item);
      dirtyLow.remove(item);
    }
    return item;
  }

  private void promoteDue() {
    long now = ticker.nanoTime();
    while (!waiting.isEmpty() && waiting.peek().due - now <= 0) {
      Waiting<K> w = waiting.poll();
      Long due = waitingDue.get(w.item);
      if (due != null && due == w.due) {
        waitingDue.remove(w.item);
        addLocked(w.item);
      }
    }
  }

  /** Marks {@code item} as processed; if it was added meanwhile, it is queued again. */
  public void done(K item) {
    lock.lock();
    try {
      processing.remove(item);
      if (dirty.contains(item)) {
        if (dirtyLow.contains(item)) {
          low.add(item);
        } else {
          queue.addLast(item);
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Items ready to be taken now (at either priority). */
  public int depth() {
    lock.lock();
    try {
      return queue.size() + low.size();
    } finally {
      lock.unlock();
    }
  }

  /** Items waiting for a delay or backoff to expire. */
  public int waitingCount() {
    lock.lock();
    try {
      return waitingDue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Stops accepting items; blocked takers return empty once nothing is queued. */
  public void shutDown() {
    lock.lock();
    try {
      shuttingDown = true;
      queue.clear();
      low.clear();
      dirty.clear();
      dirtyLow.clear();
      waiting.clear();
      waitingDue.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until no item is being processed, at most {@code timeout}; true if none is. */
  public boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    lock.lock();
    try {
      while (!processing.isEmpty()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        changed.awaitNanos(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  public boolean isShuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }
}
