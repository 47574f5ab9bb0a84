package dev.headroom.core.autoscaler.memory;

import dev.headroom.core.autoscaler.EventRecord;
import dev.headroom.core.autoscaler.EventSink;
import java.util.ArrayList;
import java.util.List;

/** An {@link EventSink} that keeps every event in order. */
public final class RecordingEventSink implements EventSink {

  private final List<EventRecord> events = new ArrayList<>();

  @Override
  public void emit(EventRecord event) {
    events.add(event);
  }

  /** The events so far. */
  public List<EventRecord> events() {
    return List.copyOf(events);
  }
}
