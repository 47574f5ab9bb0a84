package dev.headroom.core.autoscaler;

import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The decision part of scale-up (autoscaler spec §3.3–3.5): which groups grow by how many nodes for which of the
 * pods left after filter-out-schedulable. {@link Autoscaler} executes the options (caps, provider calls, backoff,
 * events). {@link PerGroupEstimates} (CA's per-group estimation) is the default; {@link OnePassScaleUp}, the one
 * provisioning pass over every group, is chosen with the {@code provisioning-pass} option; tests compare the two.
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
      Map<Pod, Map<String, Integer>> reasons) {}

  /** The options to execute, in order, each group at most once; their pods are disjoint. */
  List<ExpansionOption> plan(Input in);
}
