package dev.headroom.controller.runtime;

/** Processes one work-queue key. Exceptions count as a {@link ReconcileResult.Retry}. */
@FunctionalInterface
public interface Reconciler<K> {
  ReconcileResult reconcile(K key) throws Exception;
}
