package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Scale-up as one provisioning pass over every group (autoscaler spec §3, Headroom):
 * <ol>
 *   <li>the pods (real first, then virtual) are placed in one pass onto open new nodes, each carrying the groups
 *       still compatible with every pod on it ({@link SchedulingSimulation#provision}); groups that are backed off
 *       or at their maximum size open no node, and the pass opens at most {@code maxNodesPerScaleUp} nodes and no
 *       more than {@code maxNodesTotal} allows. A node opens with the group the expander chain prefers for the
 *       pods of the opening pod's shape (node affinity, tolerations, requests);</li>
 *   <li>each open node, in opening order, is resolved to one of its groups that still has room by the expander
 *       chain, over one option per candidate group (that group, one node, the node's pods);</li>
 *   <li>the nodes resolved to one group become that group's option: every group grows at most once per loop, and
 *       the options' pods are disjoint.</li>
 * </ol>
 * The work grows with pods and open nodes, not with pods × groups as CA's per-group estimate (every group packs
 * every pod it passes on, the expander picks one group). It is the {@code provisioning-pass} planner
 * ({@link TieredScaleUp}) alone beyond {@code provisioning-pass-estimate-budget}, and checked against the per-group
 * estimates within it.
 */
final class OnePassScaleUp implements ScaleUpPlanner {

  @Override
  public List<ExpansionOption> plan(Input in) {
    List<NodeGroup> groups = in.groups();
    List<Node> templates = new ArrayList<>(groups.size());
    boolean[] open = new boolean[groups.size()];
    int[] room = new int[groups.size()];
    for (int i = 0; i < groups.size(); i++) {
      NodeGroup g = groups.get(i);
      templates.add(in.templateNodes().get(g.id()));
      open[i] = in.skipReason().apply(g) == null;
      room[i] = open[i] ? g.maxSize() - g.targetSize() : 0;
    }
    AutoscalerOptions options = in.options();
    int limit = options.maxNodesPerScaleUp();
    if (options.maxNodesTotal() > 0) {
      limit = Math.min(limit, options.maxNodesTotal() - in.currentNodeCount());
    }
    List<SchedulingSimulation.NewNode> nodes = limit > 0 ? in.sim().provision(in.pods(), templates, open, limit, preference(in, room), ownNodesFirst(options)) : List.of();

    Map<String, Integer> indexOf = new java.util.HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      indexOf.put(groups.get(i).id(), i);
    }
    Map<Integer, List<SchedulingSimulation.NewNode>> byGroup = new LinkedHashMap<>();
    for (SchedulingSimulation.NewNode n : nodes) {
      List<Map<String, Long>> reqs = new ArrayList<>(n.pods().size());
      for (Pod p : n.pods()) {
        reqs.add(in.sim().requests(p));
      }
      List<Map<String, Long>> requests = List.copyOf(reqs);
      List<ExpansionOption> perGroup = new ArrayList<>(n.candidates().length);
      for (int c : n.candidates()) {
        if (room[c] > 0) {
          perGroup.add(new ExpansionOption(groups.get(c), 1, n.pods(), requests));
        }
      }
      Optional<ExpansionOption> chosen = in.expanders().choose(perGroup);
      if (chosen.isPresent()) {
        int g = indexOf.get(chosen.get().group().id());
        room[g]--;
        byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(n);
      }
    }

    List<ExpansionOption> plan = new ArrayList<>(byGroup.size());
    Set<Pod> helped = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Map.Entry<Integer, List<SchedulingSimulation.NewNode>> e : byGroup.entrySet()) {
      List<Pod> pods = new ArrayList<>();
      List<Map<String, Long>> reqs = new ArrayList<>();
      for (SchedulingSimulation.NewNode n : e.getValue()) {
        for (Pod p : n.pods()) {
          pods.add(p);
          reqs.add(in.sim().requests(p));
          helped.add(p);
        }
      }
      plan.add(new ExpansionOption(groups.get(e.getKey()), e.getValue().size(), pods, reqs));
    }
    List<Pod> unhelped = new ArrayList<>();
    for (Pod p : in.pods()) {
      if (!helped.contains(p)) {
        unhelped.add(p);
      }
    }
    countReasons(in, unhelped);
    return plan;
  }

  /**
   * Own nodes first (the pass's {@code Provisioner.Order.OWN_NODES_FIRST}) exactly where every option of the plan is
   * executed, salvo scale-up (and so {@code plan} beyond the estimate budget): the pods that need a node of their own
   * are placed first, each on the smallest template that takes it and an even share of the pass's requests, and the
   * other pods fill those nodes' slack, which lowers the capacity provisioned per requested CPU (docs/performance.md,
   * issue #25). With one option executed per loop the pass keeps its default order: the executed option is one group's
   * nodes, and the pass alone decided worse than the per-group path in more cases there with own nodes first
   * ({@code ScaleUpPlannerDifferentialTest}).
   */
  static boolean ownNodesFirst(AutoscalerOptions options) {
    return options.salvoScaleUp();
  }

  /**
   * The group a new node opens with for pods of one shape: the expander chain's choice among one option per
   * compatible group with room, "as many of its nodes as those pods need" (the count from how many fit one node,
   * CA's fast-path estimate), so that the group CA's per-group estimation would pick for them is where their nodes
   * start.
   */
  private static SchedulingSimulation.Preference preference(Input in, int[] room) {
    List<NodeGroup> groups = in.groups();
    return (exemplar, count, ts, perNode) -> {
      Map<String, Long> all = new java.util.HashMap<>();
      in.sim().requests(exemplar).forEach((k, v) -> all.put(k, v * count));
      List<Map<String, Long>> reqs = List.of(all);
      List<Pod> pods = List.of(exemplar);
      List<ExpansionOption> choices = new ArrayList<>(ts.length);
      Map<ExpansionOption, Integer> index = new IdentityHashMap<>();
      for (int k = 0; k < ts.length; k++) {
        int n = Math.min((count + perNode[k] - 1) / perNode[k], Math.max(1, room[ts[k]]));
        ExpansionOption o = new ExpansionOption(groups.get(ts[k]), n, pods, reqs);
        choices.add(o);
        index.put(o, ts[k]);
      }
      return in.expanders().choose(choices).map(index::get).orElse(-1);
    };
  }

  /**
   * For each pod, the reasons the groups refuse it (skip reason, or the predicate that fails on the group's
   * template), counted per group; checked once per equivalence class.
   */
  static void countReasons(Input in, List<Pod> pods) {
    if (pods.isEmpty()) {
      return;
    }
    List<List<Pod>> classes = in.sim().equivalenceGroups(pods);
    // per class, reason -> groups giving it; then one merge per pod and distinct reason (not per pod and group)
    List<Map<String, Integer>> perClass = new ArrayList<>(classes.size());
    for (int c = 0; c < classes.size(); c++) {
      perClass.add(new TreeMap<>());
    }
    for (NodeGroup g : in.groups()) {
      String skip = in.skipReason().apply(g);
      for (int c = 0; c < classes.size(); c++) {
        String reason = skip != null ? skip
            : in.sim().checkOnTemplate(classes.get(c).get(0), in.templateNodes().get(g.id())).orElse(null);
        if (reason != null) {
          perClass.get(c).merge(reason, 1, Integer::sum);
        }
      }
    }
    for (int c = 0; c < classes.size(); c++) {
      Map<String, Integer> counts = perClass.get(c);
      if (counts.isEmpty()) {
        continue;
      }
      for (Pod p : classes.get(c)) {
        Map<String, Integer> mine = in.reasons().computeIfAbsent(p, x -> new TreeMap<>());
        counts.forEach((reason, n) -> mine.merge(reason, n, Integer::sum));
      }
    }
  }

}
