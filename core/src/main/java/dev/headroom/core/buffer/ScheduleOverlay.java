package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * [H-EXT] The schedule overlay of spec §8.2: runs after translation and before quota allocation, and sets
 * {@code ScheduleActive} and zero replicas outside the schedule.
 */
public final class ScheduleOverlay {

  private ScheduleOverlay() {}

  /**
   * Applies the buffer's {@code headroom.dev/active-schedule} annotation to its computed status.
   *
   * @return the next schedule transition to re-add the namespace at, if any
   */
  public static Optional<Instant> apply(CapacityBuffer buffer, Instant now) {
    Map<String, String> annotations = buffer.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE);
    CapacityBufferStatus status = BufferStatuses.statusOf(buffer);
    long generation = BufferStatuses.generation(buffer);
    if (value == null) {
      StatusConditions.remove(status.getConditions(), BufferConditions.SCHEDULE_ACTIVE);
      return Optional.empty();
    }
    ActiveSchedule schedule;
    try {
      schedule = ActiveSchedule.parse(value);
    } catch (IllegalArgumentException e) {
      deactivate(status);
      StatusConditions.set(status.getConditions(), BufferConditions.condition(BufferConditions.SCHEDULE_ACTIVE, BufferConditions.FALSE,
          BufferConditions.REASON_INVALID_SCHEDULE, BufferConditions.MESSAGE_INVALID_SCHEDULE + e.getMessage(), generation), now);
      return Optional.empty();
    }
    ActiveSchedule.Evaluation evaluation = schedule.evaluate(now);
    Optional<Instant> next = evaluation.nextTransition();
    if (evaluation.active()) {
      String message = next.map(t -> BufferConditions.MESSAGE_ACTIVE_UNTIL + StatusConditions.format(t)).orElse(BufferConditions.MESSAGE_ACTIVE_NO_END);
      StatusConditions.set(status.getConditions(), BufferConditions.condition(BufferConditions.SCHEDULE_ACTIVE, BufferConditions.TRUE,
          BufferConditions.REASON_WITHIN_SCHEDULE, message, generation), now);
    } else {
      deactivate(status);
      String message = next.map(t -> BufferConditions.MESSAGE_INACTIVE_UNTIL + StatusConditions.format(t)).orElse(BufferConditions.MESSAGE_INACTIVE_NO_START);
      StatusConditions.set(status.getConditions(), BufferConditions.condition(BufferConditions.SCHEDULE_ACTIVE, BufferConditions.FALSE,
          BufferConditions.REASON_OUTSIDE_SCHEDULE, message, generation), now);
    }
    return next;
  }

  /** A Ready buffer with a count keeps Ready but gets 0 replicas; a NotReady buffer stays as it is. */
  private static void deactivate(CapacityBufferStatus status) {
    boolean ready = StatusConditions.isStatus(status.getConditions(), BufferConditions.READY_FOR_PROVISIONING, BufferConditions.TRUE);
    if (ready && status.getReplicas() != null) {
      status.setReplicas(0);
    }
  }
}
