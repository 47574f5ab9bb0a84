package dev.headroom.core.scheduling;

import java.util.List;

/**
 * The Filter phase of spec §2.3: the filters in the spec's order, first failure wins. That is kube-scheduler's
 * default plugin order ({@code pkg/scheduler/apis/config/v1/default_plugins.go}) for the plugins Headroom
 * simulates, except for the last two: the scheduler runs PodTopologySpread before InterPodAffinity, the spec (and so
 * every reason Headroom has reported) InterPodAffinity first. A pod with unsupported fields fails before any filter.
 *
 * <p>The chain calls each filter through a field of its own class (not through the list), so the JIT sees one
 * receiver type per call; {@link #filters()} is the same order as a list, for reading and for tests.
 */
final class FilterChain {

  private final NodeUnschedulable nodeUnschedulable = new NodeUnschedulable();
  private final NodeName nodeName = new NodeName();
  private final TaintToleration taintToleration = new TaintToleration();
  private final NodeAffinity nodeAffinity = new NodeAffinity();
  private final NodePorts nodePorts = new NodePorts();
  private final NodeResourcesFit nodeResourcesFit;
  private final InterPodAffinity interPodAffinity;
  private final PodTopologySpread podTopologySpread;
  private final List<Filter> filters;

  /** The chain over {@code topology}'s counters, whose per-domain counts {@code values} gives. */
  FilterChain(SchedulingCompiler compiler, TopologyCounters topology, TopologyCounters.Values values) {
    nodeResourcesFit = new NodeResourcesFit(compiler.resources());
    interPodAffinity = new InterPodAffinity(compiler, topology, values);
    podTopologySpread = new PodTopologySpread(topology, values);
    filters =
        List.of(nodeUnschedulable, nodeName, taintToleration, nodeAffinity, nodePorts, nodeResourcesFit, interPodAffinity, podTopologySpread);
  }

  /** The filters in the order they run. */
  List<Filter> filters() {
    return filters;
  }

  /** Every filter's pre-filter for {@code pod}'s class (registers the class's topology counters). */
  PreFilterState preFilter(CompiledPod pod) {
    boolean tolerates = nodeUnschedulable.preFilter(pod);
    TaintToleration.State taints = taintToleration.preFilter(pod);
    InterPodAffinity.State interPod = interPodAffinity.preFilter(pod);
    PodTopologySpread.State spread = podTopologySpread.preFilter(pod);
    return new PreFilterState(tolerates, taints, interPod, spread);
  }

  /** The first failing filter's reason for {@code pod} on {@code node}, or null when it fits; see {@link Filter}. */
  Reason firstFailure(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    Reason r;
    if ((r = nodeUnschedulable.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = nodeName.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = taintToleration.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = nodeAffinity.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = nodePorts.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = nodeResourcesFit.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = interPodAffinity.filter(pod, state, index, node, aggregates, messages)) != null
        || (r = podTopologySpread.filter(pod, state, index, node, aggregates, messages)) != null) {
      return r;
    }
    return null;
  }

  /** The failure of a pod with unsupported fields, which no filter sees. */
  static Reason unsupported(CompiledPod pod, List<String> messages) {
    return Filter.fail(messages, Reason.UNSUPPORTED, Reason.UNSUPPORTED.message(String.join(", ", pod.unsupported())));
  }
}
