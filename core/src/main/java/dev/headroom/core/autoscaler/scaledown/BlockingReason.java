package dev.headroom.core.autoscaler.scaledown;

/** Pod-level reasons that block a drain (CA drainability rules). */
public enum BlockingReason {
  ControllerNotFound,
  MinReplicasReached,
  NotReplicated,
  UnmovableKubeSystemPod,
  NotSafeToEvictAnnotation,
  LocalStorageRequested,
  NotEnoughPdb,
  BlockedByOnCompletionPod
}
