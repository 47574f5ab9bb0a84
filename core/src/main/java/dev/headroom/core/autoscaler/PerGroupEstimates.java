package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * CA's per-group estimation, the scale-up planner of {@code provisioning-pass=false} and the first tier of the default (autoscaler spec §3.3–3.5). Every valid group checks each equivalence class once on its template and binpacks every pod it
 * passes on copies of its template (first-fit decreasing, limited by maxNodesPerScaleUp, its room and
 * maxNodesTotal); the expander picks one option; with salvo scale-up the rest of the pods get another round over the
 * groups not used yet. Its cost grows with groups × pending pods; {@link OnePassScaleUp} scales with the catalogue;
 * by default {@link TieredScaleUp} runs both while this one is affordable, and
 * {@code ScaleUpPlannerDifferentialTest} compares them.
 */
final class PerGroupEstimates implements ScaleUpPlanner {

  @Override
  public List<ExpansionOption> plan(Input in) {
    List<Pod> all = new ArrayList<>(in.pods());
    Map<String, NodeGroup> groups = new LinkedHashMap<>();
    for (NodeGroup g : in.groups()) {
      groups.put(g.id(), g);
    }
    Set<String> used = new HashSet<>();
    int nodeCount = in.currentNodeCount();
    List<ExpansionOption> plan = new ArrayList<>();
    boolean first = true;
    while (!all.isEmpty()) {
      List<List<Pod>> classes = in.sim().equivalenceGroups(all);
      List<ExpansionOption> found = new ArrayList<>();
      for (NodeGroup g : groups.values()) {
        if (!used.contains(g.id())) {
          ExpansionOption o = option(in, g, classes, all, first, nodeCount);
          if (o != null) {
            found.add(o);
          }
        }
      }
      first = false;
      if (in.options().realPodsFirst() && found.stream().anyMatch(o -> o.pods().stream().anyMatch(p -> !VirtualPods.isVirtual(p)))) {
        found.removeIf(o -> o.pods().stream().allMatch(VirtualPods::isVirtual));
      }
      Optional<ExpansionOption> chosen = in.expanders().choose(found);
      if (chosen.isEmpty()) {
        break;
      }
      ExpansionOption o = chosen.get();
      plan.add(o);
      used.add(o.group().id());
      nodeCount += o.nodeCount();
      groups.put(o.group().id(), o.group().withTargetSize(o.group().targetSize() + o.nodeCount()));
      Set<Pod> helped = Collections.newSetFromMap(new IdentityHashMap<>());
      helped.addAll(o.pods());
      all.removeIf(helped::contains);
      if (!in.options().salvoScaleUp()) {
        break;
      }
    }
    return plan;
  }

  private static ExpansionOption option(Input in, NodeGroup g, List<List<Pod>> classes, List<Pod> all, boolean first, int nodeCount) {
    String skip = in.skipReason().apply(g);
    if (skip != null) {
      if (first) {
        for (Pod p : all) {
          in.reasons().computeIfAbsent(p, x -> new TreeMap<>()).merge(skip, 1, Integer::sum);
        }
      }
      return null;
    }
    Node template = in.templateNodes().get(g.id());
    List<Pod> candidates = new ArrayList<>();
    for (List<Pod> cls : classes) {
      Optional<String> failure = in.sim().checkOnTemplate(cls.get(0), template);
      if (failure.isPresent()) {
        if (first) {
          for (Pod p : cls) {
            in.reasons().computeIfAbsent(p, x -> new TreeMap<>()).merge(failure.get(), 1, Integer::sum);
          }
        }
      } else {
        candidates.addAll(cls);
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    int limit = Math.min(in.options().maxNodesPerScaleUp(), g.maxSize() - g.targetSize());
    if (in.options().maxNodesTotal() > 0) {
      limit = Math.min(limit, in.options().maxNodesTotal() - nodeCount);
    }
    if (limit <= 0) {
      return null;
    }
    SchedulingSimulation.Estimate est = in.sim().estimate(candidates, template, "template-" + g.id(), limit);
    if (est.nodeCount() <= 0 || est.pods().isEmpty()) {
      return null;
    }
    List<Map<String, Long>> reqs = new ArrayList<>(est.pods().size());
    for (Pod p : est.pods()) {
      reqs.add(in.sim().requests(p));
    }
    return new ExpansionOption(g, est.nodeCount(), est.pods(), reqs);
  }
}
