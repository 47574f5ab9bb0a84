package dev.headroom.core.workload;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The HPA's normalisation of a proposed count (HPA mode): stabilisation over past recommendations, rate
 * limits, and min/max clamps, on the legacy path (no behaviour) or the behaviour path.
 *
 * <p>Every function takes the time as an argument and works on an explicit {@link ScalingHistory}.
 */
public final class HpaNormalizer {

  /** Upstream default downscale stabilisation window (legacy path, and an unset down window). */
  public static final Duration DEFAULT_DOWNSCALE_STABILIZATION = Duration.ofMinutes(5);

  private HpaNormalizer() {}

  /**
   * A limited count and the ScalingLimited reason.
   *
   * @param replicas the count after limits
   * @param reason one of {@link HpaReasons#DESIRED_WITHIN_RANGE}, {@code TooFewReplicas}, {@code TooManyReplicas},
   *     {@code ScaleUpLimit}, {@code ScaleDownLimit}
   */
  public record Limit(int replicas, String reason) {}

  /**
   * A stabilised count and the AbleToScale reason it would report when it differs from the proposal.
   *
   * @param replicas the stabilised count
   * @param reason {@code ScaleUpStabilized} or {@code ScaleDownStabilized}
   */
  public record Stabilized(int replicas, String reason) {}

  /**
   * The result of a whole normalisation.
   *
   * @param replicas the final count
   * @param ableToScale {@code ReadyForNewScale}, {@code ScaleUpStabilized} or {@code ScaleDownStabilized}
   * @param scalingLimited the limit reason
   * @param limited true when the limit changed the stabilised count (ScalingLimited=True)
   */
  public record Normalized(int replicas, String ableToScale, String scalingLimited, boolean limited) {}

  // ---- legacy path --------------------------------------------------------------------------------------------

  /**
   * Legacy stabilisation: the maximum of every recommendation not older than {@code window} and the new
   * one; the new one is stored in a stale slot or appended.
   */
  public static int stabilizeLegacy(ScalingHistory history, Instant now, Duration window, int desired) {
    Instant cutoff = now.minus(window);
    int max = desired;
    int stale = -1;
    List<ScalingHistory.TimedRecommendation> recs = history.mutableRecommendations();
    for (int i = 0; i < recs.size(); i++) {
      ScalingHistory.TimedRecommendation r = recs.get(i);
      if (r.at().isBefore(cutoff)) {
        stale = i;
      } else if (r.replicas() > max) {
        max = r.replicas();
      }
    }
    store(recs, stale, new ScalingHistory.TimedRecommendation(desired, now));
    return max;
  }

  /**
   * Legacy limits: up to {@code min(max, max(2 × current, 4))}, not below {@code min}; no rate limit down.
   */
  public static Limit convertWithRules(int current, int desired, int min, int max) {
    int upLimit = (int) Math.max(2.0 * current, 4.0);
    int maxAllowed;
    String reason;
    if (max > upLimit) {
      maxAllowed = upLimit;
      reason = HpaReasons.SCALE_UP_LIMIT;
    } else {
      maxAllowed = max;
      reason = HpaReasons.TOO_MANY_REPLICAS;
    }
    if (desired < min) {
      return new Limit(min, HpaReasons.TOO_FEW_REPLICAS);
    }
    if (desired > maxAllowed) {
      return new Limit(maxAllowed, reason);
    }
    return new Limit(desired, HpaReasons.DESIRED_WITHIN_RANGE);
  }

  /** The whole legacy normalisation: stabilise, then clamp. */
  public static Normalized normalizeLegacy(
      ScalingHistory history, Instant now, Duration window, int current, int desired, int min, int max) {
    int stabilized = stabilizeLegacy(history, now, window, desired);
    String able = stabilized != desired ? HpaReasons.SCALE_DOWN_STABILIZED : HpaReasons.READY_FOR_NEW_SCALE;
    Limit limit = convertWithRules(current, stabilized, min, max);
    return new Normalized(limit.replicas(), able, limit.reason(), limit.replicas() != stabilized);
  }

  // ---- behaviour path -----------------------------------------------------------------------------------------

  /**
   * Behaviour stabilisation: {@code upRec} is the minimum of the proposal and every recommendation newer
   * than the up window, {@code downRec} the maximum over the down window; start from {@code current}, raise
   * to {@code upRec}, lower to {@code downRec}. The unstabilised proposal is stored (reusing a slot older
   * than both windows).
   *
   * @param behavior a behaviour with defaults applied
   */
  public static Stabilized stabilizeWithBehavior(
      ScalingHistory history, Instant now, Behavior behavior, int current, int desired) {
    Instant upCutoff = now.minusSeconds(behavior.scaleUp().window());
    Instant downCutoff = now.minusSeconds(behavior.scaleDown().window());
    int upRec = desired;
    int downRec = desired;
    int stale = -1;
    List<ScalingHistory.TimedRecommendation> recs = history.mutableRecommendations();
    for (int i = 0; i < recs.size(); i++) {
      ScalingHistory.TimedRecommendation r = recs.get(i);
      if (r.at().isAfter(upCutoff)) {
        upRec = Math.min(upRec, r.replicas());
      }
      if (r.at().isAfter(downCutoff)) {
        downRec = Math.max(downRec, r.replicas());
      }
      if (r.at().isBefore(upCutoff) && r.at().isBefore(downCutoff)) {
        stale = i;
      }
    }
    int rec = current;
    if (rec < upRec) {
      rec = upRec;
    }
    if (rec > downRec) {
      rec = downRec;
    }
    store(recs, stale, new ScalingHistory.TimedRecommendation(desired, now));
    String reason = desired >= current ? HpaReasons.SCALE_UP_STABILIZED : HpaReasons.SCALE_DOWN_STABILIZED;
    return new Stabilized(rec, reason);
  }

  /** The highest count the scale-up rules allow now (before raising it to {@code current}). */
  public static int scaleUpLimit(
      int current,
      List<ScalingHistory.ScaleEvent> upEvents,
      List<ScalingHistory.ScaleEvent> downEvents,
      ScalingRules rules,
      Instant now) {
    if (rules.selectPolicy() == SelectPolicy.DISABLED) {
      return current;
    }
    boolean min = rules.selectPolicy() == SelectPolicy.MIN;
    long result = min ? Integer.MAX_VALUE : Integer.MIN_VALUE;
    for (ScalingPolicy p : rules.policies()) {
      long start = periodStart(current, upEvents, downEvents, p, now);
      long proposed =
          p.type() == ScalingPolicy.Type.PODS
              ? start + p.value()
              : (long) Math.ceil((double) start * (1 + (double) p.value() / 100));
      result = min ? Math.min(result, proposed) : Math.max(result, proposed);
    }
    return saturate(result);
  }

  /** The lowest count the scale-down rules allow now (before lowering it to {@code current}). */
  public static int scaleDownLimit(
      int current,
      List<ScalingHistory.ScaleEvent> upEvents,
      List<ScalingHistory.ScaleEvent> downEvents,
      ScalingRules rules,
      Instant now) {
    if (rules.selectPolicy() == SelectPolicy.DISABLED) {
      return current;
    }
    boolean min = rules.selectPolicy() == SelectPolicy.MIN;
    long result = min ? Integer.MIN_VALUE : Integer.MAX_VALUE;
    for (ScalingPolicy p : rules.policies()) {
      long start = periodStart(current, upEvents, downEvents, p, now);
      long proposed =
          p.type() == ScalingPolicy.Type.PODS
              ? start - p.value()
              : (long) ((double) start * (1 - (double) p.value() / 100));
      result = min ? Math.max(result, proposed) : Math.min(result, proposed);
    }
    return saturate(result);
  }

  private static long periodStart(
      int current, List<ScalingHistory.ScaleEvent> up, List<ScalingHistory.ScaleEvent> down, ScalingPolicy p, Instant now) {
    Instant cutoff = now.minusSeconds(p.periodSeconds());
    return (long) current - changeSince(up, cutoff) + changeSince(down, cutoff);
  }

  private static long changeSince(List<ScalingHistory.ScaleEvent> events, Instant cutoff) {
    long sum = 0;
    for (ScalingHistory.ScaleEvent e : events) {
      if (e.at().isAfter(cutoff)) {
        sum += e.change();
      }
    }
    return sum;
  }

  /**
   * Behaviour limits: the rate-limited bound (never reversing the direction of the change) combined with
   * {@code min} and {@code max}.
   *
   * @param behavior a behaviour with defaults applied
   */
  public static Limit convertWithBehaviorRate(
      ScalingHistory history, Instant now, Behavior behavior, int current, int desired, int min, int max) {
    if (desired > current) {
      int limit = scaleUpLimit(current, history.scaleUpEvents(), history.scaleDownEvents(), behavior.scaleUp(), now);
      limit = Math.max(limit, current);
      int maxAllowed;
      String reason;
      if (max > limit) {
        maxAllowed = limit;
        reason = HpaReasons.SCALE_UP_LIMIT;
      } else {
        maxAllowed = max;
        reason = HpaReasons.TOO_MANY_REPLICAS;
      }
      if (desired > maxAllowed) {
        return new Limit(maxAllowed, reason);
      }
    } else if (desired < current) {
      int limit =
          scaleDownLimit(current, history.scaleUpEvents(), history.scaleDownEvents(), behavior.scaleDown(), now);
      limit = Math.min(limit, current);
      int minAllowed;
      String reason;
      if (min < limit) {
        minAllowed = limit;
        reason = HpaReasons.SCALE_DOWN_LIMIT;
      } else {
        minAllowed = min;
        reason = HpaReasons.TOO_FEW_REPLICAS;
      }
      if (desired < minAllowed) {
        return new Limit(minAllowed, reason);
      }
    }
    return new Limit(desired, HpaReasons.DESIRED_WITHIN_RANGE);
  }

  /** The whole behaviour normalisation: stabilise, then rate-limit and clamp. */
  public static Normalized normalizeWithBehavior(
      ScalingHistory history, Instant now, Behavior behavior, int current, int desired, int min, int max) {
    Stabilized s = stabilizeWithBehavior(history, now, behavior, current, desired);
    String able = s.replicas() != desired ? s.reason() : HpaReasons.READY_FOR_NEW_SCALE;
    Limit limit = convertWithBehaviorRate(history, now, behavior, current, s.replicas(), min, max);
    return new Normalized(limit.replicas(), able, limit.reason(), limit.replicas() != s.replicas());
  }

  private static void store(
      List<ScalingHistory.TimedRecommendation> recs, int stale, ScalingHistory.TimedRecommendation rec) {
    if (stale >= 0) {
      recs.set(stale, rec);
    } else {
      recs.add(rec);
    }
  }

  private static int saturate(long v) {
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
  }
}
