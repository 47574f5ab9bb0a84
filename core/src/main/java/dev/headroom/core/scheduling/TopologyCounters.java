package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The topology counters' definitions (spec §2.3, InterPodAffinity and PodTopologySpread): the topology keys and
 * their interned values, each node index's domain per key, the counter definitions (which pods a counter counts
 * and on which nodes) and the required anti-affinity terms of the pods in the snapshot; and the counters' values.
 * A definition, once made, is kept for the snapshot's life.
 *
 * <h2>Values</h2>
 * A definition's per-domain counts ({@link DomainCounts}) are kept in the {@link NodeStore}'s layers
 * ({@link NodeStore.Layer#counters}), so they drop and fold with the node states they count, with no second layer
 * stack to keep in step. A definition's counts are derived on their first read ({@link #counts}) from the base's
 * node states and then each layer's own (a layer costs its changes, not the nodes); from then on every store write
 * updates them ({@link #podAdded} and the other updates), a layer copying them from below on its first write.
 */
final class TopologyCounters {

  /** The per-domain counts of a definition as the snapshot's top layer sees them. */
  interface Values {
    DomainCounts counts(CounterDef def);
  }

  private final SchedulingCompiler compiler;
  private final NodeStore store;
  private int capacity;

  // Topology keys, their interned values, and each node index's domain per key (-1: no label).
  private final Map<String, Integer> keyIds = new HashMap<>();
  private final List<String> keyNames = new ArrayList<>();
  private final List<Map<String, Integer>> domainIds = new ArrayList<>();
  private int[][] domains = new int[0][];

  private final List<CounterDef> defs = new ArrayList<>();
  private final Map<CounterKey, CounterDef> defByKey = new HashMap<>();
  private final List<AffinityTerm> ownerTerms = new ArrayList<>();
  private final Map<AffinityTerm, Integer> ownerTermIds = new HashMap<>();

  /** The counters over {@code store}'s nodes, with their values in its layers. */
  TopologyCounters(SchedulingCompiler compiler, NodeStore store) {
    this.compiler = compiler;
    this.store = store;
    this.capacity = store.capacity();
  }

  /** Every counter definition, in creation order (ids are positions). */
  List<CounterDef> defs() {
    return defs;
  }

  /** True once a pod registered a counter. */
  boolean isEmpty() {
    return defs.isEmpty();
  }

  /** The required anti-affinity terms of the pods added so far, in first-seen order. */
  List<AffinityTerm> ownerTerms() {
    return ownerTerms;
  }

  /** The label key of {@code keyId}. */
  String keyName(int keyId) {
    return keyNames.get(keyId);
  }

  /** Domain of node {@code index} for key {@code keyId} (-1: the node lacks the label). */
  int domain(int keyId, int index) {
    return domains[keyId][index];
  }

  /** Records the domains of {@code node}, now at {@code index} in the store, for every key. */
  void setNode(int index, CompiledNode node) {
    ensureCapacity(store.capacity());
    for (int k = 0; k < keyNames.size(); k++) {
      domains[k][index] = domainOf(k, node);
    }
  }

  /** Grows the per-node domain arrays to {@code cap} node indexes. */
  private void ensureCapacity(int cap) {
    if (cap > capacity) {
      capacity = cap;
      for (int k = 0; k < domains.length; k++) {
        domains[k] = Arrays.copyOf(domains[k], cap);
      }
    }
  }

  enum Kind {
    /** Pods matching every term of a list (affinity: all of the incoming pod's terms; anti: one term). */
    ALL_TERMS,
    /** Non-terminating pods of a namespace matching a spread selector. */
    SPREAD,
    /** Pods carrying a given required anti-affinity term. */
    OWNER
  }

  record SpreadSelector(String namespace, LabelSelectorMatcher selector) {}

  /** Which nodes a spread constraint counts on: node inclusion policies plus all constraint keys. */
  record Eligibility(NodeAffinityMatcher affinity, List<Toleration> tolerations, List<String> keys) {}

  record CounterKey(Kind kind, Object matcher, String topologyKey, Eligibility eligibility) {}

  final class CounterDef {
    final int id;
    final CounterKey key;
    final int keyId;
    final int[] requiredKeys;
    byte[] classMatch = new byte[64];

    CounterDef(int id, CounterKey key) {
      this.id = id;
      this.key = key;
      this.keyId = keyId(key.topologyKey());
      if (key.eligibility() != null) {
        requiredKeys = key.eligibility().keys().stream().mapToInt(TopologyCounters.this::keyId).toArray();
      } else {
        requiredKeys = new int[] {keyId};
      }
    }

    boolean eligible(CompiledNode node) {
      for (int k : requiredKeys) {
        if (node.labels().get(keyNames.get(k)) == null) {
          return false;
        }
      }
      Eligibility e = key.eligibility();
      if (e == null) {
        return true;
      }
      if (!e.affinity().isAny() && !e.affinity().matches(node.labels(), node.name())) {
        return false;
      }
      return e.tolerations() == null || Tolerations.untolerated(node.taints(), e.tolerations()) == null;
    }

    boolean matches(CompiledPod pod) {
      int c = pod.classId();
      if (c >= classMatch.length) {
        classMatch = Arrays.copyOf(classMatch, Math.max(c + 1, classMatch.length * 2));
      }
      byte m = classMatch[c];
      if (m == 0) {
        m = compute(pod) ? (byte) 1 : (byte) 2;
        classMatch[c] = m;
      }
      return m == 1;
    }

    @SuppressWarnings("unchecked")
    private boolean compute(CompiledPod pod) {
      switch (key.kind()) {
        case ALL_TERMS -> {
          Map<String, String> ns = compiler.namespaceLabels(pod.namespace());
          for (AffinityTerm t : (List<AffinityTerm>) key.matcher()) {
            if (!t.matches(pod.namespace(), pod.labels(), ns)) {
              return false;
            }
          }
          return true;
        }
        case SPREAD -> {
          SpreadSelector sel = (SpreadSelector) key.matcher();
          return !pod.isTerminating() && sel.namespace().equals(pod.namespace()) && sel.selector().matches(pod.labels());
        }
        case OWNER -> {
          return pod.antiAffinity().contains((AffinityTerm) key.matcher());
        }
        default -> throw new IllegalStateException();
      }
    }

    /** How many times a matching pod counts (an owner with a term twice counts twice, like the scheduler). */
    int multiplicity(CompiledPod pod) {
      if (key.kind() != Kind.OWNER) {
        return 1;
      }
      int n = 0;
      for (AffinityTerm t : pod.antiAffinity()) {
        if (t.equals(key.matcher())) {
          n++;
        }
      }
      return n;
    }
  }

  CounterDef def(CounterKey key) {
    CounterDef d = defByKey.get(key);
    if (d == null) {
      d = new CounterDef(defs.size(), key);
      defs.add(d);
      defByKey.put(key, d);
    }
    return d;
  }

  int keyId(String key) {
    Integer id = keyIds.get(key);
    if (id != null) {
      return id;
    }
    int k = keyNames.size();
    keyIds.put(key, k);
    keyNames.add(key);
    domainIds.add(new HashMap<>());
    domains = Arrays.copyOf(domains, k + 1);
    domains[k] = new int[capacity];
    for (int i = 0, n = store.nodeCount(); i < n; i++) {
      domains[k][i] = domainOf(k, store.node(i));
    }
    return k;
  }

  private int domainOf(int keyId, CompiledNode node) {
    String v = node.labels().get(keyNames.get(keyId));
    if (v == null) {
      return -1;
    }
    Map<String, Integer> ids = domainIds.get(keyId);
    Integer d = ids.get(v);
    if (d == null) {
      d = ids.size();
      ids.put(v, d);
    }
    return d;
  }

  /** Domain of node {@code index} for key {@code keyId}: -1 without the label, -2 for an unseen value. */
  int domain(int keyId, int index, CompiledNode node) {
    if (index >= 0) {
      return domains[keyId][index];
    }
    String v = node.labels().get(keyNames.get(keyId));
    if (v == null) {
      return -1;
    }
    Integer d = domainIds.get(keyId).get(v);
    return d == null ? -2 : d;
  }

  void registerOwnerTerm(AffinityTerm t) {
    if (!ownerTermIds.containsKey(t)) {
      ownerTermIds.put(t, ownerTerms.size());
      ownerTerms.add(t);
      // Register the owner counter now so that every later add keeps it current.
      def(new CounterKey(Kind.OWNER, t, t.topologyKey(), null));
    }
  }
  /** The topology keys of the required anti-affinity terms of the pods in the snapshot (which new pods must respect). */
  Set<String> ownerTopologyKeys() {
    Set<String> keys = new TreeSet<>();
    for (AffinityTerm t : ownerTerms) {
      keys.add(t.topologyKey());
    }
    return keys;
  }

  // ---------------------------------------------------------------- values, kept current by the store's writes

  /** Node {@code id} was added to the store: records its domains, and every derived counter it is eligible for counts it. */
  void nodeAdded(int id, CompiledNode node) {
    setNode(id, node);
    for (CounterDef def : defs) {
      DomainCounts c = countsForWrite(def);
      if (c != null && def.eligible(node)) {
        c.addNode(id, domain(def.keyId, id));
      }
    }
  }

  /** Node {@code index}, whose pods were removed, is about to be removed from the store. */
  void nodeRemoved(int index) {
    for (CounterDef def : defs) {
      DomainCounts c = countsForWrite(def);
      if (c != null && c.eligible.get(index)) {
        c.removeNode(index, domain(def.keyId, index));
      }
    }
  }

  /** {@code pod} was added to node {@code index}: registers its anti-affinity terms and counts it. */
  void podAdded(CompiledPod pod, int index) {
    registerOwnerTerms(pod);
    count(pod, index, 1);
  }

  /** {@code pod} was removed from node {@code index}. */
  void podRemoved(CompiledPod pod, int index) {
    count(pod, index, -1);
  }

  /** Registers the owner counters of {@code pod}'s required anti-affinity terms. */
  void registerOwnerTerms(CompiledPod pod) {
    List<AffinityTerm> anti = pod.antiAffinity();
    for (int k = 0; k < anti.size(); k++) {
      registerOwnerTerm(anti.get(k));
    }
  }

  private void count(CompiledPod pod, int index, int sign) {
    for (int d = 0; d < defs.size(); d++) {
      CounterDef def = defs.get(d);
      if (def.matches(pod)) {
        DomainCounts c = countsForWrite(def);
        if (c != null && c.eligible.get(index)) {
          c.addCount(domain(def.keyId, index), sign * def.multiplicity(pod));
        }
      }
    }
  }

  /** The counts of {@code def} as the store's top layer sees them, deriving them from the layers when missing. */
  DomainCounts counts(CounterDef def) {
    for (NodeStore.Layer l = store.top(); l != null; l = l.parent) {
      DomainCounts c = l.counters.get(def.id);
      if (c != null) {
        return c;
      }
    }
    return derive(def, store.top());
  }

  /** The counts of {@code def} in {@code layer}: those of its parent (derived first), with the layer's own states. */
  private DomainCounts derive(CounterDef def, NodeStore.Layer layer) {
    DomainCounts parent = null;
    if (layer.parent != null) {
      parent = layer.parent.counters.get(def.id);
      if (parent == null) {
        parent = derive(def, layer.parent);
      }
    }
    DomainCounts c = parent == null ? new DomainCounts() : parent.copy();
    if (layer.states != null) {
      for (int i = 0; i < layer.states.length && i < layer.nodeCount; i++) {
        NodeState s = layer.states[i];
        if (s == null) {
          continue;
        }
        if (parent != null && parent.eligible.get(i)) {
          NodeState old = layer.parent == null ? null : NodeStore.stateAt(layer.parent, i);
          if (old != null && old != NodeStore.REMOVED) {
            c.addCount(domain(def.keyId, i), -matching(def, old));
          }
          c.removeNode(i, domain(def.keyId, i));
        }
        if (s != NodeStore.REMOVED && def.eligible(store.node(i))) {
          c.addNode(i, domain(def.keyId, i));
          c.addCount(domain(def.keyId, i), matching(def, s));
        }
      }
    }
    layer.counters.put(def.id, c);
    return c;
  }

  private static int matching(CounterDef def, NodeState s) {
    int n = 0;
    for (int k = 0; k < s.podCount; k++) {
      CompiledPod p = s.pod(k);
      if (def.matches(p)) {
        n += def.multiplicity(p);
      }
    }
    return n;
  }

  /** The top layer's own copy of the counts of {@code def}, or null when no layer has derived them yet. */
  private DomainCounts countsForWrite(CounterDef def) {
    NodeStore.Layer top = store.top();
    DomainCounts own = top.counters.get(def.id);
    if (own != null) {
      return own;
    }
    for (NodeStore.Layer l = top.parent; l != null; l = l.parent) {
      DomainCounts c = l.counters.get(def.id);
      if (c != null) {
        DomainCounts copy = c.copy();
        top.counters.put(def.id, copy);
        return copy;
      }
    }
    return null;
  }
}
