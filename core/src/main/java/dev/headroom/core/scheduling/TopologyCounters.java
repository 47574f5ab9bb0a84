package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;

/**
 * The topology counters' definitions (spec §2.3, InterPodAffinity and PodTopologySpread): the topology keys and
 * their interned values, each node index's domain per key, the counter definitions (which pods a counter counts
 * and on which nodes) and the required anti-affinity terms of the pods in the snapshot. The per-domain values
 * ({@link DomainCounts}) are layered with the node store; a definition, once made, is kept for the snapshot's life.
 */
final class TopologyCounters {

  /** The per-domain counts of a definition as the snapshot's top layer sees them. */
  interface Values {
    DomainCounts counts(CounterDef def);
  }

  private final SchedulingCompiler compiler;
  private final IntFunction<CompiledNode> nodeAt;
  private final IntSupplier nodeCount;
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

  /** Definitions over the store's nodes: {@code nodeAt(i)} for every index below {@code nodeCount}. */
  TopologyCounters(SchedulingCompiler compiler, IntFunction<CompiledNode> nodeAt, IntSupplier nodeCount, int capacity) {
    this.compiler = compiler;
    this.nodeAt = nodeAt;
    this.nodeCount = nodeCount;
    this.capacity = capacity;
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

  /** Domain of node {@code index} for key {@code keyId} (-1: the node lacks the label). */
  int domain(int keyId, int index) {
    return domains[keyId][index];
  }

  /** Records the domains of {@code node}, now at {@code index}, for every key. */
  void setNode(int index, CompiledNode node) {
    for (int k = 0; k < keyNames.size(); k++) {
      domains[k][index] = domainOf(k, node);
    }
  }

  /** Grows the per-node domain arrays to {@code cap} node indexes. */
  void ensureCapacity(int cap) {
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
    for (int i = 0, n = nodeCount.getAsInt(); i < n; i++) {
      domains[k][i] = domainOf(k, nodeAt.apply(i));
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
}
