package dev.headroom.core.autoscaler;

/** Port: where events go (the API server's event recorder, the simulator's log, nowhere for {@code plan}). */
@FunctionalInterface
public interface EventSink {

  /** Records one event. */
  void emit(EventRecord event);

  /** A sink that drops everything. */
  EventSink NONE = e -> {};
}
