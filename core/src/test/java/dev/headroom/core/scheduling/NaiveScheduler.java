package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reference implementation for tests: the predicate table recomputed from scratch on every check by
 * scanning every pod, no memo, no counters, no indexes; fork by deep copy.
 */
final class NaiveScheduler {

  static final class NodeEntry {
    final CompiledNode node;
    final List<CompiledPod> pods = new ArrayList<>();

    NodeEntry(CompiledNode node) {
      this.node = node;
    }
  }

  private final SchedulingCompiler compiler;
  List<NodeEntry> nodes = new ArrayList<>();
  int lastMatch = -1;
  private final List<Object[]> saved = new ArrayList<>();

  NaiveScheduler(SchedulingCompiler compiler) {
    this.compiler = compiler;
  }

  void fork() {
    List<NodeEntry> copy = new ArrayList<>();
    for (NodeEntry e : nodes) {
      NodeEntry c = new NodeEntry(e.node);
      c.pods.addAll(e.pods);
      copy.add(c);
    }
    saved.add(new Object[] {nodes, lastMatch});
    nodes = copy;
  }

  @SuppressWarnings("unchecked")
  void revert() {
    Object[] s = saved.remove(saved.size() - 1);
    nodes = (List<NodeEntry>) s[0];
    lastMatch = (Integer) s[1];
  }

  void commit() {
    saved.remove(saved.size() - 1);
  }

  int addNode(CompiledNode n) {
    nodes.add(new NodeEntry(n));
    return nodes.size() - 1;
  }

  void addPod(CompiledPod p, int i) {
    nodes.get(i).pods.add(p);
  }

  void removePod(String uid) {
    for (NodeEntry e : nodes) {
      e.pods.removeIf(p -> p.uid().equals(uid));
    }
  }

  int schedule(CompiledPod p) {
    int n = nodes.size();
    if (n == 0) {
      return -1;
    }
    int start = (lastMatch + 1) % n;
    if (lastMatch + 1 >= n) {
      start = 0;
    }
    for (int k = 0; k < n; k++) {
      int i = (start + k) % n;
      if (check(p, i) == null) {
        addPod(p, i);
        lastMatch = i;
        return i;
      }
    }
    return -1;
  }

  /** First failing reason string, or null. */
  String check(CompiledPod p, int i) {
    if (!p.isSupported()) {
      return "unsupported: " + String.join(", ", p.unsupported());
    }
    CompiledNode node = nodes.get(i).node;
    List<CompiledPod> here = nodes.get(i).pods;
    if (node.unschedulable()) {
      boolean tol = p.tolerations().stream()
          .anyMatch(t -> t.tolerates(new Taint("node.kubernetes.io/unschedulable", "", "NoSchedule")));
      if (!tol) {
        return "node(s) were unschedulable";
      }
    }
    if (p.nodeName() != null && !p.nodeName().equals(node.name())) {
      return "node(s) didn't match the requested node name";
    }
    for (Taint t : node.taints()) {
      if (p.tolerations().stream().noneMatch(tol -> tol.tolerates(t))) {
        return "node(s) had untolerated taint {" + t.key() + ": " + t.value() + "}";
      }
    }
    if (!p.nodeAffinity().matches(node.labels(), node.name())) {
      return "node(s) didn't match Pod's node affinity/selector";
    }
    for (HostPort want : p.hostPorts()) {
      for (CompiledPod q : here) {
        for (HostPort used : q.hostPorts()) {
          if (want.conflictsWith(used)) {
            return "node(s) didn't have free ports for the requested pod ports";
          }
        }
      }
    }
    if (here.size() + 1 > node.maxPods()) {
      return "Too many pods";
    }
    ResourceIds ids = compiler.resources();
    for (Map.Entry<String, Long> e : p.requestMap().entrySet()) {
      if (e.getValue() <= 0 || e.getKey().equals("pods")) {
        continue;
      }
      long used = 0;
      for (CompiledPod q : here) {
        used += q.requestMap().getOrDefault(e.getKey(), 0L);
      }
      long alloc = node.allocatable(ids.idOf(e.getKey()));
      if (e.getValue() > alloc - used) {
        return "Insufficient " + e.getKey();
      }
    }
    // Inter-pod affinity.
    if (!p.affinity().isEmpty()) {
      boolean anyMatch = false;
      boolean podsExist = true;
      for (AffinityTerm t : p.affinity()) {
        String v = node.labels().get(t.topologyKey());
        if (v == null) {
          return "node(s) didn't match pod affinity rules";
        }
        boolean inDomain = false;
        for (NodeEntry e : nodes) {
          String ev = e.node.labels().get(t.topologyKey());
          for (CompiledPod q : e.pods) {
            if (ev != null && matchesAll(p.affinity(), q)) {
              anyMatch = true;
              if (ev.equals(v)) {
                inDomain = true;
              }
            }
          }
        }
        podsExist &= inDomain;
      }
      if (!podsExist && (anyMatch || !matchesAll(p.affinity(), p))) {
        return "node(s) didn't match pod affinity rules";
      }
    }
    for (AffinityTerm t : p.antiAffinity()) {
      String v = node.labels().get(t.topologyKey());
      if (v == null) {
        continue;
      }
      for (NodeEntry e : nodes) {
        if (v.equals(e.node.labels().get(t.topologyKey()))) {
          for (CompiledPod q : e.pods) {
            if (matchesAll(List.of(t), q)) {
              return "node(s) didn't match pod anti-affinity rules";
            }
          }
        }
      }
    }
    for (NodeEntry e : nodes) {
      for (CompiledPod q : e.pods) {
        for (AffinityTerm t : q.antiAffinity()) {
          String ov = e.node.labels().get(t.topologyKey());
          if (ov != null && ov.equals(node.labels().get(t.topologyKey())) && matchesAll(List.of(t), p)) {
            return "node(s) didn't satisfy existing pods anti-affinity rules";
          }
        }
      }
    }
    // Topology spread.
    if (!p.spread().isEmpty()) {
      for (SpreadConstraint c : p.spread()) {
        if (!node.labels().containsKey(c.topologyKey())) {
          return "node(s) didn't match pod topology spread constraints (missing required label)";
        }
      }
      for (SpreadConstraint c : p.spread()) {
        Map<String, Integer> counts = new HashMap<>();
        Set<String> domainsSeen = new HashSet<>();
        for (NodeEntry e : nodes) {
          if (!eligible(p, c, e.node)) {
            continue;
          }
          String dv = e.node.labels().get(c.topologyKey());
          domainsSeen.add(dv);
          for (CompiledPod q : e.pods) {
            if (!q.isTerminating() && q.namespace().equals(p.namespace()) && c.selector().matches(q.labels())) {
              counts.merge(dv, 1, Integer::sum);
            }
          }
        }
        int min = Integer.MAX_VALUE;
        for (String d : domainsSeen) {
          min = Math.min(min, counts.getOrDefault(d, 0));
        }
        if (domainsSeen.size() < c.minDomains() || domainsSeen.isEmpty()) {
          min = 0;
        }
        int self = c.selector().matches(p.labels()) ? 1 : 0;
        int here2 = counts.getOrDefault(node.labels().get(c.topologyKey()), 0);
        if (here2 + self - min > c.maxSkew()) {
          return "node(s) didn't match pod topology spread constraints";
        }
      }
    }
    return null;
  }

  private static boolean eligible(CompiledPod p, SpreadConstraint c, CompiledNode n) {
    for (SpreadConstraint o : p.spread()) {
      if (!n.labels().containsKey(o.topologyKey())) {
        return false;
      }
    }
    if (c.honorNodeAffinity() && !p.nodeAffinity().matches(n.labels(), n.name())) {
      return false;
    }
    if (c.honorTaints()) {
      for (Taint t : n.taints()) {
        if (p.tolerations().stream().noneMatch(tol -> tol.tolerates(t))) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean matchesAll(List<AffinityTerm> terms, CompiledPod q) {
    for (AffinityTerm t : terms) {
      if (!t.matches(q.namespace(), q.labels(), compiler.namespaceLabels(q.namespace()))) {
        return false;
      }
    }
    return true;
  }
}
