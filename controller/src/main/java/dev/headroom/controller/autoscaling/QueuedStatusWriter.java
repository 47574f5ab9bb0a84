package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the autoscaler's condition writes off the loop: {@link #writeConditions} queues the write and returns, and one
 * thread hands the queued writes to the delegate in the order they were first queued. A buffer queued again before
 * its write started keeps its place and only its newest conditions are written (core computes them from the whole
 * status each loop, so the newest supersede the older). Without it a loop that changed the conditions of a few
 * hundred buffers (every loop of {@code headroom run}'s start at 10,000 buffers) waited a request per buffer.
 *
 * <p>{@link #dropPending} (leadership ends) forgets what was not started and waits for the write in flight, so no
 * write of a former term lands later. A write error is the delegate's to log, as before; the next loop writes again.
 */
final class QueuedStatusWriter implements BufferStatusWriter, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueuedStatusWriter.class);

  private record Write(CapacityBuffer buffer, List<Condition> conditions) {}

  private final BufferStatusWriter delegate;
  private final Map<String, Write> pending = new LinkedHashMap<>();
  private final Thread thread;
  private boolean inFlight;
  private boolean closed;
  private long written;

  QueuedStatusWriter(BufferStatusWriter delegate, String threadName) {
    this.delegate = delegate;
    this.thread = new Thread(this::run, threadName);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public synchronized void writeConditions(CapacityBuffer buffer, List<Condition> conditions) {
    if (closed) {
      return;
    }
    String key = buffer.getMetadata().getNamespace() + "/" + buffer.getMetadata().getName();
    pending.put(key, new Write(buffer, List.copyOf(conditions))); // a key already queued keeps its place
    notifyAll();
  }

  private void run() {
    while (true) {
      Write w;
      synchronized (this) {
        while (pending.isEmpty() && !closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        Iterator<Write> first = pending.values().iterator();
        w = first.next();
        first.remove();
        inFlight = true;
      }
      try {
        delegate.writeConditions(w.buffer(), w.conditions());
      } catch (RuntimeException e) {
        LOG.warn("writing autoscaler conditions of buffer {}/{} failed: {}", w.buffer().getMetadata().getNamespace(),
            w.buffer().getMetadata().getName(), e.toString());
      } finally {
        synchronized (this) {
          inFlight = false;
          written++;
          notifyAll();
        }
      }
    }
  }

  /** Writes queued and not started. */
  synchronized int pending() {
    return pending.size();
  }

  /** Writes handed to the delegate so far. */
  synchronized long written() {
    return written;
  }

  /** Forgets the writes not started and waits (at most {@code timeout}) for the one in flight; true if none is. */
  synchronized boolean dropPending(Duration timeout) throws InterruptedException {
    int dropped = pending.size();
    pending.clear();
    if (dropped > 0) {
      LOG.info("dropped {} queued autoscaler condition write(s)", dropped);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inFlight) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      pending.clear();
      notifyAll();
    }
  }
}
