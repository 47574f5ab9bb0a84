package dev.headroom.controller.metrics;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.buffer.BufferFilters;
import dev.headroom.core.buffer.BufferSettings;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Feeds the upstream-compatible gauge {@code cluster_autoscaler_capacity_buffer_oldest_reconciliation_timestamp_seconds}
 * (spec §6.5): remembers when each buffer (by UID) was last reconciled and, at scrape time, reports the oldest
 * reconciliation of known buffers ({@code new_buffer="false"}) and the oldest creation of never-reconciled new
 * buffers ({@code new_buffer="true"}).
 */
public final class ReconciliationTracker {
  private final Map<String, Instant> lastReconciled = new ConcurrentHashMap<>();
  private final BufferSettings settings;

  /** A tracker of the buffers the controller processes with default settings. */
  public ReconciliationTracker() {
    this(BufferSettings.defaults());
  }

  /** A tracker of the buffers the controller processes with {@code settings} (its strategy filter). */
  public ReconciliationTracker(BufferSettings settings) {
    this.settings = settings;
  }

  /** The two series of the gauge; each is {@code now} when it has no contribution. */
  public record Oldest(Instant newBuffers, Instant reconciledBuffers) {}

  /** Records that the buffer with {@code uid} was reconciled at {@code at}. */
  public void markReconciled(String uid, Instant at) {
    if (uid != null) {
      lastReconciled.put(uid, at);
    }
  }

  /** Seeds the cache (tests). */
  public void seed(Map<String, Instant> entries) {
    lastReconciled.putAll(entries);
  }

  /** A copy of the cache. */
  public Map<String, Instant> snapshot() {
    return Map.copyOf(lastReconciled);
  }

  /**
   * Prunes entries of buffers that are gone, then computes both series over the buffers that pass the
   * controller's strategy filter.
   */
  public Oldest compute(Collection<CapacityBuffer> buffers, Instant now) {
    Set<String> present = new HashSet<>();
    for (CapacityBuffer b : buffers) {
      present.add(b.getMetadata().getUid());
    }
    lastReconciled.keySet().removeIf(uid -> !present.contains(uid));
    Instant oldestNew = null;
    Instant oldestReconciled = null;
    for (CapacityBuffer b : buffers) {
      if (!BufferFilters.strategyAllowed(b, settings)) {
        continue;
      }
      Instant cached = lastReconciled.get(b.getMetadata().getUid());
      if (cached != null) {
        oldestReconciled = min(oldestReconciled, cached);
      } else if (b.getStatus() == null || b.getStatus().getConditions() == null || b.getStatus().getConditions().isEmpty()) {
        Instant created = creation(b);
        if (created != null) {
          oldestNew = min(oldestNew, created);
        }
      }
    }
    return new Oldest(oldestNew == null ? now : oldestNew, oldestReconciled == null ? now : oldestReconciled);
  }

  private static Instant min(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  private static Instant creation(CapacityBuffer b) {
    String ts = b.getMetadata().getCreationTimestamp();
    if (ts == null || ts.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(ts);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
