package dev.headroom.core.autoscaler.scaledown;

/** Why a node cannot be removed (upstream metric label values, CA {@code UnremovableReason}). */
public enum UnremovableReason {
  ScaleDownDisabledAnnotation,
  NotAutoscaled,
  NotUnneededLongEnough,
  NotUnreadyLongEnough,
  NodeGroupMinSizeReached,
  CurrentlyBeingDeleted,
  NotUnderutilized,
  RecentlyUnremovable,
  NoPlaceToMovePods,
  BlockedByPod,
  BlockedByOnCompletionPod,
  NodeGroupMaxDeletionCountReached,
  UnexpectedError
}
