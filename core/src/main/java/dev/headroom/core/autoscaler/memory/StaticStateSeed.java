package dev.headroom.core.autoscaler.memory;

import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.GroupOptions;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link AutoscalerState} a long-running autoscaler would have for a one-off picture of a cluster
 * (autoscaler spec §5, "In {@code plan}"):
 *
 * <ul>
 *   <li>a group whose {@code targetSize} is larger than its Ready nodes has an active scale-up request made
 *       at {@code now}, so its missing nodes are upcoming capacity and are not requested again;
 *   <li>every node of a group is taken as unneeded since its {@value Nodes#UNNEEDED_SINCE} annotation, or,
 *       without one, since its creation time; the iteration keeps the time only while the node is
 *       actually found removable, so a node is deleted when it has been unneeded for the group's
 *       {@code scaleDownUnneededTime} (or {@code scaleDownUnreadyTime}) at {@code now}.
 * </ul>
 */
public final class StaticStateSeed {

  private StaticStateSeed() {}

  /** A fresh state seeded from the groups and nodes. */
  public static AutoscalerState of(AutoscalerOptions options, List<NodeGroup> groups, List<Node> nodes, Instant now) {
    AutoscalerState state = new AutoscalerState(options);
    Map<String, Integer> ready = new HashMap<>();
    for (Node n : nodes) {
      String group = groupOf(n);
      if (group == null) {
        continue;
      }
      if (Nodes.isReady(n)) {
        ready.merge(group, 1, Integer::sum);
      }
      unneededSince(n).ifPresent(t -> state.unneededSince().put(n.getMetadata().getName(), t));
    }
    for (NodeGroup g : groups) {
      int missing = g.targetSize() - ready.getOrDefault(g.id(), 0);
      if (missing > 0) {
        state.registerScaleUp(g.id(), missing, now, GroupOptions.of(options, g.options()).maxNodeProvisionTime());
      }
    }
    return state;
  }

  /**
   * The time a node is taken as unneeded since: its {@value Nodes#UNNEEDED_SINCE} annotation, else its
   * creation time; empty when it has neither (or the annotation is not an RFC 3339 time).
   */
  public static Optional<Instant> unneededSince(Node n) {
    Map<String, String> a = n.getMetadata().getAnnotations();
    String annotated = a == null ? null : a.get(Nodes.UNNEEDED_SINCE);
    if (annotated != null) {
      return Nodes.time(annotated);
    }
    return Nodes.created(n);
  }

  private static String groupOf(Node n) {
    Map<String, String> labels = n.getMetadata() == null ? null : n.getMetadata().getLabels();
    return labels == null ? null : labels.get(NodeGroupLabels.NODE_GROUP);
  }
}
