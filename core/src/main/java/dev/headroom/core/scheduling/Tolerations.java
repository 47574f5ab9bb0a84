package dev.headroom.core.scheduling;

import java.util.List;

/**
 * NodeUnschedulable's and TaintToleration's checks of spec §2.3 on compiled pods and nodes: the one definition the
 * snapshot's placement and the provisioning pass share.
 */
final class Tolerations {

  private static final Taint UNSCHEDULABLE = new Taint(SchedulingCompiler.UNSCHEDULABLE_TAINT, "", Taint.NO_SCHEDULE);

  private Tolerations() {}

  /** Whether {@code pod} tolerates {@code node.kubernetes.io/unschedulable:NoSchedule} (a cordoned node). */
  static boolean toleratesUnschedulable(CompiledPod pod) {
    for (Toleration tol : pod.tolerations()) {
      if (tol.tolerates(UNSCHEDULABLE)) {
        return true;
      }
    }
    return false;
  }

  /** The first of the node's filtering taints the pod does not tolerate, or null. */
  static Taint untolerated(CompiledNode node, CompiledPod pod) {
    return untolerated(node.taints(), pod.tolerations());
  }

  /** The first of {@code taints} that none of {@code tolerations} tolerates, or null. */
  static Taint untolerated(List<Taint> taints, List<Toleration> tolerations) {
    for (Taint taint : taints) {
      boolean ok = false;
      for (Toleration tol : tolerations) {
        if (tol.tolerates(taint)) {
          ok = true;
          break;
        }
      }
      if (!ok) {
        return taint;
      }
    }
    return null;
  }
}
