package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * What one reconcile of a key asks the loop to do next: {@link Done} (optionally again after a delay), {@link Retry}
 * (a transient failure: again with backoff) or {@link Failed} (a permanent one: reported once on the object by the
 * reconciler, not retried until the object or one of its inputs changes and an informer adds the key again).
 */
public sealed interface ReconcileResult {
  /** Success: forget the key's backoff; optionally re-add it after a delay (a schedule boundary). */
  record Done(Optional<Duration> requeueAfter) implements ReconcileResult {}

  /** Transient failure: re-add the key with the rate limiter's backoff. */
  record Retry(String reason) implements ReconcileResult {}

  /** Permanent failure: forget the key; only a change of its inputs brings it back. */
  record Failed(String reason) implements ReconcileResult {}

  static ReconcileResult done() {
    return new Done(Optional.empty());
  }

  static ReconcileResult doneRequeueAfter(Duration delay) {
    return new Done(Optional.of(delay));
  }

  static ReconcileResult retry(String reason) {
    return new Retry(reason);
  }

  static ReconcileResult failed(String reason) {
    return new Failed(reason);
  }

  /** The metric label of this result: {@code success}, {@code error} (retried) or {@code failed} (permanent). */
  default String label() {
    return this instanceof Done ? "success" : this instanceof Retry ? "error" : "failed";
  }
}
