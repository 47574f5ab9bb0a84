package dev.headroom.core.nodegroup;

import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.util.Objects;

/**
 * One autoscaled node group as the autoscaler sees it in one loop: its size bounds, current target, price
 * and the template of the node it would create.
 *
 * @param id group id (the {@code NodeGroup} document's {@code metadata.name})
 * @param minSize lower bound of the target size
 * @param maxSize upper bound of the target size
 * @param targetSize the size the provider is asked to hold, requested but unregistered nodes included
 * @param pricePerHour cost of one node per hour (currency-agnostic)
 * @param provisioningDelay time from request to Ready (used by simulated providers only)
 * @param template the node the group would create: labels, taints, capacity and allocatable
 * @param options per-group option overrides
 * @param standby the group's standby capacity ({@code spec.standby}): how long a suspended node takes to resume and
 *     what it costs while suspended; null when the group keeps no standby nodes
 */
public record NodeGroup(
    String id,
    int minSize,
    int maxSize,
    int targetSize,
    double pricePerHour,
    Duration provisioningDelay,
    Node template,
    NodeGroupOptions options,
    Standby standby) {

  /**
   * A group's standby settings: a suspended node turns Ready {@code resumeDelay} after it is resumed (shorter than a
   * new node's {@code provisioningDelay}) and costs {@code pricePerHour} while suspended.
   */
  public record Standby(Duration resumeDelay, double pricePerHour) {
    public Standby {
      Objects.requireNonNull(resumeDelay, "resumeDelay");
    }
  }

  /** A group without standby capacity. */
  public NodeGroup(String id, int minSize, int maxSize, int targetSize, double pricePerHour, Duration provisioningDelay,
      Node template, NodeGroupOptions options) {
    this(id, minSize, maxSize, targetSize, pricePerHour, provisioningDelay, template, options, null);
  }

  public NodeGroup {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(template, "template");
    provisioningDelay = provisioningDelay == null ? Duration.ZERO : provisioningDelay;
    options = options == null ? NodeGroupOptions.NONE : options;
  }

  /** The same group with another target size. */
  public NodeGroup withTargetSize(int size) {
    return new NodeGroup(id, minSize, maxSize, size, pricePerHour, provisioningDelay, template, options, standby);
  }

  /** The same group with these standby settings (null: none). */
  public NodeGroup withStandby(Standby settings) {
    return new NodeGroup(id, minSize, maxSize, targetSize, pricePerHour, provisioningDelay, template, options, settings);
  }
}
