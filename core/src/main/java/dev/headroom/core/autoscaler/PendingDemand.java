package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which unbound pods are pending <em>demand</em> (issue #19, the upstream Cluster Autoscaler's rule): a pod that a
 * scheduler marked {@code PodScheduled=False} with reason {@code Unschedulable}, or a pod that no scheduler has
 * processed yet whose {@code spec.schedulerName} is one of the bypassed schedulers
 * ({@code --bypassed-scheduler-names}). A pod with {@code spec.schedulingGates} (or {@code PodScheduled=False/
 * SchedulingGated}) is never demand: a queue (Kueue, Volcano, KAI) holds it back. Every other unbound pod is
 * waiting for its own scheduler and is not demand either.
 */
public final class PendingDemand {

  /** {@code spec.schedulerName} of a pod that names none. */
  public static final String DEFAULT_SCHEDULER = "default-scheduler";
  static final String POD_SCHEDULED = "PodScheduled";
  static final String UNSCHEDULABLE = "Unschedulable";
  static final String SCHEDULING_GATED = "SchedulingGated";

  /** What an unbound pod is to the autoscaler. */
  public enum Kind {
    /** Counts: marked Unschedulable, or unprocessed and of a bypassed scheduler. */
    DEMAND,
    /** Held back by scheduling gates. */
    GATED,
    /** Not tried yet by its scheduler (which is not bypassed). */
    NOT_TRIED
  }

  /** The pending pods split: the demand, in input order, and how many were left out for each cause. */
  public record Split(List<Pod> demand, NotDemand notDemand) {}

  /** Unbound pods that are not demand: gated ones and ones their scheduler has not tried yet. */
  public record NotDemand(int gated, int notYetTried) {
    public static final NotDemand NONE = new NotDemand(0, 0);

    /** {@code gated: N, not yet tried by their scheduler: M}, as {@code plan} and the cluster runtime's log print it. */
    public String describe() {
      return "gated: " + gated + ", not yet tried by their scheduler: " + notYetTried;
    }
  }

  private PendingDemand() {}

  /** The scheduler names of a comma-separated {@code --bypassed-scheduler-names} value (blank entries dropped). */
  public static Set<String> schedulerNames(String commaList) {
    Set<String> out = new LinkedHashSet<>();
    if (commaList != null) {
      for (String s : commaList.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return Set.copyOf(out);
  }

  /** What the unbound pod {@code p} is, given the bypassed scheduler names. */
  public static Kind of(Pod p, Set<String> bypassed) {
    if (p.getSpec() != null && p.getSpec().getSchedulingGates() != null && !p.getSpec().getSchedulingGates().isEmpty()) {
      return Kind.GATED;
    }
    PodCondition scheduled = podScheduled(p);
    if (scheduled != null && "False".equals(scheduled.getStatus())) {
      if (UNSCHEDULABLE.equals(scheduled.getReason())) {
        return Kind.DEMAND;
      }
      if (SCHEDULING_GATED.equals(scheduled.getReason())) {
        return Kind.GATED;
      }
    }
    return bypassed.contains(schedulerName(p)) ? Kind.DEMAND : Kind.NOT_TRIED;
  }

  /** Splits the unbound pods {@code pending} into demand and the counts of the rest. */
  public static Split split(List<Pod> pending, Set<String> bypassed) {
    List<Pod> demand = new ArrayList<>(pending.size());
    int gated = 0;
    int notTried = 0;
    for (Pod p : pending) {
      switch (of(p, bypassed)) {
        case DEMAND -> demand.add(p);
        case GATED -> gated++;
        default -> notTried++;
      }
    }
    return new Split(demand, gated == 0 && notTried == 0 ? NotDemand.NONE : new NotDemand(gated, notTried));
  }

  /** {@code spec.schedulerName}, or {@link #DEFAULT_SCHEDULER} when unset. */
  static String schedulerName(Pod p) {
    String s = p.getSpec() == null ? null : p.getSpec().getSchedulerName();
    return s == null || s.isEmpty() ? DEFAULT_SCHEDULER : s;
  }

  private static PodCondition podScheduled(Pod p) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition c : p.getStatus().getConditions()) {
      if (POD_SCHEDULED.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }
}
