package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * First-fit-decreasing binpacking estimator (autoscaler spec §3.4, after CA's
 * {@code binpacking_estimator.go}): how many copies of a node-group template the given pods need.
 *
 * <p>Classes are ordered real before virtual, then by {@code req.cpu / alloc.cpu + req.memory / alloc.memory}
 * of the template, descending (stable). Each class first fills the nodes already opened in this estimate,
 * then the rest go onto the last opened node or a new template copy, until the {@link NodeLimiter} refuses,
 * or a pod does not fit an empty template. Runs in a fork of the snapshot and reverts it; the snapshot is
 * unchanged afterwards.
 */
public final class BinpackingEstimator {

  private BinpackingEstimator() {}

  /** Estimates with new nodes named {@code <template>-e-<k>}. */
  public static Estimate estimate(
      ClusterSnapshot snapshot, CompiledNode template, List<PodClass> classes, NodeLimiter limiter) {
    return estimate(snapshot, template, classes, limiter, template.name() + "-e-");
  }

  /** Estimates with new nodes named {@code <namePrefix><k>}, k = 0, 1, ... */
  public static Estimate estimate(
      ClusterSnapshot snapshot, CompiledNode template, List<PodClass> classes, NodeLimiter limiter, String namePrefix) {
    List<PodClass> order = new ArrayList<>(classes);
    order.sort(
        Comparator.comparing(PodClass::isVirtual)
            .thenComparing(Comparator.comparingDouble((PodClass c) -> score(c.exemplar(), template)).reversed()));
    List<CompiledPod> placed = new ArrayList<>();
    List<Integer> newNodes = new ArrayList<>();
    snapshot.fork();
    try {
      int base = snapshot.nodeCount();
      int last = -1;
      boolean canAdd = true;
      for (PodClass c : order) {
        List<CompiledPod> pods = c.pods();
        int i = 0;
        while (i < pods.size() && snapshot.schedulePodInRange(pods.get(i), base, snapshot.nodeCount()).placed()) {
          placed.add(pods.get(i));
          i++;
        }
        if (!canAdd) {
          continue;
        }
        boolean hostnameSpread = hasHostnameSpread(c.exemplar());
        for (; i < pods.size(); i++) {
          CompiledPod pod = pods.get(i);
          if (last >= 0) {
            Reason r = snapshot.failure(pod, last);
            if (r == null) {
              snapshot.addPod(pod, last);
              placed.add(pod);
              continue;
            }
            if (hostnameSpread && r == Reason.TOPOLOGY_SPREAD) {
              int except = last;
              if (snapshot.schedulePodOnAnyNode(pod, n -> n != except).placed()) {
                placed.add(pod);
                continue;
              }
            }
            if (snapshot.podCountOn(last) == 0) {
              break;
            }
          }
          if (!limiter.permitOneMoreNode(newNodes.size())) {
            canAdd = false;
            break;
          }
          last = snapshot.addNodeCopy(template, namePrefix + newNodes.size());
          newNodes.add(last);
          if (snapshot.failure(pod, last) != null) {
            break;
          }
          snapshot.addPod(pod, last);
          placed.add(pod);
        }
      }
      List<Integer> perNode = new ArrayList<>(newNodes.size());
      int used = 0;
      for (int n : newNodes) {
        int count = snapshot.podCountOn(n);
        perNode.add(count);
        if (count > 0) {
          used++;
        }
      }
      return new Estimate(used, placed, perNode);
    } finally {
      snapshot.revert();
    }
  }

  /** CA's decreasing-order key: cpu and memory requests as fractions of the template's allocatable. */
  static double score(CompiledPod pod, CompiledNode template) {
    return fraction(pod.request(ResourceIds.CPU), template.allocatable(ResourceIds.CPU))
        + fraction(pod.request(ResourceIds.MEMORY), template.allocatable(ResourceIds.MEMORY));
  }

  private static double fraction(long request, long allocatable) {
    if (allocatable <= 0) {
      return request > 0 ? Double.MAX_VALUE / 4 : 0;
    }
    return (double) request / allocatable;
  }

  private static boolean hasHostnameSpread(CompiledPod pod) {
    for (SpreadConstraint c : pod.spread()) {
      if (CompiledNode.HOSTNAME_LABEL.equals(c.topologyKey())) {
        return true;
      }
    }
    return false;
  }
}
