package dev.headroom.core.scheduling;

import dev.headroom.core.scheduling.TopologyCounters.CounterDef;
import dev.headroom.core.scheduling.TopologyCounters.CounterKey;
import dev.headroom.core.scheduling.TopologyCounters.Eligibility;
import dev.headroom.core.scheduling.TopologyCounters.Kind;
import dev.headroom.core.scheduling.TopologyCounters.SpreadSelector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Spec §2.3 row 8, {@code whenUnsatisfiable: DoNotSchedule} constraints: the node must carry each constraint's
 * topology key, and placing the pod there must keep {@code count(domain) + self − min} within {@code maxSkew}, where
 * {@code min} is the smallest count over eligible domains (0 below {@code minDomains}).
 *
 * <p>Pre-filter ({@link State}, once per class): one topology counter per constraint, counting the namespace's pods
 * that match its selector on eligible nodes (the node inclusion policies and all of the pod's constraint keys), and
 * whether the selector matches the pod itself. A template node ({@code index} -1) that opens a new domain counts as
 * one more domain with count 0.
 */
final class PodTopologySpread implements Filter {

  /** One class's counters. */
  static final class State {
    final CounterDef[] spreadDefs;
    final boolean[] selfMatch;

    State(CounterDef[] spreadDefs, boolean[] selfMatch) {
      this.spreadDefs = spreadDefs;
      this.selfMatch = selfMatch;
    }
  }

  private final TopologyCounters topology;
  private final TopologyCounters.Values values;

  PodTopologySpread(TopologyCounters topology, TopologyCounters.Values values) {
    this.topology = topology;
    this.values = values;
  }

  @Override
  public String name() {
    return "PodTopologySpread";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.TOPOLOGY_SPREAD_MISSING_LABEL, Reason.TOPOLOGY_SPREAD);
  }

  /** Registers a counter per constraint. */
  State preFilter(CompiledPod pod) {
    CounterDef[] defs = new CounterDef[pod.spread().size()];
    boolean[] selfMatch = new boolean[defs.length];
    List<String> keys = new ArrayList<>();
    for (SpreadConstraint sc : pod.spread()) {
      if (!keys.contains(sc.topologyKey())) {
        keys.add(sc.topologyKey());
      }
    }
    Collections.sort(keys);
    for (int k = 0; k < defs.length; k++) {
      SpreadConstraint sc = pod.spread().get(k);
      Eligibility e =
          new Eligibility(
              sc.honorNodeAffinity() ? pod.nodeAffinity() : NodeAffinityMatcher.ANY,
              sc.honorTaints() ? pod.tolerations() : null,
              List.copyOf(keys));
      defs[k] = topology.def(new CounterKey(Kind.SPREAD, new SpreadSelector(pod.namespace(), sc.selector()), sc.topologyKey(), e));
      selfMatch[k] = sc.selector().matches(pod.labels());
    }
    return new State(defs, selfMatch);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    State st = state.spread;
    if (st.spreadDefs.length == 0) {
      return null;
    }
    Reason r = check(pod, st, index, node);
    return r == null ? null : Filter.fail(messages, r, r.message());
  }

  private Reason check(CompiledPod pod, State st, int index, CompiledNode node) {
    for (CounterDef def : st.spreadDefs) {
      if (topology.domain(def.keyId, index, node) == -1) {
        return Reason.TOPOLOGY_SPREAD_MISSING_LABEL;
      }
    }
    for (int k = 0; k < st.spreadDefs.length; k++) {
      SpreadConstraint sc = pod.spread().get(k);
      CounterDef def = st.spreadDefs[k];
      DomainCounts c = values.counts(def);
      int d = topology.domain(def.keyId, index, node);
      int domainCount = c.domainCount;
      int min = c.min;
      if (index < 0 && def.eligible(node) && (d < 0 || c.nodesPerDomain(d) == 0)) {
        domainCount++; // the template node opens a new domain with count 0
        min = 0;
      }
      min = domainCount < sc.minDomains() ? 0 : min;
      long skew = (long) c.count(d) + (st.selfMatch[k] ? 1 : 0) - min;
      if (skew > sc.maxSkew()) {
        return Reason.TOPOLOGY_SPREAD;
      }
    }
    return null;
  }
}
