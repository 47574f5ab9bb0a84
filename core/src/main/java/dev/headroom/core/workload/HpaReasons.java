package dev.headroom.core.workload;

/**
 * The condition reasons HPA mode reports, spelled as upstream spells them (and the KEDA executor's).
 * Defined once here; tests and adapters refer to these constants.
 */
public final class HpaReasons {

  private HpaReasons() {}

  // ScalingLimited
  public static final String DESIRED_WITHIN_RANGE = "DesiredWithinRange";
  public static final String TOO_FEW_REPLICAS = "TooFewReplicas";
  public static final String TOO_MANY_REPLICAS = "TooManyReplicas";
  public static final String SCALE_UP_LIMIT = "ScaleUpLimit";
  public static final String SCALE_DOWN_LIMIT = "ScaleDownLimit";

  // AbleToScale
  public static final String READY_FOR_NEW_SCALE = "ReadyForNewScale";
  public static final String SCALE_UP_STABILIZED = "ScaleUpStabilized";
  public static final String SCALE_DOWN_STABILIZED = "ScaleDownStabilized";
  public static final String SUCCEEDED_RESCALE = "SucceededRescale";

  // ScalingActive
  public static final String VALID_METRIC_FOUND = "ValidMetricFound";
  public static final String SCALING_DISABLED = "ScalingDisabled";
  public static final String FAILED_GET_RESOURCE_METRIC = "FailedGetResourceMetric";
  public static final String FAILED_GET_CONTAINER_RESOURCE_METRIC = "FailedGetContainerResourceMetric";
  public static final String FAILED_GET_PODS_METRIC = "FailedGetPodsMetric";
  public static final String FAILED_GET_OBJECT_METRIC = "FailedGetObjectMetric";
  public static final String FAILED_GET_EXTERNAL_METRIC = "FailedGetExternalMetric";

  // Rescale reasons and decision headlines
  public static final String CURRENT_ABOVE_MAX = "Current number of replicas above Spec.MaxReplicas";
  public static final String CURRENT_BELOW_MIN = "Current number of replicas below Spec.MinReplicas";
  public static final String ALL_METRICS_BELOW_TARGET = "All metrics below target";
  public static final String ABOVE_TARGET_SUFFIX = " above target";
  public static final String FAILED_COMPUTE_METRICS_REPLICAS = "FailedComputeMetricsReplicas";
  public static final String NOT_DUE = "NotDue";

  // KEDA executor
  public static final String KEDA_ACTIVATED = "KEDAScaleTargetActivated";
  public static final String KEDA_DEACTIVATED = "KEDAScaleTargetDeactivated";
  public static final String KEDA_SCALER_COOLDOWN = "ScalerCooldown";
  public static final String KEDA_TRIGGER_ERROR = "TriggerError";
  public static final String KEDA_FALLBACK = "FallbackExists";
  public static final String KEDA_PAUSED = "ScaledObjectPaused";
  public static final String KEDA_RESTORED_TO_MIN = "KEDAScaleTargetRestoredToMin";

  // Messages
  public static final String MSG_NO_PODS = "no pods returned by selector while calculating replica count";
  public static final String MSG_NO_METRICS_FOR_PODS = "did not receive metrics for targeted pods (pods might be unready)";
  public static final String MSG_NO_MATCHING_PODS = "no metrics returned matched known pods";
}
