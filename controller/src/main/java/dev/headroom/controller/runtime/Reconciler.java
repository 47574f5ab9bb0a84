package dev.headroom.controller.runtime;

/**
 * Processes one work-queue key. An {@link Exception} counts as a {@link ReconcileResult.Retry}; errors
 * ({@link Error}) are not caught and end the worker, whose stalled heartbeat then fails liveness.
 */
@FunctionalInterface
public interface Reconciler<K> {
  ReconcileResult reconcile(K key) throws Exception;
}
