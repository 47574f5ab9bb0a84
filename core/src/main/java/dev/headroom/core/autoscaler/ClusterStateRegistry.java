package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The loop's view of node readiness per group and of the active scale-up requests (autoscaler spec §3.6):
 * {@code upcoming(G) = targetSize − Ready − Unready}, counted only while G has an active request and is not
 * backed off, so the same capacity is never requested twice while nodes boot.
 */
public final class ClusterStateRegistry {

  private final AutoscalerState state;
  private final Map<String, NodeGroup> groups;
  private final Map<String, GroupOptions> groupOptions;
  private final Instant now;
  private final Map<String, int[]> counts = new HashMap<>();
  private final Set<String> notStarted = new HashSet<>();
  private final List<IterationResult.NodeStatus> statuses;
  private int unready;

  ClusterStateRegistry(AutoscalerOptions options, AutoscalerState state, Map<String, NodeGroup> groups,
      Map<String, GroupOptions> groupOptions, List<Node> nodes, Map<String, String> groupOfNode, Set<String> readyNodes,
      Instant now) {
    this.state = state;
    this.groups = groups;
    this.groupOptions = groupOptions;
    this.now = now;
    List<IterationResult.NodeStatus> out = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      String name = n.getMetadata().getName();
      String g = groupOfNode.get(name);
      int[] c = g == null ? new int[3] : counts.computeIfAbsent(g, k -> new int[3]);
      if (readyNodes.contains(name)) {
        c[0]++;
        out.add(new IterationResult.NodeStatus(name, g, IterationResult.NodeState.READY));
        continue;
      }
      GroupOptions own = g == null ? null : groupOptions.get(g);
      Duration startup = own != null ? own.maxNodeStartupTime() : options.maxNodeStartupTime();
      boolean young = Nodes.startedAt(n).map(t -> t.plus(startup).isAfter(now)).orElse(true);
      if (young) {
        c[1]++;
        notStarted.add(name);
      } else {
        c[2]++;
        unready++;
      }
      out.add(new IterationResult.NodeStatus(name, g, young ? IterationResult.NodeState.NOT_STARTED : IterationResult.NodeState.UNREADY));
    }
    this.statuses = List.copyOf(out);
  }

  /** Every registered node with its group and state, in the order the nodes were given. */
  public List<IterationResult.NodeStatus> statuses() {
    return statuses;
  }

  /** Registered Ready nodes of a group. */
  public int ready(String group) {
    return counts.getOrDefault(group, new int[3])[0];
  }

  /** {@code targetSize − Ready − Unready}, at least 0, whatever the request state. */
  public int upcomingRaw(String group) {
    NodeGroup g = groups.get(group);
    if (g == null) {
      return 0;
    }
    int[] c = counts.getOrDefault(group, new int[3]);
    return Math.max(0, g.targetSize() - c[0] - c[2]);
  }

  /**
   * Records, as the upstream Cluster Autoscaler's cluster state does, each group whose target size is above its
   * Ready and unready nodes ({@link #upcomingRaw} above 0: nodes asked for that have not come up, whether their Node
   * object exists yet or not) while it has no active scale-up request (the request timed out or was never ours), from
   * the first loop that saw that pair of sizes; forgets the groups where it no longer holds. Returns the groups whose
   * incorrect size has stood for longer than their max provision time: their target is to come down by the missing
   * nodes.
   */
  List<String> updateIncorrectSizes() {
    Map<String, AutoscalerState.IncorrectSize> sizes = state.incorrectSizes();
    sizes.keySet().removeIf(id -> !groups.containsKey(id));
    List<String> due = new ArrayList<>();
    for (NodeGroup g : groups.values()) {
      int missing = upcomingRaw(g.id());
      if (state.scaleUpRequests().containsKey(g.id()) || missing == 0) {
        sizes.remove(g.id());
        continue;
      }
      AutoscalerState.IncorrectSize seen = sizes.get(g.id());
      if (seen == null || seen.targetSize() != g.targetSize() || seen.missing() != missing) {
        seen = new AutoscalerState.IncorrectSize(g.targetSize(), missing, now);
        sizes.put(g.id(), seen);
      }
      if (seen.firstObserved().plus(groupOptions.get(g.id()).maxNodeProvisionTime()).isBefore(now)) {
        due.add(g.id());
      }
    }
    return due;
  }

  /** True when the group's upcoming nodes count as capacity (active request, no backoff). */
  public boolean upcomingCounted(String group) {
    return group != null && state.scaleUpRequests().containsKey(group) && !state.backoff().isBackedOff(group, now);
  }

  /** Upcoming nodes represented in the snapshot. */
  public int upcoming(String group) {
    return upcomingCounted(group) ? upcomingRaw(group) : 0;
  }

  /** Registered, not Ready nodes younger than the startup time. */
  public Set<String> notStartedNodes() {
    return notStarted;
  }

  /** Registered nodes that are not Ready for longer than the startup time. */
  public int unreadyCount() {
    return unready;
  }

  /** Ends fulfilled requests and returns (and drops) timed-out ones. */
  List<ScaleUpRequest> expireRequests() {
    List<ScaleUpRequest> timedOut = new ArrayList<>();
    for (Iterator<ScaleUpRequest> it = state.scaleUpRequests().values().iterator(); it.hasNext(); ) {
      ScaleUpRequest r = it.next();
      if (!groups.containsKey(r.group()) || upcomingRaw(r.group()) == 0) {
        it.remove();
        state.backoff().reset(r.group());
      } else if (now.isAfter(r.expectedAddTime())) {
        it.remove();
        timedOut.add(r);
      }
    }
    return timedOut;
  }
}
