package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one autoscaler loop observed, built once by the loop's first step and never changed after it: the loop's
 * time, the nodes and what the loop reads of each, the node groups as the provider and the cluster-state registry
 * left them, each group's template, the upcoming placeholders, the real pending demand and the loop's simulation.
 * The simulation is the one working part: later steps place pods on it, above what this step loaded.
 *
 * @param now the loop's time
 * @param nodes every node, by name
 * @param facts what the loop reads of each node object
 * @param nodeByName the nodes by name
 * @param readyNodes names of the Ready nodes
 * @param groups every group in provider order, with the target sizes after timed-out requests were taken back
 * @param groupOfNode the group of each node a group owns
 * @param notStarted nodes not Ready yet but younger than their start-up time
 * @param leftOut not-started nodes left out of the snapshot (placeholders stand for them)
 * @param destinationNodes nodes that may receive pods: Ready, not being deleted, not cordoned
 * @param templates each group's template source: its first Ready node, else the group's own template
 * @param templateNodes each group's sanitised template node with a hostname of its own (§3.9), as scale-up tests pods
 * @param placeholders names of the upcoming placeholder nodes in the snapshot
 * @param pending the real pending demand that is not expendable, priority descending (stable)
 * @param sim the loop's simulation: the loaded nodes and bound pods, and the placeholders
 */
record Observation(
    Instant now,
    List<Node> nodes,
    Map<Node, NodeFacts> facts,
    Map<String, Node> nodeByName,
    Set<String> readyNodes,
    Map<String, NodeGroup> groups,
    Map<String, GroupOptions> groupOptions,
    Map<String, String> groupOfNode,
    Set<String> notStarted,
    Set<String> leftOut,
    Set<String> destinationNodes,
    Map<String, Node> templates,
    Map<String, Node> templateNodes,
    Set<String> placeholders,
    List<Pod> pending,
    SchedulingSimulation sim) {

  /** True when pods may be placed on node {@code name} in this loop (a destination node or a placeholder). */
  boolean destination(String name) {
    return placeholders.contains(name) || existingDestination(name);
  }

  /** True when node {@code name} exists, is loaded into the snapshot and may receive pods (placeholders excluded). */
  boolean existingDestination(String name) {
    return destinationNodes.contains(name) && !leftOut.contains(name);
  }

  /** Nodes in the snapshot, upcoming placeholders included. */
  int nodeCount() {
    return nodes.size() + placeholders.size();
  }
}
