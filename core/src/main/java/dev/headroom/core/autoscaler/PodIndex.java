package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import dev.headroom.core.autoscaler.SchedulingSimulation.BoundPod;

/**
 * The iteration's view of the pods, kept across loops: pending pods and pods bound (or nominated) to a node,
 * each in the order the view first showed them. When the {@link ClusterView} keeps a change log
 * ({@link ClusterView#podChangesSince}), a refresh touches only the pods that changed; otherwise it reads every
 * pod. Terminated pods (Succeeded, Failed) and deleted unbound pods are left out, as the loop ignores them.
 */
final class PodIndex implements SchedulingSimulation.BoundPods {

  private final Map<String, Long> order = new HashMap<>();
  private final TreeMap<Long, Pod> pending = new TreeMap<>();
  private final TreeMap<Long, BoundPod> bound = new TreeMap<>();
  private final Map<String, BoundPod> boundByUid = new HashMap<>();
  /** Bound pods by node name, each node's in first-seen order. */
  private final Map<String, TreeMap<Long, BoundPod>> boundByNode = new HashMap<>();
  private long nextOrder;
  private long cursor = -1;
  /** After a full read: the pods as read (the maps above are filled only when changes must be applied). */
  private List<Pod> read;
  private List<Pod> readPending;
  private List<BoundPod> readBound;

  /**
   * Brings the index up to date with {@code view}.
   *
   * @return the UIDs of pods that changed since the previous refresh, or null when every pod was read afresh
   */
  Set<String> refresh(ClusterView view) {
    Optional<ClusterView.PodChanges> changes = cursor < 0 ? Optional.empty() : view.podChangesSince(cursor);
    if (changes.isEmpty()) {
      // a full read; then ask for the log from the view's current cursor on
      Optional<ClusterView.PodChanges> start = view.podChangesSince(-1);
      readAll(view.pods());
      cursor = start.map(ClusterView.PodChanges::cursor).orElse(-1L);
      return null;
    }
    if (read != null) {
      fill(read);
    }
    Set<String> changed = new LinkedHashSet<>();
    for (String uid : changes.get().deleted()) {
      forget(uid);
      changed.add(uid);
    }
    for (Pod p : changes.get().changed()) {
      String uid = uid(p);
      forget(uid);
      place(uid, p);
      changed.add(uid);
    }
    cursor = changes.get().cursor();
    return changed;
  }

  /** A full read: classified into lists at once; the ordered maps are built only if changes follow. */
  private void readAll(List<Pod> pods) {
    read = pods;
    readPending = new ArrayList<>();
    readBound = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      if (skipped(p)) {
        continue;
      }
      String node = nodeOf(p);
      if (node != null) {
        readBound.add(new BoundPod(p, node));
      } else {
        readPending.add(p);
      }
    }
  }

  private void fill(List<Pod> pods) {
    order.clear();
    pending.clear();
    bound.clear();
    boundByUid.clear();
    boundByNode.clear();
    nextOrder = 0;
    for (Pod p : pods) {
      place(uid(p), p);
    }
    read = null;
    readPending = null;
    readBound = null;
  }

  private void forget(String uid) {
    Long at = order.get(uid);
    if (at != null) {
      pending.remove(at);
      bound.remove(at);
      BoundPod b = boundByUid.remove(uid);
      if (b != null) {
        TreeMap<Long, BoundPod> onNode = boundByNode.get(b.nodeName());
        onNode.remove(at);
        if (onNode.isEmpty()) {
          boundByNode.remove(b.nodeName());
        }
      }
    }
  }

  /** Files a pod under its first-seen position (kept while the pod exists, so order is stable). */
  private void place(String uid, Pod p) {
    if (skipped(p)) {
      order.remove(uid);
      return;
    }
    Long at = order.get(uid);
    if (at == null) {
      at = nextOrder++;
      order.put(uid, at);
    }
    String node = nodeOf(p);
    if (node != null) {
      BoundPod b = new BoundPod(p, node);
      bound.put(at, b);
      boundByUid.put(uid, b);
      boundByNode.computeIfAbsent(node, k -> new TreeMap<>()).put(at, b);
    } else {
      pending.put(at, p);
    }
  }

  /** Deleted unbound pods and terminated pods are not the loop's concern. */
  private static boolean skipped(Pod p) {
    if (p.getMetadata().getDeletionTimestamp() != null && (p.getSpec() == null || empty(p.getSpec().getNodeName()))) {
      return true;
    }
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** The node a pod is bound to, else the one it is nominated to, else null. */
  private static String nodeOf(Pod p) {
    return p.getSpec() != null && !empty(p.getSpec().getNodeName()) ? p.getSpec().getNodeName()
        : p.getStatus() != null && !empty(p.getStatus().getNominatedNodeName()) ? p.getStatus().getNominatedNodeName() : null;
  }

  /** Pending pods in first-seen order. */
  List<Pod> pending() {
    return read != null ? new ArrayList<>(readPending) : new ArrayList<>(pending.values());
  }

  /** Bound (or nominated) pods in first-seen order. */
  @Override
  public Collection<BoundPod> all() {
    return read != null ? readBound : bound.values();
  }

  /** The bound pod with {@code uid}, or null. */
  @Override
  public BoundPod byUid(String uid) {
    if (read != null) {
      fill(read);
    }
    return boundByUid.get(uid);
  }

  /** The pods bound (or nominated) to node {@code nodeName}, in first-seen order. */
  @Override
  public Collection<BoundPod> on(String nodeName) {
    if (read != null) {
      fill(read);
    }
    TreeMap<Long, BoundPod> onNode = boundByNode.get(nodeName);
    return onNode == null ? List.of() : onNode.values();
  }

  /** The key a pod is indexed under: the snapshot's (its UID, or namespace/name without one). */
  static String uid(Pod p) {
    return dev.headroom.core.scheduling.SchedulingCompiler.uidOf(p);
  }

  private static boolean empty(String s) {
    return s == null || s.isEmpty();
  }
}
