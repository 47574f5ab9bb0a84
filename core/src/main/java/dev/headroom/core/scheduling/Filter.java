package dev.headroom.core.scheduling;

import java.util.List;

/**
 * One predicate of the Filter phase (spec §2.3), shaped as a kube-scheduler Filter plugin: against one node and
 * its aggregates it answers null (the pod passes) or the {@link Reason} it fails for, adding the reason's message
 * when {@code messages} is not null. What a filter needs to know about the pod alone is computed once per
 * equivalence class by its pre-filter ({@link PreFilterState}). {@link FilterChain} runs the filters in order, first
 * failure wins.
 *
 * <p>A filter has no side effects on the snapshot: a caller may run it on any node, in any order, any number of
 * times. {@code index} is the node's index in the snapshot, or -1 for a node-group template that is not in it.
 */
interface Filter {

  /** The kube-scheduler plugin name, e.g. {@code NodeResourcesFit}. */
  String name();

  /** Every reason this filter can report. */
  List<Reason> reasons();

  /** Null when {@code pod} passes on {@code node} (holding {@code aggregates}), else the reason it fails for. */
  Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages);

  /** Returns {@code r}, adding {@code message} to {@code messages} when they are collected. */
  static Reason fail(List<String> messages, Reason r, String message) {
    if (messages != null) {
      messages.add(message);
    }
    return r;
  }
}
