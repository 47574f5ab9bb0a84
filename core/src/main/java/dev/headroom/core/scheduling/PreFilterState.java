package dev.headroom.core.scheduling;

/**
 * What the filters compute about a pod alone, once per equivalence class (kube-scheduler's PreFilter, whose
 * results the Filter calls read): every pod of a class has the same spec, so one state serves them all. Made by
 * {@link FilterChain#preFilter}; the topology counters it registers are kept current by the snapshot from then on.
 */
final class PreFilterState {
  /** {@link NodeUnschedulable}: whether the class tolerates the unschedulable taint. */
  final boolean toleratesUnschedulable;
  /** {@link TaintToleration}: the answer per taint group. */
  final TaintToleration.State taints;
  /** {@link InterPodAffinity}: the counters of the class's terms and of the existing terms that select it. */
  final InterPodAffinity.State interPod;
  /** {@link PodTopologySpread}: the counters of the class's constraints. */
  final PodTopologySpread.State spread;

  PreFilterState(
      boolean toleratesUnschedulable, TaintToleration.State taints, InterPodAffinity.State interPod, PodTopologySpread.State spread) {
    this.toleratesUnschedulable = toleratesUnschedulable;
    this.taints = taints;
    this.interPod = interPod;
    this.spread = spread;
  }
}
