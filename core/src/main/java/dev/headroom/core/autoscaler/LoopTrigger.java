package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Set;

/**
 * When the autoscaler loop runs between its fixed-rate scans: the rule {@code headroom run}'s loop
 * ({@code controller} {@code AutoscalerLoop}) and the simulator's loop both follow, so that the simulator predicts the
 * cluster runtime's reaction times. The Cluster Autoscaler iterates at once when a pod is marked unschedulable
 * ({@code loop/trigger.go}, {@code StartPodObserver}); Headroom does the same with two differences:
 * <ul>
 *   <li>the woken iteration runs no earlier than the moment the loop can scale up for the pod ({@link #wakeAt}): its
 *       creation plus {@code new-pod-cooldown}, since an iteration before that only finds every pod new and waits
 *       ({@code ScaleUpInCooldown}), and would push the next regular scan a whole interval away;</li>
 *   <li>after an iteration that scaled up or down, triggers wait for the next regular scan ({@link #holdsTriggers}),
 *       where CA iterates again at once: new nodes get an interval to appear before the next decision.</li>
 * </ul>
 * A woken iteration restarts the fixed rate: the next regular scan comes one interval after it began.
 */
public final class LoopTrigger {

  private LoopTrigger() {}

  /**
   * Whether a change of a pod from {@code before} (null when it was added) to {@code after} made it new pending
   * demand by {@link PendingDemand}'s rule: unbound, not terminating, not finished, and demand now but not before.
   */
  public static boolean becameDemand(Pod before, Pod after, Set<String> bypassed) {
    return demand(after, bypassed) && !demand(before, bypassed);
  }

  /** Whether {@code p} is pending demand the loop would scale for. */
  public static boolean demand(Pod p, Set<String> bypassed) {
    if (p == null || p.getSpec() == null || p.getMetadata() == null) {
      return false;
    }
    String node = p.getSpec().getNodeName();
    if (node != null && !node.isEmpty() || p.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return false;
    }
    return PendingDemand.of(p, bypassed) == PendingDemand.Kind.DEMAND;
  }

  /**
   * The earliest instant an iteration woken by the new demand {@code pod} can scale up for it: {@code now}, or its
   * creation plus {@code new-pod-cooldown} when that is later and the cooldown applies (no bypassed schedulers; the
   * same condition as the scale-up step's).
   */
  public static Instant wakeAt(Pod pod, AutoscalerOptions options, Instant now) {
    if (!options.bypassedSchedulers().isEmpty()) {
      return now;
    }
    Instant ready = Nodes.created(pod).map(c -> c.plus(options.newPodCooldown())).orElse(now);
    return ready.isAfter(now) ? ready : now;
  }

  /** Whether triggers wait for the next regular scan after this iteration: it scaled up or down. */
  public static boolean holdsTriggers(IterationResult r) {
    return r != null && (!r.scaleUp().isEmpty() || !r.scaleDown().isEmpty());
  }

  /**
   * The loop's timing by this rule, in the caller's time unit (nanoseconds of a ticker in cluster mode, virtual
   * milliseconds in the simulator): when the next iteration is due ({@link #due}), given the fixed rate, the earliest
   * pending trigger and whether the last iteration holds triggers. Not thread-safe: the caller guards it.
   */
  public static final class Schedule {
    private final long interval;
    private long next;
    private long triggerAt = Long.MAX_VALUE;
    private boolean hold;

    /** A schedule whose first regular iteration is one {@code interval} after {@code start}. */
    public Schedule(long interval, long start) {
      this.interval = interval;
      this.next = start + interval;
    }

    /** Asks for an iteration at {@code at}; triggers coalesce at the earliest. Whether that moved {@link #due}. */
    public boolean trigger(long at) {
      long before = due();
      triggerAt = Math.min(triggerAt, at);
      return due() != before;
    }

    /** When the next iteration is due: the next regular scan, or the earliest trigger unless triggers are held. */
    public long due() {
      return hold ? next : Math.min(next, triggerAt);
    }

    /** An iteration began at {@code at}: it serves the triggers due by then, and the fixed rate restarts from it. */
    public void began(long at) {
      if (triggerAt <= at) {
        triggerAt = Long.MAX_VALUE; // a later one stays pending
      }
      next = at + interval;
    }

    /** The iteration begun last ended with {@code r} (null when skipped or failed). */
    public void finished(IterationResult r) {
      hold = holdsTriggers(r);
    }
  }
}
