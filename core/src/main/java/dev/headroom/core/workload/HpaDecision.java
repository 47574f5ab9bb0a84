package dev.headroom.core.workload;

import java.util.List;
import java.util.Objects;

/**
 * One HPA-mode decision.
 *
 * @param replicas the count to run (equal to {@code previous} when nothing changes)
 * @param previous the count before the decision
 * @param actor who decided: the HPA (1..N), the KEDA activation loop (0 ↔ 1, idle), or nobody (not due)
 * @param by the metric that decided, empty when none did
 * @param reason the headline: a {@link HpaReasons} value (for example {@code ScaleUpLimit},
 *     {@code ScalingDisabled}, {@code KEDAScaleTargetActivated}, {@code NotDue})
 * @param message a one-line explanation
 * @param ableToScale the AbleToScale reason of this sync, or empty
 * @param scalingActive the ScalingActive reason of this sync, or empty
 * @param scalingLimited the ScalingLimited reason of this sync, or empty
 * @param proposals every metric's proposal of this sync (empty when the metrics were not consulted)
 * @param error the metric error surfaced in status and events, or empty
 * @param fallbackActive true while any metric is served by the KEDA fallback
 * @param scaledToZero the autoscaler's ScaledToZero marker after this decision
 */
public record HpaDecision(
    int replicas,
    int previous,
    Actor actor,
    String by,
    String reason,
    String message,
    String ableToScale,
    String scalingActive,
    String scalingLimited,
    List<MetricProposal> proposals,
    String error,
    boolean fallbackActive,
    boolean scaledToZero) {

  /** Who made a decision. */
  public enum Actor {
    NONE,
    HPA,
    KEDA
  }

  public HpaDecision {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(ableToScale, "ableToScale");
    Objects.requireNonNull(scalingActive, "scalingActive");
    Objects.requireNonNull(scalingLimited, "scalingLimited");
    Objects.requireNonNull(error, "error");
    proposals = List.copyOf(proposals);
  }
}
