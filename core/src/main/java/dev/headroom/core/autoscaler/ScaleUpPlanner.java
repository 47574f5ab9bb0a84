package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The decision part of scale-up (autoscaler spec §3.3–3.5): which groups grow by how many nodes for which of the
 * pods left after filter-out-schedulable. {@link Autoscaler} executes the options (caps, provider calls, backoff,
 * events). By default ({@code provisioning-pass}, on), {@link TieredScaleUp}: {@link OnePassScaleUp}, the one
 * provisioning pass over every group, checked against CA's per-group estimation ({@link PerGroupEstimates}) while it is
 * affordable ({@code provisioning-pass-estimate-budget}); with {@code provisioning-pass=false} the per-group
 * estimation alone. Tests compare them.
 */
interface ScaleUpPlanner {

  /**
   * What a planner reads.
   *
   * @param sim the loop's simulation (existing and upcoming nodes, pods placed by filter-out-schedulable)
   * @param groups every group, in provider order, with this loop's target sizes
   * @param templateNodes each group's sanitised template node, by group id
   * @param skipReason why a group cannot grow now (§3.2), or null
   * @param pods the pods to help: real pods, then virtual pods
   * @param currentNodeCount nodes in the snapshot, upcoming placeholders included
   * @param options the autoscaler options
   * @param expanders the loop's expander chain
   * @param reasons filled by the planner: for each pod it does not help, reason text → number of groups
   */
  record Input(
      SchedulingSimulation sim,
      List<NodeGroup> groups,
      Map<String, Node> templateNodes,
      Function<NodeGroup, String> skipReason,
      List<Pod> pods,
      int currentNodeCount,
      AutoscalerOptions options,
      Expanders expanders,
      Map<Pod, Map<String, Integer>> reasons) {

    /** This input with another reasons map (each planner run of one loop fills its own). */
    Input withReasons(Map<Pod, Map<String, Integer>> other) {
      return new Input(sim, groups, templateNodes, skipReason, pods, currentNodeCount, options, expanders, other);
    }
  }

  /** The options to execute, in order, each group at most once; their pods are disjoint. */
  List<ExpansionOption> plan(Input in);

  /** The planner the options select: {@link TieredScaleUp} with {@code provisioning-pass}, else {@link PerGroupEstimates}. */
  static ScaleUpPlanner of(AutoscalerOptions options) {
    return options.provisioningPass() ? new TieredScaleUp() : new PerGroupEstimates();
  }

  /**
   * What the loop executes of a plan. With salvo scale-up, every option. Otherwise CA's default, one group per loop:
   * the expander chain's pick among the plan's options, among those that help real pods when any does and
   * {@code realPodsFirst} is on; the pods of the other options wait for the next loop (which sees the chosen group's
   * nodes as upcoming), and the groups refusing them are counted into {@code in.reasons()}.
   */
  static List<ExpansionOption> executed(Input in, List<ExpansionOption> plan) {
    if (in.options().salvoScaleUp()) {
      return plan;
    }
    List<ExpansionOption> choices = new ArrayList<>(plan);
    if (in.options().realPodsFirst() && choices.stream().anyMatch(o -> o.pods().stream().anyMatch(p -> !VirtualPods.isVirtual(p)))) {
      choices.removeIf(o -> o.pods().stream().allMatch(VirtualPods::isVirtual));
    }
    List<ExpansionOption> chosen = in.expanders().choose(choices).map(List::of).orElse(List.of());
    List<Pod> waiting = new ArrayList<>();
    for (ExpansionOption o : plan) {
      if (!chosen.contains(o)) {
        waiting.addAll(o.pods());
      }
    }
    OnePassScaleUp.countReasons(in, waiting);
    return chosen;
  }
}
