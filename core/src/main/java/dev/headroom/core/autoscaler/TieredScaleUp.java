package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.PlanComparator;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The default scale-up planner, the {@code provisioning-pass} option (on by default; autoscaler spec §3, Headroom): the provisioning pass
 * ({@link OnePassScaleUp}), checked against CA's per-group estimates ({@link PerGroupEstimates}) while those are
 * affordable, that is while (groups that may grow) × (pods to help) is at most
 * {@code provisioning-pass-estimate-budget}.
 * <ul>
 *   <li>Within the budget both run, each with its own reasons map, and each plan is reduced to what the loop would
 *       execute ({@link ScaleUpPlanner#executed}: the expander's pick, or every option with salvo scale-up). The
 *       pass's is kept only when it helps every pod the per-group one helps and is strictly better by the expander
 *       chain's own measures ({@link PlanComparator}); otherwise, ties included, the per-group one. The kept run's
 *       reasons become the loop's. The per-group path runs first on the loop's expander chain, so when it is kept the
 *       loop decides exactly as the default planner would.</li>
 *   <li>Beyond the budget (catalogue scale: thousands of groups × thousands of pods), or with a budget of 0, the pass
 *       alone, as if it were the only planner.</li>
 * </ul>
 * No single heuristic pass is no worse than CA's greedy in every case; the tier makes the decision no worse wherever
 * CA's cost (groups × pods estimates) is affordable, and the pass's cost alone where it is not.
 */
final class TieredScaleUp implements ScaleUpPlanner {

  private final ScaleUpPlanner pass = new OnePassScaleUp();
  private final ScaleUpPlanner perGroup = new PerGroupEstimates();

  @Override
  public List<ExpansionOption> plan(Input in) {
    if (!estimatesAffordable(in)) {
      return pass.plan(in);
    }
    Input caRun = in.withReasons(new IdentityHashMap<>());
    List<ExpansionOption> ca = ScaleUpPlanner.executed(caRun, perGroup.plan(caRun));
    Input passRun = in.withReasons(new IdentityHashMap<>());
    List<ExpansionOption> candidate = ScaleUpPlanner.executed(passRun, pass.plan(passRun));
    AutoscalerOptions options = in.options();
    PlanComparator comparator = new PlanComparator(options.expander(), in.groups(), options.expanderPriorities());
    boolean keepPass = helped(candidate).containsAll(helped(ca)) && comparator.compare(candidate, ca) < 0;
    Input kept = keepPass ? passRun : caRun;
    kept.reasons().forEach((pod, counts) -> in.reasons().put(pod, counts));
    return keepPass ? candidate : ca;
  }

  /** (groups that may grow) × (pods to help) within {@code provisioning-pass-estimate-budget}; never with budget 0. */
  static boolean estimatesAffordable(Input in) {
    int budget = in.options().provisioningPassEstimateBudget();
    if (budget <= 0) {
      return false;
    }
    long growable = 0;
    for (NodeGroup g : in.groups()) {
      if (in.skipReason().apply(g) == null) {
        growable++;
      }
    }
    return growable * in.pods().size() <= budget;
  }

  private static Set<Pod> helped(List<ExpansionOption> plan) {
    Set<Pod> out = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ExpansionOption o : plan) {
      out.addAll(o.pods());
    }
    return out;
  }
}
