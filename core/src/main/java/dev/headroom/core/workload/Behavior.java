package dev.headroom.core.workload;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The HPA's {@code spec.behavior}: scale-up and scale-down rules. A config with a behaviour normalises on
 * the behaviour path (both-direction stabilisation windows and rate-limit policies); without one, on the
 * legacy path.
 *
 * @param scaleUp the scale-up rules (null = all defaults)
 * @param scaleDown the scale-down rules (null = all defaults)
 */
public record Behavior(ScalingRules scaleUp, ScalingRules scaleDown) {

  /** Upstream default scale-up policies: Pods 4 / 15 s and Percent 100 / 15 s. */
  public static final List<ScalingPolicy> DEFAULT_SCALE_UP_POLICIES =
      List.of(ScalingPolicy.pods(4, 15), ScalingPolicy.percent(100, 15));
  /** Upstream default scale-down policy: Percent 100 / 15 s. */
  public static final List<ScalingPolicy> DEFAULT_SCALE_DOWN_POLICIES = List.of(ScalingPolicy.percent(100, 15));

  /** A behaviour with every field at its default. */
  public static Behavior defaults() {
    return new Behavior(ScalingRules.unset(), ScalingRules.unset());
  }

  /**
   * Fills every unset field individually: up window 0, down window {@code downscaleStabilization}, selection
   * Max, the default policies, and the cluster tolerance for each direction.
   */
  public Behavior withDefaults(Duration downscaleStabilization, Tolerance cluster) {
    Objects.requireNonNull(downscaleStabilization);
    ScalingRules up = scaleUp == null ? ScalingRules.unset() : scaleUp;
    ScalingRules down = scaleDown == null ? ScalingRules.unset() : scaleDown;
    return new Behavior(
        new ScalingRules(
            up.stabilizationWindowSeconds() == null ? 0 : up.stabilizationWindowSeconds(),
            up.selectPolicy() == null ? SelectPolicy.MAX : up.selectPolicy(),
            up.policies() == null ? DEFAULT_SCALE_UP_POLICIES : up.policies(),
            up.tolerance() == null ? cluster.up() : up.tolerance()),
        new ScalingRules(
            down.stabilizationWindowSeconds() == null
                ? (int) downscaleStabilization.toSeconds()
                : down.stabilizationWindowSeconds(),
            down.selectPolicy() == null ? SelectPolicy.MAX : down.selectPolicy(),
            down.policies() == null ? DEFAULT_SCALE_DOWN_POLICIES : down.policies(),
            down.tolerance() == null ? cluster.down() : down.tolerance()));
  }

  /** The per-direction tolerance; only valid after defaults were applied. */
  public Tolerance tolerance() {
    return new Tolerance(scaleDown.tolerance(), scaleUp.tolerance());
  }
}
