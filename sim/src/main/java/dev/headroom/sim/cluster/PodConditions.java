package dev.headroom.sim.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import java.util.ArrayList;
import java.util.List;

/** Writes the pod conditions the scheduler and kubelet would write. */
final class PodConditions {

  /** Condition type set by the scheduler. */
  static final String POD_SCHEDULED = "PodScheduled";
  /** Reason of {@code PodScheduled=False} for pods that fit nowhere. */
  static final String UNSCHEDULABLE = "Unschedulable";
  /** Condition type set by the kubelet. */
  static final String READY = "Ready";

  private PodConditions() {}

  static void setScheduled(Pod pod, boolean scheduled, String message) {
    set(pod, new PodConditionBuilder().withType(POD_SCHEDULED).withStatus(scheduled ? "True" : "False")
        .withReason(scheduled ? null : UNSCHEDULABLE).withMessage(message).build());
  }

  static void setReady(Pod pod, boolean ready) {
    set(pod, new PodConditionBuilder().withType(READY).withStatus(ready ? "True" : "False").build());
  }

  private static void set(Pod pod, PodCondition c) {
    List<PodCondition> list = pod.getStatus().getConditions();
    if (list == null) {
      list = new ArrayList<>();
      pod.getStatus().setConditions(list);
    }
    list.removeIf(x -> c.getType().equals(x.getType()));
    list.add(c);
  }
}
