package dev.headroom.core.autoscaler;

/** The scale-up outcome of one loop (upstream {@code status.ScaleUpResult} names). */
public enum ScaleUpResult {
  ScaleUpSuccessful,
  ScaleUpError,
  ScaleUpNoOptionsAvailable,
  ScaleUpNotNeeded,
  ScaleUpNotTried,
  ScaleUpInCooldown,
  ScaleUpLimitedByMaxNodesTotal
}
