package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Optional;

/**
 * Port: the node provider (KWOK-style, Cluster API, the simulator, or {@code plan}'s dry run). Contract of
 * the upstream {@code cloudprovider.NodeGroup}: after {@link #increaseSize} returns, the group's target size
 * already includes the delta.
 *
 * <p><b>Standby capacity</b> (docs/standby-capacity.md): a provider that can suspend nodes keeps, per group, the number
 * of standby nodes the autoscaler asks for ({@link #setStandbyTarget}): it creates them, lets them initialise, then
 * suspends them (unschedulable, not Ready); it deletes surplus ones. Standby nodes are not part of the group's target
 * size and the autoscaler leaves them out of its loop ({@link #isStandby}). {@link #increaseSize} resumes suspended
 * nodes of the group first (they count towards the target at once and turn Ready after the group's
 * {@code standby.resumeDelay}) and creates nodes only for the rest; the pool then refills itself to its target.
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

  /**
   * Why this provider cannot keep standby (suspended) nodes, in words a buffer condition can carry; empty when it can.
   */
  default Optional<String> standbyUnsupported() {
    return Optional.of("the node provider cannot suspend nodes");
  }

  /** True for a standby node (being prepared, or suspended): not running capacity and not in its group's target size. */
  default boolean isStandby(Node node) {
    return false;
  }

  /** A group's standby nodes now. */
  default StandbyPool standbyPool(String groupId) {
    return StandbyPool.NONE;
  }

  /**
   * Sets how many standby nodes the group keeps ({@code target >= 0}); the provider creates, suspends and deletes
   * standby nodes to reach it.
   *
   * @throws ProviderException when the provider cannot suspend nodes, the group has no {@code spec.standby}, or the
   *     call fails
   */
  default void setStandbyTarget(String groupId, int target) {
    throw new ProviderException(standbyUnsupported().orElse("standby capacity is not implemented"));
  }

  /**
   * A group's standby pool.
   *
   * @param target the standby nodes the group is asked to keep
   * @param suspended standby nodes suspended now (an {@link #increaseSize} resumes these)
   * @param preparing standby nodes created and not suspended yet (initialising)
   */
  record StandbyPool(int target, int suspended, int preparing) {
    public static final StandbyPool NONE = new StandbyPool(0, 0, 0);
  }

  /** A provider call that failed. */
  final class ProviderException extends RuntimeException {
    public ProviderException(String message) {
      super(message);
    }
  }
}
