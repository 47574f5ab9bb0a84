package dev.headroom.controller.runtime;

import java.time.Duration;
import java.util.Optional;

/** What one reconcile of a key asks the loop to do next. */
public sealed interface ReconcileResult {
  /** Success: forget the key's backoff; optionally re-add it after a delay (a schedule boundary). */
  record Done(Optional<Duration> requeueAfter) implements ReconcileResult {}

  /** Failure: re-add the key with the rate limiter's backoff. */
  record Retry(String reason) implements ReconcileResult {}

  static ReconcileResult done() {
    return new Done(Optional.empty());
  }

  static ReconcileResult doneRequeueAfter(Duration delay) {
    return new Done(Optional.of(delay));
  }

  static ReconcileResult retry(String reason) {
    return new Retry(reason);
  }
}
