package dev.headroom.core.autoscaler.scaledown;

/** The outcome of the drain rules for one pod. */
public sealed interface Drainability {

  /** The pod stays on the node and does not block (mirror pods, pods terminating past their grace period). */
  record Skip() implements Drainability {}

  /** The pod is evicted with the node and is not re-placed (DaemonSet pods). */
  record DaemonSetPod() implements Drainability {}

  /** The pod must be re-placed elsewhere. */
  record Movable() implements Drainability {}

  /** The pod blocks removal of its node. */
  record Blocked(BlockingReason reason) implements Drainability {}

  Skip SKIP = new Skip();
  DaemonSetPod DAEMON_SET = new DaemonSetPod();
  Movable MOVABLE = new Movable();
}
