package dev.headroom.core.scheduling;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * Why a pod fits no node: the failing predicate of every node, and the scheduler-style summary
 * ({@code 0/3 nodes are available: 2 Insufficient cpu, 1 node(s) were unschedulable.}).
 *
 * @param nodes number of nodes examined
 * @param failures the failure of each node that rejected the pod, by node name (insertion = node order)
 * @param reasonCounts number of nodes per reason string, sorted by reason string
 */
public record Diagnosis(int nodes, Map<String, FitResult.Fails> failures, Map<String, Integer> reasonCounts) {

  /** The kube-scheduler style one-line summary. */
  public String message() {
    int available = nodes - failures.size();
    String reasons =
        reasonCounts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    return available + "/" + nodes + " nodes are available" + (reasons.isEmpty() ? "." : ": " + reasons + ".");
  }
}
