package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Optional;

/**
 * Port: the node provider (KWOK-style, Cluster API, the simulator, or {@code plan}'s dry run). Contract of
 * the upstream {@code cloudprovider.NodeGroup}: after {@link #increaseSize} returns, the group's target size
 * already includes the delta.
 */
public interface NodeGroupProvider {

  /** Re-reads the groups (called once per loop, before {@link #nodeGroups()}). */
  default void refresh() {}

  /** The autoscaled groups with their current sizes, in a stable order. */
  List<NodeGroup> nodeGroups();

  /** The group a node belongs to; empty = not autoscaled. */
  Optional<String> nodeGroupOf(Node node);

  /**
   * Requests {@code delta > 0} more nodes.
   *
   * @throws ProviderException when the provider refuses or fails
   */
  void increaseSize(String groupId, int delta);

  /**
   * Deletes the given nodes of a group (already drained by the caller's actuation) and lowers the target.
   *
   * @throws ProviderException when the provider refuses or fails
   */
  void deleteNodes(String groupId, List<Node> nodes);

  /**
   * Lowers the target by {@code -delta} ({@code delta < 0}), removing only capacity that has not registered.
   *
   * @throws ProviderException when the provider refuses or fails
   */
  void decreaseTargetSize(String groupId, int delta);

  /** A provider call that failed. */
  final class ProviderException extends RuntimeException {
    public ProviderException(String message) {
      super(message);
    }
  }
}
