package dev.headroom.core.workload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A per-workload autoscaler in HPA mode: the upstream HPA reconcile loop (1..N) and, when configured, KEDA's
 * activation loop (0 ↔ 1, idle, fallback).
 *
 * <p>The caller owns time: call {@link #decide(Instant, ScaleTarget, Map)} as often as it likes (a simulator
 * calls it every tick); the HPA reconciles when its sync period has elapsed and the KEDA loop when its
 * polling interval has, and otherwise the decision is {@link HpaReasons#NOT_DUE}. When the KEDA loop changes
 * the count, the HPA waits for the next call. The state (recommendation history, scale events, KEDA's last
 * active time, fallback failure counters, the ScaledToZero marker) lives here; one instance per workload,
 * not thread-safe.
 */
public final class HpaAutoscaler {

  private final HpaConfig config;
  private final Instant created;
  private final HpaReplicaCalculator calculator;
  private final Behavior behavior;
  private final ScalingHistory history;
  private final Map<String, Integer> failures = new HashMap<>();
  private boolean seeded;
  private boolean scaledToZero;
  private Instant nextSync;
  private Instant nextPoll;
  private Instant lastActive;

  /**
   * A new autoscaler; the first reconcile seeds the recommendation history with the current count (so a
   * scale-down right after start is held by the down window).
   *
   * @param created when the object was created (for KEDA's initial cooldown)
   */
  public HpaAutoscaler(HpaConfig config, Instant created) {
    this(config, created, new ScalingHistory(), false);
  }

  private HpaAutoscaler(HpaConfig config, Instant created, ScalingHistory history, boolean seeded) {
    this.config = Objects.requireNonNull(config, "config");
    this.created = Objects.requireNonNull(created, "created");
    this.history = Objects.requireNonNull(history, "history");
    this.seeded = seeded;
    this.calculator = new HpaReplicaCalculator(config.cpuInitializationPeriod(), config.initialReadinessDelay());
    this.behavior = config.effectiveBehavior();
  }

  /** An autoscaler that continues from a known history (not seeded with the current count). */
  public static HpaAutoscaler withHistory(HpaConfig config, Instant created, ScalingHistory history) {
    return new HpaAutoscaler(config, created, history, true);
  }

  /** The configuration. */
  public HpaConfig config() {
    return config;
  }

  /** The recommendation and scale-event history (live view of the state). */
  public ScalingHistory history() {
    return history;
  }

  /** The last time the KEDA loop saw the object active, or null. */
  public Instant lastActive() {
    return lastActive;
  }

  /** The ScaledToZero marker: the autoscaler itself drove the workload to zero. */
  public boolean scaledToZero() {
    return scaledToZero;
  }

  /**
   * Decides the count for this moment.
   *
   * @param now the current (simulated) time; must not go backwards
   * @param target the workload's counts and pods
   * @param readings one reading per metric name; a missing entry counts as a failed read
   */
  public HpaDecision decide(Instant now, ScaleTarget target, Map<String, MetricReading> readings) {
    Objects.requireNonNull(now, "now");
    int current = target.specReplicas();
    String kedaReason = "";
    if (config.keda() != null && (nextPoll == null || !now.isBefore(nextPoll))) {
      nextPoll = now.plus(config.keda().pollingInterval());
      KedaStep step = kedaStep(now, current, readings);
      if (step.replicas != current) {
        if (step.replicas == 0) {
          scaledToZero = true;
        } else if (current == 0) {
          scaledToZero = false;
        }
        return new HpaDecision(step.replicas, current, HpaDecision.Actor.KEDA, "", step.reason, step.message, "", "", "",
            List.of(), "", false, scaledToZero);
      }
      kedaReason = step.reason;
    }
    if (nextSync == null || !now.isBefore(nextSync)) {
      nextSync = now.plus(config.syncPeriod());
      return reconcile(now, target, readings);
    }
    String reason = kedaReason.isEmpty() ? HpaReasons.NOT_DUE : kedaReason;
    return new HpaDecision(current, current, kedaReason.isEmpty() ? HpaDecision.Actor.NONE : HpaDecision.Actor.KEDA, "",
        reason, kedaReason.isEmpty() ? "no sync is due" : "activation loop: no change", "", "", "", List.of(), "", false,
        scaledToZero);
  }

  // ---- HPA reconcile ----------------------------------------------------------------------------------------

  private HpaDecision reconcile(Instant now, ScaleTarget target, Map<String, MetricReading> rawReadings) {
    int current = target.specReplicas();
    if (!seeded) {
      history.recommendation(current, now);
      seeded = true;
    }
    int min = config.hpaMin();
    int max = config.hpaMax();
    if (current == 0 && min != 0) {
      return unchanged(current, HpaReasons.SCALING_DISABLED, "scaling is disabled since the replica count of the target is zero");
    }
    if (current == 0 && config.keda() == null && !scaledToZero) {
      return unchanged(current, HpaReasons.SCALING_DISABLED,
          "the target was set to zero by hand (no ScaledToZero marker), so scaling stays paused");
    }
    if (current > max) {
      return scaled(now, current, max, "", HpaReasons.CURRENT_ABOVE_MAX, "", HpaReasons.TOO_MANY_REPLICAS,
          List.of(), "", false);
    }
    if (current < min) {
      return scaled(now, current, min, "", HpaReasons.CURRENT_BELOW_MIN, "", HpaReasons.TOO_FEW_REPLICAS,
          List.of(), "", false);
    }
    Map<String, MetricReading> readings = new LinkedHashMap<>(rawReadings);
    boolean fallbackActive = applyFallback(target, readings);
    Tolerance tolerance = config.effectiveTolerance();
    List<MetricProposal> proposals = new ArrayList<>();
    MetricProposal.Valid best = null;
    MetricProposal.Invalid firstInvalid = null;
    int invalid = 0;
    for (HpaMetric m : config.metrics()) {
      MetricProposal p = calculator.propose(now, m, target.specReplicas(), target.statusReplicas(), target.pods(),
          readings.get(m.name()), tolerance);
      proposals.add(p);
      if (p instanceof MetricProposal.Valid v) {
        if (best == null || v.replicas() > best.replicas()) {
          best = v;
        }
      } else if (p instanceof MetricProposal.Invalid i) {
        invalid++;
        if (firstInvalid == null) {
          firstInvalid = i;
        }
      }
    }
    String error = firstInvalid == null ? ""
        : "invalid metrics (" + invalid + " invalid out of " + config.metrics().size() + "), first error is: "
            + firstInvalid.message();
    if (best == null || (invalid > 0 && best.replicas() < target.specReplicas())) {
      return new HpaDecision(current, current, HpaDecision.Actor.HPA, "", HpaReasons.FAILED_COMPUTE_METRICS_REPLICAS, error,
          "", firstInvalid.reason(), "", proposals, error, fallbackActive, scaledToZero);
    }
    int desired = Math.max(0, best.replicas());
    String by = desired > 0 ? best.metric() : "";
    String rescaleReason = desired > current ? by + HpaReasons.ABOVE_TARGET_SUFFIX
        : desired < current ? HpaReasons.ALL_METRICS_BELOW_TARGET : "";
    HpaNormalizer.Normalized n = behavior == null
        ? HpaNormalizer.normalizeLegacy(history, now, config.downscaleStabilization(), current, desired, min, max)
        : HpaNormalizer.normalizeWithBehavior(history, now, behavior, current, desired, min, max);
    String headline = n.replicas() == current ? (n.ableToScale().equals(HpaReasons.READY_FOR_NEW_SCALE)
        ? n.scalingLimited() : n.ableToScale()) : n.limited() ? n.scalingLimited() : rescaleReason;
    return scaled(now, current, n.replicas(), best.metric(), headline, n.ableToScale(), n.scalingLimited(), proposals,
        error, fallbackActive);
  }

  private HpaDecision scaled(Instant now, int current, int desired, String by, String reason, String ableToScale,
      String limited, List<MetricProposal> proposals, String error, boolean fallbackActive) {
    if (desired != current) {
      if (behavior != null) {
        history.recordScaleEvent(current, desired, now, behavior);
      }
      if (desired == 0) {
        scaledToZero = true;
      } else if (current == 0) {
        scaledToZero = false;
      }
    }
    String message = desired == current ? "no change at " + current
        : "scale from " + current + " to " + desired + (reason.isEmpty() ? "" : ": " + reason);
    return new HpaDecision(desired, current, HpaDecision.Actor.HPA, by, reason.isEmpty() ? HpaReasons.DESIRED_WITHIN_RANGE : reason,
        message, ableToScale, proposals.isEmpty() ? "" : HpaReasons.VALID_METRIC_FOUND, limited, proposals, error,
        fallbackActive, scaledToZero);
  }

  private HpaDecision unchanged(int current, String reason, String message) {
    return new HpaDecision(current, current, HpaDecision.Actor.HPA, "", reason, message, "", reason, "", List.of(), "",
        false, scaledToZero);
  }

  /** Counts failures per metric and replaces reads past the threshold by the fallback value. */
  private boolean applyFallback(ScaleTarget target, Map<String, MetricReading> readings) {
    KedaConfig keda = config.keda();
    if (keda == null) {
      return false;
    }
    boolean engaged = false;
    int ready = (int) target.pods().stream().filter(PodInfo::runningAndReady).count();
    for (HpaMetric m : config.metrics()) {
      MetricReading r = readings.get(m.name());
      boolean failed = r == null || r instanceof MetricReading.Failed;
      int count = failed ? failures.merge(m.name(), 1, Integer::sum) : 0;
      if (!failed) {
        failures.put(m.name(), 0);
      }
      Fallback fb = keda.fallback();
      if (failed && fb != null && fb.engaged(count)
          && (m.source() == MetricSource.EXTERNAL || m.source() == MetricSource.OBJECT)) {
        engaged = true;
        OptionalLong v = Fallback.syntheticValue(m, fb.replicasFor(target.specReplicas()), ready);
        if (v.isPresent()) {
          readings.put(m.name(), m.source() == MetricSource.OBJECT
              ? new MetricReading.ObjectValue(v.getAsLong()) : MetricReading.external(v.getAsLong()));
        }
      }
    }
    return engaged;
  }

  /** Consecutive failed reads of a metric, as the fallback counts them. */
  public int consecutiveFailures(String metric) {
    return failures.getOrDefault(metric, 0);
  }

  // ---- KEDA activation loop -----------------------------------------------------------------------------------

  private record KedaStep(int replicas, String reason, String message) {}

  private KedaStep kedaStep(Instant now, int current, Map<String, MetricReading> readings) {
    KedaConfig k = config.keda();
    if (k.paused()) {
      return new KedaStep(current, HpaReasons.KEDA_PAUSED, "the ScaledObject is paused");
    }
    boolean error = false;
    boolean active = config.metrics().stream().allMatch(HpaMetric::isCpuOrMemory);
    for (HpaMetric m : config.metrics()) {
      MetricReading r = readings.get(m.name());
      if (r == null || r instanceof MetricReading.Failed) {
        error = true;
        continue;
      }
      if (!m.isCpuOrMemory() && presence(r) > k.activationThreshold(m.name())) {
        active = true;
      }
    }
    int min = k.minReplicaCount();
    if (active) {
      lastActive = now;
      if (current == 0 || (k.idleReplicaCount().isPresent() && current < min)) {
        int to = min > 0 ? min : 1;
        return new KedaStep(to, HpaReasons.KEDA_ACTIVATED, "a trigger is active, so the target wakes to " + to);
      }
      return new KedaStep(current, "", "active");
    }
    if (error && k.fallback() != null && k.fallback().replicas() != 0) {
      return new KedaStep(current, HpaReasons.KEDA_FALLBACK, "triggers failed; the HPA sees the fallback metric");
    }
    if (error && k.fallback() == null) {
      return new KedaStep(current, HpaReasons.KEDA_TRIGGER_ERROR, "triggers failed and there is no fallback");
    }
    boolean idleSet = k.idleReplicaCount().isPresent();
    if ((idleSet && current > k.idleReplicaCount().getAsInt()) || (current > 0 && min == 0)) {
      int to = idleSet ? k.idleReplicaCount().getAsInt() : min;
      if (!k.scaleInPaused() && cooldownExpired(now, k)) {
        return new KedaStep(to, HpaReasons.KEDA_DEACTIVATED, "no trigger active for the cooldown, so the target drops to " + to);
      }
      return new KedaStep(current, HpaReasons.KEDA_SCALER_COOLDOWN, "inactive, waiting for the cooldown");
    }
    if (!idleSet && current < min) {
      return new KedaStep(min, HpaReasons.KEDA_RESTORED_TO_MIN, "below minReplicaCount, so back to " + min);
    }
    return new KedaStep(current, "", "inactive");
  }

  private boolean cooldownExpired(Instant now, KedaConfig k) {
    if (lastActive == null) {
      return created.plus(k.initialCooldownPeriod()).isBefore(now);
    }
    return lastActive.plus(k.cooldownPeriod()).isBefore(now);
  }

  /** The value a trigger's activity is judged by: the total of the reading, in milli-units. */
  private static long presence(MetricReading r) {
    if (r instanceof MetricReading.ObjectValue v) {
      return v.value();
    }
    if (r instanceof MetricReading.ExternalValues v) {
      return v.total();
    }
    if (r instanceof MetricReading.PodSamples s) {
      long sum = 0;
      for (PodSample p : s.samples().values()) {
        sum += p.value();
      }
      return sum;
    }
    return 0;
  }
}
