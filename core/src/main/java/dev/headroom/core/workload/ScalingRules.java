package dev.headroom.core.workload;

import java.util.List;

/**
 * One direction of an HPA behaviour. Unset fields ({@code null}) are filled from the upstream defaults by
 * {@link Behavior#withDefaults}.
 *
 * @param stabilizationWindowSeconds 0..3600, or null for the default (up: 0; down: the controller's
 *     downscale stabilisation window, 300 s)
 * @param selectPolicy how policies combine, or null for {@link SelectPolicy#MAX}
 * @param policies the rate limits, or null for the defaults (up: Pods 4 / 15 s and Percent 100 / 15 s;
 *     down: Percent 100 / 15 s)
 * @param tolerance this direction's tolerance, {@code >= 0}, or null for the cluster value
 */
public record ScalingRules(
    Integer stabilizationWindowSeconds, SelectPolicy selectPolicy, List<ScalingPolicy> policies, Double tolerance) {

  public ScalingRules {
    if (stabilizationWindowSeconds != null && (stabilizationWindowSeconds < 0 || stabilizationWindowSeconds > 3600)) {
      throw new IllegalArgumentException("stabilizationWindowSeconds must be in 0..3600, got " + stabilizationWindowSeconds);
    }
    if (tolerance != null && !(tolerance >= 0 && Double.isFinite(tolerance))) {
      throw new IllegalArgumentException("tolerance must be finite and >= 0, got " + tolerance);
    }
    policies = policies == null ? null : List.copyOf(policies);
  }

  /** Every field unset: all defaults. */
  public static ScalingRules unset() {
    return new ScalingRules(null, null, null, null);
  }

  /** Rules with the given policies, selection and window (tolerance from the cluster). */
  public static ScalingRules of(Integer window, SelectPolicy select, ScalingPolicy... policies) {
    return new ScalingRules(window, select, List.of(policies), null);
  }

  /** The window in seconds; only valid after defaults were applied. */
  public int window() {
    return stabilizationWindowSeconds;
  }

  /** The longest policy period, 0 with no policy. */
  public int longestPeriodSeconds() {
    int longest = 0;
    for (ScalingPolicy p : policies) {
      longest = Math.max(longest, p.periodSeconds());
    }
    return longest;
  }
}
