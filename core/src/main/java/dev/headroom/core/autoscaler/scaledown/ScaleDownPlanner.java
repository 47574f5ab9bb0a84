package dev.headroom.core.autoscaler.scaledown;

import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.EventRecord;
import dev.headroom.core.autoscaler.Events;
import dev.headroom.core.autoscaler.GroupOptions;
import dev.headroom.core.autoscaler.IterationResult.ScaleDownDecision;
import dev.headroom.core.autoscaler.IterationResult.UnneededNode;
import dev.headroom.core.autoscaler.IterationResult.UnremovableNode;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.NodeFacts;
import dev.headroom.core.autoscaler.ObjectRef;
import dev.headroom.core.autoscaler.SchedulingSimulation;
import dev.headroom.core.autoscaler.VirtualPods;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Scale-down planning (autoscaler spec §4, capacitybuffer spec §7.7, §8.3): finds removable nodes with a drain
 * simulation that re-places every pod of a candidate — virtual pods included — on the remaining nodes,
 * tracks unneeded-since timers, and deletes the nodes that have been unneeded long enough.
 */
public final class ScaleDownPlanner {

  /** A node that may be removed, with what would move. */
  public record Removable(Node node, String group, double utilization, boolean ready, List<Pod> podsToMove, double cost) {
    /** No pod (virtual ones included) has to move. */
    public boolean empty() {
      return podsToMove.isEmpty();
    }

    int realPods() {
      return (int) podsToMove.stream().filter(p -> !VirtualPods.isVirtual(p)).count();
    }
  }

  /** The planning outcome of one loop. */
  public record Plan(List<Removable> removable, List<UnneededNode> unneeded, List<UnremovableNode> unremovable) {}

  private final AutoscalerOptions options;
  private final AutoscalerState state;
  private final NodeGroupProvider provider;
  private final Consumer<EventRecord> emit;
  private final DrainRules rules;

  public ScaleDownPlanner(AutoscalerOptions options, AutoscalerState state, NodeGroupProvider provider, Consumer<EventRecord> emit) {
    this.options = options;
    this.state = state;
    this.provider = provider;
    this.emit = emit;
    this.rules = new DrainRules(options.skipNodesWithSystemPods(), options.skipNodesWithLocalStorage(), options.skipNodesWithCustomControllerPods());
  }

  private record Candidate(Node node, String group, double utilization, boolean ready, List<Pod> podsToMove, double cost,
      long realPods) {}

  /**
   * What one loop's scale-down plan reads (autoscaler spec §4).
   *
   * @param now the loop's time (unneeded-since timers, recheck deadlines, PDB and pod ages)
   * @param sim every registered node with its pods, plus the pending and virtual pods placed on existing capacity in
   *     this loop; the drain simulation forks it per candidate
   * @param nodes the registered nodes, in the loop's order
   * @param groupOfNode node name to the ID of its group (absent for nodes of no group)
   * @param facts what the loop read of each node object (name, Ready, being deleted, scale-down disabled)
   * @param destinations nodes moved pods may go to: Ready, not being deleted, not cordoned
   * @param placeholders names of the upcoming nodes' placeholders (never candidates)
   * @param notStarted registered nodes that have not started yet (neither candidates nor destinations)
   * @param pdbs the PodDisruptionBudgets the drained pods consume
   */
  public record Input(Instant now, SchedulingSimulation sim, List<Node> nodes,
      Map<String, GroupOptions> groupOptions, Map<String, String> groupOfNode, Map<Node, NodeFacts> facts, Set<String> destinations, Set<String> placeholders,
      Set<String> notStarted, List<PodDisruptionBudget> pdbs) {}

  /**
   * Finds removable nodes: the candidates (§4.2, §4.4: in a group, started, not being deleted or marked, not
   * recently unremovable, under the utilisation threshold, every pod drainable) in disruption-cost order (§4.6),
   * each kept when a drain simulation (§4.3) re-places its pods on the remaining destinations within the PDB
   * budgets; then the unneeded-since timers (§4.5) of the removable nodes.
   *
   * <p>The per-node and per-candidate steps are methods of their own: they run hundreds of times per loop, and
   * small compiled units keep the JIT's work (and its recompilations when a rare branch is first taken) small.
   */
  public Plan plan(Input in) {
    List<UnremovableNode> unremovable = new ArrayList<>();
    List<DrainRules.PdbBudget> budgets = new ArrayList<>();
    for (PodDisruptionBudget pdb : in.pdbs()) {
      budgets.add(new DrainRules.PdbBudget(pdb));
    }
    List<Candidate> candidates = new ArrayList<>();
    for (Node n : in.nodes()) {
      Candidate c = candidate(in, n, budgets, unremovable);
      if (c != null) {
        candidates.add(c);
      }
    }
    // Headroom disruption-cost order: cost, utilisation, real pods, name.
    candidates.sort(Comparator.comparingDouble(Candidate::cost)
        .thenComparingDouble(Candidate::utilization)
        .thenComparingLong(Candidate::realPods)
        .thenComparing(c -> c.node().getMetadata().getName()));
    Drain drain = new Drain(in, budgets, unremovable);
    for (Candidate c : candidates) {
      drain.consider(c);
    }
    drain.end();
    // Unneeded timers: kept while a node stays removable, reset when it drops out.
    Instant now = in.now();
    Set<String> names = new HashSet<>();
    List<UnneededNode> unneeded = new ArrayList<>();
    for (Removable r : drain.removable) {
      String name = r.node().getMetadata().getName();
      names.add(name);
      Instant since = state.unneededSince().computeIfAbsent(name, k -> now);
      unneeded.add(new UnneededNode(name, r.group(), since, r.empty(), r.utilization()));
    }
    state.unneededSince().keySet().retainAll(names);
    state.unremovableUntil().values().removeIf(t -> !now.isBefore(t));
    return new Plan(List.copyOf(drain.removable), List.copyOf(unneeded), List.copyOf(unremovable));
  }

  /**
   * Node {@code n} as a scale-down candidate with the pods that would move, or null when it is not one (the
   * reason, if any, is added to {@code unremovable}).
   */
  private Candidate candidate(Input in, Node n, List<DrainRules.PdbBudget> budgets, List<UnremovableNode> unremovable) {
    NodeFacts f = in.facts().get(n);
    String name = f.name();
    String group = in.groupOfNode().get(name);
    if (group == null) {
      return null;
    }
    if (in.notStarted().contains(name) || in.placeholders().contains(name)) {
      return null;
    }
    if (f.beingDeleted()) {
      unremovable.add(new UnremovableNode(name, UnremovableReason.CurrentlyBeingDeleted.name(), ""));
      return null;
    }
    if (f.scaleDownDisabled()) {
      unremovable.add(new UnremovableNode(name, UnremovableReason.ScaleDownDisabledAnnotation.name(), ""));
      return null;
    }
    Instant until = state.unremovableUntil().get(name);
    if (until != null && in.now().isBefore(until)) {
      unremovable.add(new UnremovableNode(name, UnremovableReason.RecentlyUnremovable.name(), ""));
      return null;
    }
    GroupOptions own = in.groupOptions().get(group);
    boolean ready = f.ready();
    SchedulingSimulation sim = in.sim();
    Utilization.Value u = sim.utilization(n, own.ignoreDaemonSetsUtilization());
    double threshold = u.gpu() ? own.scaleDownGpuUtilizationThreshold() : own.scaleDownUtilizationThreshold();
    if (ready && u.utilization() > threshold) {
      unremovable.add(new UnremovableNode(name, UnremovableReason.NotUnderutilized.name(), ""));
      return null;
    }
    List<Pod> toMove = new ArrayList<>();
    String blocked = null;
    for (Pod p : sim.podsOn(name)) {
      Drainability d = rules.classify(p, budgets, in.now());
      if (d instanceof Drainability.Blocked b) {
        blocked = b.reason().name() + " " + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        if (b.reason() == BlockingReason.BlockedByOnCompletionPod) {
          unremovable.add(new UnremovableNode(name, UnremovableReason.BlockedByOnCompletionPod.name(), blocked));
          blocked = "";
        }
        break;
      }
      if (d instanceof Drainability.Movable) {
        toMove.add(p);
      }
    }
    if (blocked != null) {
      if (!blocked.isEmpty()) {
        unremovable.add(new UnremovableNode(name, UnremovableReason.BlockedByPod.name(), blocked));
      }
      return null;
    }
    long realPods = 0;
    for (Pod p : toMove) {
      if (!VirtualPods.isVirtual(p)) {
        realPods++;
      }
    }
    return new Candidate(n, group, u.utilization(), ready, toMove, EvictionCost.ofNode(toMove), realPods);
  }

  /** The drain simulations of one plan, candidate by candidate in disruption-cost order. */
  private final class Drain {
    final Instant now;
    final SchedulingSimulation sim;
    /**
     * The nodes moved pods may go to: the input's destinations that have started. The nodes this plan removes are
     * closed in the simulation instead (a candidate for its own trial, a removable one from then on), so this
     * filter's answers hold for the whole plan and each node is asked once.
     */
    final Set<String> open;
    final java.util.function.Predicate<String> accepts;
    /** The nodes this plan closed, reopened when it ends (later steps of the loop place by their own filters). */
    final List<String> closed = new ArrayList<>();
    final List<DrainRules.PdbBudget> budgets;
    final List<UnremovableNode> unremovable;
    final List<Removable> removable = new ArrayList<>();
    /**
     * The pods an earlier removable candidate's simulation placed elsewhere, by the node they were placed on, in
     * placement order: they must move again if that node goes. A node only receives while it is open and is
     * drained at most once, so these are exactly its pods that moved, in the order the node holds them.
     */
    final Map<String, List<Pod>> movedOnto = new HashMap<>();
    int nonEmptyChecked;

    /** Moved pods may go to the input's destinations that have started (and are not removed by this plan). */
    Drain(Input in, List<DrainRules.PdbBudget> budgets, List<UnremovableNode> unremovable) {
      this.now = in.now();
      this.sim = in.sim();
      Set<String> notStarted = in.notStarted();
      this.open = new HashSet<>();
      for (String d : in.destinations()) {
        if (!notStarted.contains(d)) {
          open.add(d);
        }
      }
      this.accepts = open::contains;
      this.budgets = budgets;
      this.unremovable = unremovable;
    }

    /** Opens the nodes this plan closed: the removable ones stay empty, as the plan left them. */
    void end() {
      for (String n : closed) {
        sim.reopenNode(n);
      }
    }

    void consider(Candidate c) {
      String name = c.node().getMetadata().getName();
      List<Pod> toMove = new ArrayList<>(c.podsToMove());
      List<Pod> again = movedOnto.get(name);
      if (again != null) {
        toMove.addAll(again);
      }
      if (!c.podsToMove().isEmpty()) {
        if (nonEmptyChecked >= Math.max(options.scaleDownNonEmptyCandidatesCount(), 1)) {
          unremovable.add(new UnremovableNode(name, UnremovableReason.NodeGroupMaxDeletionCountReached.name(), "candidate limit"));
          return;
        }
        nonEmptyChecked++;
      }
      sim.fork();
      boolean ok = true;
      String failedPod = null;
      // the candidate takes none of its own pods: closed in this trial, and for good if it is removable
      sim.closeNode(name);
      sim.removePods(name, toMove);
      List<String> landed = new ArrayList<>(toMove.size());
      for (Pod p : toMove) {
        java.util.Optional<String> to = sim.schedule(p, accepts);
        if (to.isEmpty()) {
          ok = false;
          failedPod = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
          break;
        }
        landed.add(to.get());
      }
      if (ok) {
        sim.commit();
        closed.add(name);
        movedOnto.remove(name);
        for (int k = 0; k < toMove.size(); k++) {
          Pod p = toMove.get(k);
          movedOnto.computeIfAbsent(landed.get(k), d -> new ArrayList<>()).add(p);
          for (DrainRules.PdbBudget b : budgets) {
            if (b.matches(p)) {
              b.consume();
            }
          }
        }
        removable.add(new Removable(c.node(), c.group(), c.utilization(), c.ready(), List.copyOf(toMove), c.cost()));
      } else {
        sim.revert();
        state.unremovableUntil().put(name, now.plus(options.unremovableNodeRecheckTimeout()));
        unremovable.add(new UnremovableNode(name, UnremovableReason.NoPlaceToMovePods.name(),
            failedPod != null && failedPod.contains("/capacity-buffer-") ? "" : failedPod == null ? "" : failedPod));
      }
    }
  }

  /** True while deletion is in cooldown (§4.1). */
  public boolean inCooldown(Instant now) {
    return state.lastScaleUp().map(t -> now.isBefore(t.plus(options.scaleDownDelayAfterAdd()))).orElse(false)
        || state.lastScaleDownFailure().map(t -> now.isBefore(t.plus(options.scaleDownDelayAfterFailure()))).orElse(false)
        || state.lastScaleDownDelete().map(t -> now.isBefore(t.plus(options.scaleDownDelayAfterDelete()))).orElse(false);
  }

  /**
   * Deletes the nodes that have been unneeded long enough: empty ones in bulk (up to
   * {@code maxScaleDownParallelism}), the others up to {@code maxDrainParallelism}, never below a group's
   * {@code minSize}.
   */
  public List<ScaleDownDecision> actuate(Instant now, Plan plan, Map<String, NodeGroup> groups,
      Map<String, GroupOptions> groupOptions, Map<String, Node> nodes) {
    if (inCooldown(now)) {
      return List.of();
    }
    List<ScaleDownDecision> out = new ArrayList<>();
    Map<String, Integer> deletions = new HashMap<>();
    int empty = 0;
    int drained = 0;
    List<Removable> ordered = new ArrayList<>(plan.removable());
    // Empty nodes first (bulk), then the rest in disruption-cost order.
    ordered.sort(Comparator.comparing((Removable r) -> !r.empty()));
    for (Removable r : ordered) {
      String name = r.node().getMetadata().getName();
      NodeGroup g = groups.get(r.group());
      Instant since = state.unneededSince().get(name);
      GroupOptions own = groupOptions.get(g.id());
      Duration needed = r.ready() ? own.scaleDownUnneededTime() : own.scaleDownUnreadyTime();
      if (since == null || since.plus(needed).isAfter(now)) {
        continue;
      }
      int pendingDeletions = deletions.getOrDefault(g.id(), 0);
      if (g.targetSize() - pendingDeletions <= g.minSize()) {
        continue;
      }
      if (r.empty() ? empty >= options.maxScaleDownParallelism() : drained >= options.maxDrainParallelism()) {
        continue;
      }
      try {
        provider.deleteNodes(g.id(), List.of(r.node()));
      } catch (NodeGroupProvider.ProviderException e) {
        emit.accept(new EventRecord(new ObjectRef("Node", "", name, r.node().getMetadata().getUid()), EventRecord.WARNING,
            Events.SCALE_DOWN_FAILED, e.getMessage()));
        state.scaleDownFailedAt(now);
        continue;
      }
      deletions.merge(g.id(), 1, Integer::sum);
      if (r.empty()) {
        empty++;
      } else {
        drained++;
      }
      List<String> real = new ArrayList<>();
      for (Pod p : r.podsToMove()) {
        if (!VirtualPods.isVirtual(p)) {
          real.add(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName());
        }
      }
      String reason = !r.ready() ? "unready" : r.empty() ? "empty" : "underutilized";
      if (r.empty()) {
        emit.accept(new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, Events.SCALE_DOWN_EMPTY, String.format(Events.SCALE_DOWN_EMPTY_MSG, name)));
      } else {
        emit.accept(new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, Events.SCALE_DOWN,
            String.format(Events.SCALE_DOWN_MSG, name, r.utilization(), real)));
      }
      emit.accept(new EventRecord(new ObjectRef("Node", "", name, r.node().getMetadata().getUid()), EventRecord.NORMAL,
          Events.SCALE_DOWN, Events.SCALE_DOWN_NODE_MSG));
      out.add(new ScaleDownDecision(name, g.id(), reason, r.utilization(), List.copyOf(real)));
      state.unneededSince().remove(name);
    }
    if (!out.isEmpty()) {
      state.scaledDownAt(now);
    }
    return out;
  }
}
