package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * [H-EXT] Buffers that the pods of a workload consume (docs/buffer-consumption.md): the overlay that runs after
 * translation and before the schedule overlay and quota allocation, and turns a buffer's chunk count into the
 * chunks still to keep as virtual pods.
 *
 * <p>A buffer with a {@code headroom.dev/consumer-selector} annotation is consumed by the pods of its namespace that
 * match it and are alive ({@link #consumes}): each such pod holds one chunk. The refill strategy says what happens
 * to a chunk whose pod goes away:
 *
 * <ul>
 *   <li>{@code recreate} (default), a <em>dedicated</em> buffer: the chunk comes back. The buffer keeps
 *       {@code chunks - min(chunks, consuming pods)} virtual pods, so the workload has room for {@code chunks} pods
 *       in all and grows past it by ordinary scale-up.
 *   <li>{@code none}, a <em>one-shot</em> buffer: the count is a high-water mark; the buffer keeps only the
 *       chunks never consumed, latches {@code Fulfilled=True} once every chunk was consumed, and latches
 *       {@code Fulfilled=False} (reason {@code FillDeadlineExceeded}) when {@code headroom.dev/fill-deadline-seconds}
 *       after its creation pass unfilled. A latched buffer keeps nothing.
 * </ul>
 *
 * <p>The count is written in the {@code Consumed} condition's message ({@link #MESSAGE_CONSUMED}), the one place of
 * the upstream status schema Headroom may write it; a one-shot buffer reads its high-water mark back from there.
 */
public final class BufferConsumption {

  private BufferConsumption() {}

  /** The label selector (kubectl syntax) of the pods that consume the buffer. */
  public static final String ANNOTATION_CONSUMER_SELECTOR = "headroom.dev/consumer-selector";
  /** {@code recreate} (default) or {@code none}. */
  public static final String ANNOTATION_REFILL_STRATEGY = "headroom.dev/refill-strategy";
  /** Seconds after creation that an unfilled one-shot buffer gives up; only with {@code refill-strategy: none}. */
  public static final String ANNOTATION_FILL_DEADLINE_SECONDS = "headroom.dev/fill-deadline-seconds";
  /** The annotations this overlay reads: a change of any of them re-reconciles the buffer. */
  public static final List<String> ANNOTATIONS = List.of(ANNOTATION_CONSUMER_SELECTOR, ANNOTATION_REFILL_STRATEGY, ANNOTATION_FILL_DEADLINE_SECONDS);

  public static final String REFILL_RECREATE = "recreate";
  public static final String REFILL_NONE = "none";

  /** Condition: how many chunks consuming pods hold; True when at least one. */
  public static final String CONSUMED = "Consumed";
  public static final String REASON_CONSUMED_BY_PODS = "ConsumedByPods";
  /** Condition of a one-shot buffer: True once filled (terminal); False while filling or after its deadline (terminal). */
  public static final String FULFILLED = "Fulfilled";
  public static final String REASON_FILLING = "Filling";
  public static final String REASON_FILLED = "Filled";
  public static final String REASON_FILL_DEADLINE_EXCEEDED = "FillDeadlineExceeded";

  /** The {@code Consumed} message: {@code "<n> of <chunks> chunks consumed by pods matching <selector>"}. */
  public static final String MESSAGE_CONSUMED = "%d of %d chunks consumed by pods matching %s";
  private static final Pattern CONSUMED_COUNT = Pattern.compile("^(\\d+) of \\d+ chunks consumed");

  /** The error prefix of a malformed annotation; followed by the annotation, its value and what is wrong. */
  public static final String ERR_INVALID = "invalid consumption annotation ";

  /** The parsed annotations of a buffer that pods consume. */
  public record Settings(SelectorExpression selector, boolean oneShot, Duration fillDeadline) {}

  /**
   * The consumption settings of {@code buffer}: empty when it has none of the annotations.
   *
   * @throws IllegalArgumentException with the precise reason when an annotation is malformed
   */
  public static Optional<Settings> settings(CapacityBuffer buffer) {
    Map<String, String> a = buffer.getMetadata() == null ? null : buffer.getMetadata().getAnnotations();
    if (a == null || ANNOTATIONS.stream().noneMatch(a::containsKey)) {
      return Optional.empty();
    }
    String selectorText = a.get(ANNOTATION_CONSUMER_SELECTOR);
    if (selectorText == null) {
      throw new IllegalArgumentException(ANNOTATION_CONSUMER_SELECTOR + " is required with " + ANNOTATIONS.stream().filter(a::containsKey).toList());
    }
    if (selectorText.isBlank()) {
      throw new IllegalArgumentException(ANNOTATION_CONSUMER_SELECTOR + " \"\": must select some pods (an empty selector matches every pod of the namespace)");
    }
    SelectorExpression selector;
    try {
      selector = SelectorExpression.parse(selectorText);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ANNOTATION_CONSUMER_SELECTOR + " \"" + selectorText + "\": " + e.getMessage());
    }
    String refill = a.getOrDefault(ANNOTATION_REFILL_STRATEGY, REFILL_RECREATE);
    if (!refill.equals(REFILL_RECREATE) && !refill.equals(REFILL_NONE)) {
      throw new IllegalArgumentException(ANNOTATION_REFILL_STRATEGY + " \"" + refill + "\": must be " + REFILL_RECREATE + " or " + REFILL_NONE);
    }
    boolean oneShot = refill.equals(REFILL_NONE);
    String deadlineText = a.get(ANNOTATION_FILL_DEADLINE_SECONDS);
    Duration deadline = null;
    if (deadlineText != null) {
      if (!oneShot) {
        throw new IllegalArgumentException(ANNOTATION_FILL_DEADLINE_SECONDS + " \"" + deadlineText + "\": needs " + ANNOTATION_REFILL_STRATEGY + ": " + REFILL_NONE
            + " (a buffer that is refilled has no fill deadline)");
      }
      long seconds;
      try {
        seconds = Long.parseLong(deadlineText.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(ANNOTATION_FILL_DEADLINE_SECONDS + " \"" + deadlineText + "\": not a whole number of seconds");
      }
      if (seconds <= 0) {
        throw new IllegalArgumentException(ANNOTATION_FILL_DEADLINE_SECONDS + " \"" + deadlineText + "\": must be greater than 0");
      }
      deadline = Duration.ofSeconds(seconds);
    }
    return Optional.of(new Settings(selector, oneShot, deadline));
  }

  /**
   * True when {@code pod} holds a chunk of a buffer it matches: it exists, is not being deleted and has not
   * terminated. A pod still pending counts, so that the autoscaler does not add room for a chunk whose pod is about
   * to take the room kept for it.
   */
  public static boolean consumes(Pod pod) {
    if (pod.getMetadata() == null || pod.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  /**
   * Applies the buffer's consumption to its translated status: sets {@code status.replicas} to the chunks still
   * to keep and writes {@code Consumed} (and {@code Fulfilled} for one-shot buffers). A buffer without the
   * annotations loses both conditions; a malformed annotation makes it NotReady with the reason.
   *
   * @return the instant to reconcile again at (a one-shot buffer's fill deadline), if any
   * @throws ClusterApiException when the pods cannot be listed
   */
  public static Optional<Instant> apply(CapacityBuffer buffer, BufferClusterView view, Instant now) throws ClusterApiException {
    CapacityBufferStatus status = BufferStatuses.statusOf(buffer);
    List<Condition> conditions = status.getConditions();
    Optional<Settings> parsed;
    try {
      parsed = settings(buffer);
    } catch (IllegalArgumentException e) {
      Long templateGeneration = status.getPodTemplateGeneration();
      String template = status.getPodTemplateRef() == null ? null : status.getPodTemplateRef().getName();
      BufferStatuses.setNotReady(buffer, template, templateGeneration, null, ERR_INVALID + e.getMessage(), now);
      return Optional.empty();
    }
    if (parsed.isEmpty()) {
      StatusConditions.remove(conditions, CONSUMED);
      StatusConditions.remove(conditions, FULFILLED);
      return Optional.empty();
    }
    Settings s = parsed.get();
    long generation = BufferStatuses.generation(buffer);
    if (s.oneShot() && latched(conditions)) {
      // a one-shot buffer that was filled or gave up keeps nothing, whatever its pods do now
      if (status.getReplicas() != null) {
        status.setReplicas(0);
      }
      return Optional.empty();
    }
    if (!StatusConditions.isStatus(conditions, BufferConditions.READY_FOR_PROVISIONING, BufferConditions.TRUE) || status.getReplicas() == null) {
      return Optional.empty();
    }
    if (!s.oneShot()) {
      StatusConditions.remove(conditions, FULFILLED);
    }
    int chunks = status.getReplicas();
    int alive = 0;
    for (Pod p : view.pods(buffer.getMetadata().getNamespace(), s.selector())) {
      if (consumes(p)) {
        alive++;
      }
    }
    int consumed = Math.min(chunks, s.oneShot() ? Math.max(alive, previousCount(conditions)) : alive);
    status.setReplicas(chunks - consumed);
    StatusConditions.set(conditions, BufferConditions.condition(CONSUMED, consumed > 0 ? BufferConditions.TRUE : BufferConditions.FALSE,
        REASON_CONSUMED_BY_PODS, String.format(MESSAGE_CONSUMED, consumed, chunks, s.selector()), generation), now);
    if (!s.oneShot()) {
      return Optional.empty();
    }
    if (chunks > 0 && consumed >= chunks) {
      status.setReplicas(0);
      StatusConditions.set(conditions, BufferConditions.condition(FULFILLED, BufferConditions.TRUE, REASON_FILLED,
          "all " + chunks + " chunks consumed; the buffer is not refilled", generation), now);
      return Optional.empty();
    }
    if (s.fillDeadline() == null) {
      StatusConditions.set(conditions, BufferConditions.condition(FULFILLED, BufferConditions.FALSE, REASON_FILLING,
          consumed + " of " + chunks + " chunks consumed", generation), now);
      return Optional.empty();
    }
    Instant created = Timestamps.creation(buffer.getMetadata());
    // a buffer without a creation time (one of explain's input files) is taken as created now
    Instant deadline = (created.equals(Instant.MIN) ? now : created).plus(s.fillDeadline());
    if (!now.isBefore(deadline)) {
      status.setReplicas(0);
      StatusConditions.set(conditions, BufferConditions.condition(FULFILLED, BufferConditions.FALSE, REASON_FILL_DEADLINE_EXCEEDED,
          consumed + " of " + chunks + " chunks consumed when the fill deadline of " + s.fillDeadline().toSeconds() + "s passed at "
              + StatusConditions.format(deadline) + "; the buffer keeps no capacity",
          generation), now);
      return Optional.empty();
    }
    StatusConditions.set(conditions, BufferConditions.condition(FULFILLED, BufferConditions.FALSE, REASON_FILLING,
        consumed + " of " + chunks + " chunks consumed; fill deadline " + StatusConditions.format(deadline), generation), now);
    return Optional.of(deadline);
  }

  /** True when a one-shot buffer's {@code Fulfilled} condition is terminal (filled, or past its deadline). */
  public static boolean latched(List<Condition> conditions) {
    Optional<Condition> f = StatusConditions.find(conditions, FULFILLED);
    return f.isPresent() && (REASON_FILLED.equals(f.get().getReason()) || REASON_FILL_DEADLINE_EXCEEDED.equals(f.get().getReason()));
  }

  /** The count the {@code Consumed} condition recorded (0 when absent or unreadable). */
  static int previousCount(List<Condition> conditions) {
    Optional<Condition> c = StatusConditions.find(conditions, CONSUMED);
    if (c.isEmpty() || c.get().getMessage() == null) {
      return 0;
    }
    Matcher m = CONSUMED_COUNT.matcher(c.get().getMessage());
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }
}
