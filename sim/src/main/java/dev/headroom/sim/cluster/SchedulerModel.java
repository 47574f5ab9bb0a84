package dev.headroom.sim.cluster;

import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.Placement;
import dev.headroom.sim.engine.EventQueue.Phase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The kube-scheduler stand-in. It binds pending pods, highest priority first (then oldest), to Ready nodes
 * with the core's placement ({@link ClusterSnapshot#schedulePodOnAnyNode}: the predicates the autoscaler
 * uses). A pod that fits nowhere may preempt lower-priority pods: the victims are chosen on a fork of the
 * core snapshot, they terminate during the preemption delay while the pod is nominated to the node, and the
 * pod binds on the next pass. Pods that still fit nowhere are marked {@code PodScheduled=False/Unschedulable}
 * for the autoscaler.
 *
 * <p>Only real (API) pods go through this model: the CapacityBuffer's virtual pods never exist here, so a
 * real pod can never wait for one.
 */
public final class SchedulerModel {

  /** Message of the {@code PodScheduled=False} condition (the scheduler's summary). */
  public static final String UNSCHEDULABLE_MESSAGE = "0/%d nodes are available: no node fits the pod.";

  private static final Comparator<SimPod> QUEUE_ORDER = Comparator.comparingInt(SimPod::priority).reversed()
      .thenComparingLong(SimPod::createdAt).thenComparing(SimPod::uid);

  private final SimCluster cluster;
  private final long preemptionDelayMillis;
  private final ToLongFunction<SimPod> startupMillis;
  private boolean queued;
  private boolean verify;
  private long idleRoomViolations;
  private long passes;
  private long preemptions;

  /**
   * A scheduler for the cluster.
   *
   * @param preemptionDelayMillis time from victim selection to the preemptor binding
   * @param startupMillis per-pod time from binding to Ready
   */
  public SchedulerModel(SimCluster cluster, long preemptionDelayMillis, ToLongFunction<SimPod> startupMillis) {
    this.cluster = cluster;
    this.preemptionDelayMillis = preemptionDelayMillis;
    this.startupMillis = startupMillis;
    cluster.onSchedulingOpportunity(this::trigger);
  }

  /** Requests a scheduling pass at the current time (deduplicated). */
  public void trigger() {
    if (!queued) {
      queued = true;
      cluster.events().after(0, Phase.SCHEDULER, this::pass);
    }
  }

  /**
   * Turns on the check that backs "a real pod never waits for a virtual pod": after every pass, each real pod
   * still pending (and not nominated) is tried against every Ready node on a fork of the snapshot; a fit
   * would mean room sat idle while the pod waited, and is counted in {@link #idleRoomViolations()}.
   */
  public void verify(boolean on) {
    this.verify = on;
  }

  /** Pending real pods found to fit a Ready node after a pass (always 0 unless something is wrong). */
  public long idleRoomViolations() {
    return idleRoomViolations;
  }

  /** Scheduling passes run so far. */
  public long passes() {
    return passes;
  }

  /** Preemptions started so far. */
  public long preemptions() {
    return preemptions;
  }

  private void pass() {
    queued = false;
    passes++;
    List<SimPod> pending = new ArrayList<>();
    for (SimPod p : cluster.pendingPods()) {
      if (p.nominatedNode() == null) {
        pending.add(p);
      }
    }
    if (pending.isEmpty()) {
      return;
    }
    pending.sort(QUEUE_ORDER);
    ClusterSnapshot placement = cluster.placement();
    // pods of one owner with the same priority are identical: once one fits nowhere, the rest do not either
    Set<String> failedOwners = new HashSet<>();
    int readyNodes = 0;
    for (SimNode n : cluster.nodes()) {
      if (n.ready()) {
        readyNodes++;
      }
    }
    for (SimPod p : pending) {
      String key = p.owner() + "/" + p.priority();
      if (failedOwners.contains(key)) {
        if (!p.triedScheduling()) { // the message is rendered only for the first failure
          p.markUnschedulable(String.format(UNSCHEDULABLE_MESSAGE, readyNodes));
        }
        continue;
      }
      Placement placed = placement.schedulePodOnAnyNode(p.compiled(), i -> acceptable(placement, i));
      if (placed instanceof Placement.Placed at) {
        cluster.bind(p, at.nodeName(), startupMillis.applyAsLong(p));
        continue;
      }
      if (cluster.hasBoundPodBelow(p.priority()) && preempt(p)) {
        continue;
      }
      failedOwners.add(key);
      if (!p.triedScheduling()) {
        p.markUnschedulable(String.format(UNSCHEDULABLE_MESSAGE, readyNodes));
      }
    }
    cluster.changed();
    if (verify) {
      for (SimPod p : pending) {
        if (p.state() == SimPod.State.PENDING && p.nominatedNode() == null && p.real()) {
          placement.fork();
          try {
            if (placement.schedulePodOnAnyNode(p.compiled(), i -> acceptable(placement, i)).placed()) {
              idleRoomViolations++;
            }
          } finally {
            placement.revert();
          }
        }
      }
    }
  }

  private boolean acceptable(ClusterSnapshot placement, int index) {
    SimNode n = cluster.node(placement.node(index).name());
    return n != null && n.ready();
  }

  /**
   * Default preemption, simplified: on each Ready node, remove lower-priority pods (lowest priority first,
   * newest first) on a fork until the pod fits; pick the node needing the fewest victims (then the lowest
   * highest-victim priority, then the name).
   */
  private boolean preempt(SimPod p) {
    ClusterSnapshot placement = cluster.placement();
    String bestNode = null;
    List<SimPod> bestVictims = null;
    int bestTopPriority = Integer.MAX_VALUE;
    for (SimNode n : cluster.nodes()) {
      if (!n.ready()) {
        continue;
      }
      List<SimPod> lower = new ArrayList<>();
      for (String uid : n.pods()) {
        SimPod q = cluster.pod(uid);
        if (q != null && q.priority() < p.priority() && !q.victim()) {
          lower.add(q);
        }
      }
      if (lower.isEmpty()) {
        continue;
      }
      lower.sort(Comparator.comparingInt(SimPod::priority).thenComparing(Comparator.comparingLong(SimPod::createdAt).reversed()));
      int nodeIndex = placement.nodeIndex(n.name());
      placement.fork();
      List<SimPod> victims = new ArrayList<>();
      boolean fits = false;
      try {
        for (SimPod q : lower) {
          placement.removePod(q.uid());
          victims.add(q);
          if (placement.schedulePodOnAnyNode(p.compiled(), i -> i == nodeIndex).placed()) {
            fits = true;
            break;
          }
        }
      } finally {
        placement.revert();
      }
      if (!fits) {
        continue;
      }
      int top = victims.stream().mapToInt(SimPod::priority).max().orElse(Integer.MIN_VALUE);
      if (bestVictims == null || victims.size() < bestVictims.size()
          || (victims.size() == bestVictims.size() && top < bestTopPriority)) {
        bestNode = n.name();
        bestVictims = victims;
        bestTopPriority = top;
      }
    }
    if (bestNode == null) {
      return false;
    }
    preemptions++;
    List<SimPod> victims = bestVictims;
    String deletion = cluster.clock().instant().toString();
    victims.forEach(v -> v.markVictim(deletion));
    p.nominate(bestNode);
    cluster.changed();
    cluster.events().after(preemptionDelayMillis, Phase.LIFECYCLE, () -> {
      for (SimPod v : victims) {
        cluster.deletePod(v);
      }
      p.clearNomination();
      cluster.changed();
      trigger();
    });
    return true;
  }
}
