package dev.headroom.core.autoscaler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What one iteration needs from the scheduling simulation (snapshot, placement, binpacking). Implemented by
 * {@link SnapshotSimulation} over {@code dev.headroom.core.scheduling}; the iteration never checks a predicate
 * itself.
 */
public interface SchedulingSimulation {

  /** Adds a node (no pods). */
  void addNode(Node node);

  /** Removes a node and its pods. */
  void removeNode(String nodeName);

  /** Adds a pod bound to a node. */
  void addPod(Pod pod, String nodeName);

  /** Removes a pod (by UID) from wherever it is. */
  void removePod(Pod pod);

  /** The pods currently on a node. */
  List<Pod> podsOn(String nodeName);

  /** A pod on a node with its effective requests (milli-units) and whether it is a buffer's virtual pod. */
  record PodRequests(Pod pod, java.util.Map<String, Long> requests, boolean virtual) {}

  /** The pods currently on a node with their requests, in {@link #podsOn} order. */
  default List<PodRequests> podRequestsOn(String nodeName) {
    List<Pod> pods = podsOn(nodeName);
    List<PodRequests> out = new java.util.ArrayList<>(pods.size());
    for (Pod p : pods) {
      out.add(new PodRequests(p, requests(p), VirtualPods.isVirtual(p)));
    }
    return out;
  }

  /** Places the pod on the first acceptable node that passes every predicate; the pod stays in the snapshot. */
  Optional<String> schedule(Pod pod, Predicate<String> acceptableNode);

  /** O(1) fork. */
  void fork();

  /** Drops everything since the last fork. */
  void revert();

  /** Keeps everything since the last fork. */
  void commit();

  /**
   * Tests the pod against a fresh copy of a template node in the current snapshot.
   *
   * @return the failing predicate's reason, or empty when it fits
   */
  Optional<String> checkOnTemplate(Pod pod, Node template);

  /** Node-level checks only (resources against allocatable, selector/affinity, taints) on an empty node. */
  boolean fitsEmptyNode(Pod pod, Node node);

  /** Groups pods into equivalence classes (identical scheduling behaviour), classes in first-appearance order. */
  List<List<Pod>> equivalenceGroups(List<Pod> pods);

  /** Effective requests of a pod in milli-units (cached by the implementation). */
  java.util.Map<String, Long> requests(Pod pod);

  /**
   * The milli-value of {@code node}'s {@code status.allocatable[resource]}, 0 when absent (implementations
   * may answer from their compiled node instead of parsing the quantity again).
   */
  default long allocatableMilli(io.fabric8.kubernetes.api.model.Node node, String resource) {
    if (node.getStatus() == null || node.getStatus().getAllocatable() == null) {
      return 0;
    }
    io.fabric8.kubernetes.api.model.Quantity q = node.getStatus().getAllocatable().get(resource);
    return q == null ? 0 : dev.headroom.core.resources.Quantities.milli(q);
  }

  /** The binpacking estimator's answer for one group. */
  record Estimate(int nodeCount, List<Pod> pods) {}

  /**
   * Binpacks {@code pods} (already ordered and all passing the template) onto new copies of the template
   * ({@code namePrefix}-k), at most {@code maxNodes} nodes; the snapshot is unchanged afterwards.
   */
  Estimate estimate(List<Pod> pods, Node template, String namePrefix, int maxNodes);
}
