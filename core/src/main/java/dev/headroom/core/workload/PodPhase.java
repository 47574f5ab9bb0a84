package dev.headroom.core.workload;

/** The phase of a pod, as the HPA's pod classification needs it. */
public enum PodPhase {
  PENDING,
  RUNNING,
  SUCCEEDED,
  FAILED,
  UNKNOWN;

  /** Parses a Kubernetes phase string ({@code "Running"}); unknown or null text gives {@link #UNKNOWN}. */
  public static PodPhase parse(String phase) {
    if (phase == null) {
      return UNKNOWN;
    }
    return switch (phase) {
      case "Pending" -> PENDING;
      case "Running" -> RUNNING;
      case "Succeeded" -> SUCCEEDED;
      case "Failed" -> FAILED;
      default -> UNKNOWN;
    };
  }
}
