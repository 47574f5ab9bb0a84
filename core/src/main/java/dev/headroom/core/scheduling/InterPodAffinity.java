package dev.headroom.core.scheduling;

import dev.headroom.core.scheduling.TopologyCounters.CounterDef;
import dev.headroom.core.scheduling.TopologyCounters.CounterKey;
import dev.headroom.core.scheduling.TopologyCounters.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Spec §2.3 row 7, required terms only: the pod's affinity terms need a matching pod in the node's domain of each
 * term (unless no pod matches anywhere and the pod matches its own terms: the first pod of a self-affine set), its
 * anti-affinity terms need none, and no existing pod's anti-affinity term may select the pod in the node's domain.
 *
 * <p>Pre-filter ({@link State}, once per class): the topology counter of each of the pod's terms, and, as pods with
 * new anti-affinity terms join the snapshot, the counters of those terms that select the pod. The counts per domain
 * are the snapshot's ({@link TopologyCounters.Values}), kept current on every add and remove.
 */
final class InterPodAffinity implements Filter {

  /** One class's counters. */
  static final class State {
    final boolean hasTerms;
    final CounterDef[] affinityDefs;
    final boolean matchesOwnAffinity;
    final CounterDef[] antiDefs;
    /** Counters of the existing pods' anti-affinity terms that select the class, up to {@code ownerTermsSeen}. */
    CounterDef[] ownerDefs = new CounterDef[0];
    int ownerTermsSeen;

    State(boolean hasTerms, CounterDef[] affinityDefs, boolean matchesOwnAffinity, CounterDef[] antiDefs) {
      this.hasTerms = hasTerms;
      this.affinityDefs = affinityDefs;
      this.matchesOwnAffinity = matchesOwnAffinity;
      this.antiDefs = antiDefs;
    }
  }

  private final SchedulingCompiler compiler;
  private final TopologyCounters topology;
  private final TopologyCounters.Values values;

  InterPodAffinity(SchedulingCompiler compiler, TopologyCounters topology, TopologyCounters.Values values) {
    this.compiler = compiler;
    this.topology = topology;
    this.values = values;
  }

  @Override
  public String name() {
    return "InterPodAffinity";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.POD_AFFINITY_MISSING_KEY, Reason.POD_AFFINITY, Reason.POD_ANTI_AFFINITY, Reason.EXISTING_ANTI_AFFINITY);
  }

  /** Registers a counter per affinity term set key and per anti-affinity term. */
  State preFilter(CompiledPod pod) {
    Map<String, String> nsLabels = compiler.namespaceLabels(pod.namespace());
    CounterDef[] affinityDefs = new CounterDef[pod.affinity().size()];
    boolean own = true;
    for (int k = 0; k < affinityDefs.length; k++) {
      AffinityTerm term = pod.affinity().get(k);
      affinityDefs[k] = topology.def(new CounterKey(Kind.ALL_TERMS, pod.affinity(), term.topologyKey(), null));
      own &= term.matches(pod.namespace(), pod.labels(), nsLabels);
    }
    CounterDef[] antiDefs = new CounterDef[pod.antiAffinity().size()];
    for (int k = 0; k < antiDefs.length; k++) {
      AffinityTerm term = pod.antiAffinity().get(k);
      antiDefs[k] = topology.def(new CounterKey(Kind.ALL_TERMS, List.of(term), term.topologyKey(), null));
    }
    return new State(!pod.affinity().isEmpty() || !pod.antiAffinity().isEmpty(), affinityDefs, own, antiDefs);
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    State st = state.interPod;
    if (!st.hasTerms && topology.ownerTerms().isEmpty()) {
      return null;
    }
    Reason r = check(pod, st, index, node);
    return r == null ? null : Filter.fail(messages, r, r.message());
  }

  private Reason check(CompiledPod pod, State st, int index, CompiledNode node) {
    // Affinity: every term's key on the node, and a matching pod in each term's domain, unless no pod
    // matches anywhere and the pod matches its own terms (first pod of a self-affine set).
    if (st.affinityDefs.length > 0) {
      boolean podsExist = true;
      for (int k = 0; k < st.affinityDefs.length; k++) {
        CounterDef def = st.affinityDefs[k];
        int d = topology.domain(def.keyId, index, node);
        if (d == -1) {
          return Reason.POD_AFFINITY_MISSING_KEY;
        }
        if (values.counts(def).count(d) <= 0) {
          podsExist = false;
        }
      }
      if (!podsExist) {
        boolean anyMatch = false;
        for (CounterDef def : st.affinityDefs) {
          if (values.counts(def).total > 0) {
            anyMatch = true;
            break;
          }
        }
        if (anyMatch || !st.matchesOwnAffinity) {
          return Reason.POD_AFFINITY;
        }
      }
    }
    // Anti-affinity of the incoming pod.
    for (CounterDef def : st.antiDefs) {
      int d = topology.domain(def.keyId, index, node);
      if (d != -1 && values.counts(def).count(d) > 0) {
        return Reason.POD_ANTI_AFFINITY;
      }
    }
    // Existing pods' anti-affinity terms that select the incoming pod.
    if (!topology.ownerTerms().isEmpty()) {
      refreshOwnerDefs(pod, st);
      for (CounterDef def : st.ownerDefs) {
        int d = topology.domain(def.keyId, index, node);
        if (d != -1 && values.counts(def).count(d) > 0) {
          return Reason.EXISTING_ANTI_AFFINITY;
        }
      }
    }
    return null;
  }

  /** Adds the counters of the anti-affinity terms registered since the last look that select the class. */
  private void refreshOwnerDefs(CompiledPod pod, State st) {
    List<AffinityTerm> terms = topology.ownerTerms();
    if (st.ownerTermsSeen == terms.size()) {
      return;
    }
    List<CounterDef> defs = new ArrayList<>(Arrays.asList(st.ownerDefs));
    for (int i = st.ownerTermsSeen; i < terms.size(); i++) {
      AffinityTerm t = terms.get(i);
      if (t.matches(pod.namespace(), pod.labels(), compiler.namespaceLabels(pod.namespace()))) {
        defs.add(topology.def(new CounterKey(Kind.OWNER, t, t.topologyKey(), null)));
      }
    }
    st.ownerDefs = defs.toArray(new CounterDef[0]);
    st.ownerTermsSeen = terms.size();
  }
}
