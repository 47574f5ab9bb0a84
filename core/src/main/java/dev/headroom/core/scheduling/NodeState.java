package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Mutable aggregates of one node in one layer. */
final class NodeState {
  private static final CompiledPod[] NO_PODS = new CompiledPod[0];

  long[] requested;
  /** Request sums of the virtual pods, and of the DaemonSet and mirror pods (null: none). */
  long[] virtualRequested;
  long[] apartRequested;
  /**
   * The node's pods in insertion order: the first {@code podCount} entries of {@code pods}. A state copied for a
   * fork shares the array of the state it copies ({@code sharedPods}) and appends in place past its own count:
   * only the top layer writes, and a lower layer reads no further than its own count, so what it sees never
   * changes. A removal from a shared array copies it first.
   */
  CompiledPod[] pods = NO_PODS;
  int podCount;
  boolean sharedPods;
  ArrayList<HostPort> ports;

  NodeState(long[] requested) {
    this.requested = requested;
  }

  /** A copy for the top layer of the same snapshot (shares the pod array). */
  NodeState forkCopy() {
    NodeState s = new NodeState(requested.clone());
    s.virtualRequested = virtualRequested == null ? null : virtualRequested.clone();
    s.apartRequested = apartRequested == null ? null : apartRequested.clone();
    s.pods = pods;
    s.podCount = podCount;
    s.sharedPods = true;
    s.ports = ports == null ? null : new ArrayList<>(ports);
    return s;
  }

  /** A copy sharing nothing (for another snapshot). */
  NodeState detachedCopy() {
    NodeState s = forkCopy();
    s.pods = Arrays.copyOf(pods, podCount + 4); // room for a fork's placements without a copy
    s.sharedPods = false;
    return s;
  }

  CompiledPod pod(int k) {
    return pods[k];
  }

  /** The pods as an unmodifiable list (a view: it sees later changes to this state). */
  List<CompiledPod> podList() {
    return podCount == 0 ? List.of() : Collections.unmodifiableList(Arrays.asList(pods).subList(0, podCount));
  }

  void add(CompiledPod p) {
    requested = plus(requested, p, 1);
    if (p.isVirtual()) {
      virtualRequested = plus(virtualRequested, p, 1);
    } else if (p.isDaemonSetOrMirror()) {
      apartRequested = plus(apartRequested, p, 1);
    }
    if (podCount == pods.length) {
      pods = Arrays.copyOf(pods, podCount + Math.max(4, podCount >> 1));
      sharedPods = false;
    }
    pods[podCount++] = p;
    if (!p.hostPorts().isEmpty()) {
      if (ports == null) {
        ports = new ArrayList<>();
      }
      ports.addAll(p.hostPorts());
    }
  }

  private static long[] plus(long[] sums, CompiledPod p, int sign) {
    long[] r = p.requestVector();
    long[] out = sums == null ? new long[r.length] : sums.length < r.length ? Arrays.copyOf(sums, r.length) : sums;
    for (int id : p.requestIds()) {
      out[id] += sign * r[id];
    }
    return out;
  }

  CompiledPod remove(String uid) {
    for (int i = 0; i < podCount; i++) {
      CompiledPod p = pods[i];
      if (p.uid().equals(uid)) {
        ownPods();
        System.arraycopy(pods, i + 1, pods, i, podCount - i - 1);
        pods[--podCount] = null;
        unaccount(p);
        return p;
      }
    }
    throw new IllegalStateException("pod " + uid + " not on node");
  }

  /**
   * Removes the pods with {@code uids} and returns them in that order: the same state as {@link #remove} for each
   * in turn. One pass over the pods when the UIDs come in the node's order (a drain's removals), then one
   * {@link #remove} per UID the pass did not reach.
   */
  CompiledPod[] removeAll(List<String> uids) {
    int k = uids.size();
    CompiledPod[] out = new CompiledPod[k];
    ownPods();
    int j = 0;
    int kept = 0;
    for (int i = 0; i < podCount; i++) {
      CompiledPod p = pods[i];
      if (j < k && p.uid().equals(uids.get(j))) {
        out[j++] = p;
        unaccount(p);
      } else {
        pods[kept++] = p;
      }
    }
    Arrays.fill(pods, kept, podCount, null);
    podCount = kept;
    for (; j < k; j++) {
      out[j] = remove(uids.get(j));
    }
    return out;
  }

  private void ownPods() {
    if (sharedPods) {
      pods = Arrays.copyOf(pods, pods.length);
      sharedPods = false;
    }
  }

  private void unaccount(CompiledPod p) {
    requested = plus(requested, p, -1);
    if (p.isVirtual()) {
      virtualRequested = plus(virtualRequested, p, -1);
    } else if (p.isDaemonSetOrMirror()) {
      apartRequested = plus(apartRequested, p, -1);
    }
    for (HostPort hp : p.hostPorts()) {
      ports.remove(hp);
    }
  }
}
