package dev.headroom.controller.cache;

/** Receives failed API calls (for the {@code headroom_api_errors_total} metric). */
@FunctionalInterface
public interface ApiCallObserver {
  ApiCallObserver NONE = (verb, code) -> {};

  /** A call with {@code verb} failed with HTTP {@code code} (0 when there was no response). */
  void apiError(String verb, int code);
}
