package dev.headroom.core.autoscaler.memory;

import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link NodeGroupProvider} that acts on nothing: it keeps the groups' sizes in memory, enforces the
 * provider contract (autoscaler spec §6.1: bounds, membership) and records every request. Nodes belong to the
 * group named by their {@code headroom.dev/node-group} label. Standby capacity: a node annotated as a standby node
 * ({@link Nodes#isStandby}) is one, counted in its group's pool (suspended or preparing by its annotation); a group with
 * {@code spec.standby} takes a standby target, which is recorded ({@link StandbyTarget}) and becomes the pool's target.
 * {@link #increaseSize} records the increase whole (the dry run does not say which nodes would be resumed).
 */
public final class RecordingNodeGroupProvider implements NodeGroupProvider {

  /** One recorded call. */
  public sealed interface Call permits Increase, Deletion, Decrease, StandbyTarget {}

  /** {@code setStandbyTarget(group, target)}, and the target before it. */
  public record StandbyTarget(String group, int previous, int target) implements Call {}

  /** {@code increaseSize(group, delta)}, and the target size after it. */
  public record Increase(String group, int delta, int newTargetSize) implements Call {}

  /** {@code deleteNodes(group, nodes)}. */
  public record Deletion(String group, List<String> nodes) implements Call {}

  /** {@code decreaseTargetSize(group, delta)} with {@code delta < 0}. */
  public record Decrease(String group, int delta) implements Call {}

  private final Map<String, NodeGroup> groups = new LinkedHashMap<>();
  private final List<Call> calls = new ArrayList<>();
  private final Map<String, Integer> standbyTargets = new LinkedHashMap<>();
  private final Map<String, int[]> standbyNodes = new LinkedHashMap<>();

  /** A provider over these groups (order kept). */
  public RecordingNodeGroupProvider(List<NodeGroup> groups) {
    for (NodeGroup g : groups) {
      if (this.groups.putIfAbsent(g.id(), g) != null) {
        throw new IllegalArgumentException("duplicate node group " + g.id());
      }
    }
  }

  @Override
  public List<NodeGroup> nodeGroups() {
    return List.copyOf(groups.values());
  }

  @Override
  public Optional<String> nodeGroupOf(Node node) {
    Map<String, String> labels = node.getMetadata() == null ? null : node.getMetadata().getLabels();
    String id = labels == null ? null : labels.get(NodeGroupLabels.NODE_GROUP);
    return id != null && groups.containsKey(id) ? Optional.of(id) : Optional.empty();
  }

  @Override
  public void increaseSize(String groupId, int delta) {
    NodeGroup g = group(groupId);
    if (delta <= 0) {
      throw new ProviderException("size increase must be positive");
    }
    if (g.targetSize() + delta > g.maxSize()) {
      throw new ProviderException("size increase too large: desired " + (g.targetSize() + delta) + " max " + g.maxSize());
    }
    groups.put(groupId, g.withTargetSize(g.targetSize() + delta));
    calls.add(new Increase(groupId, delta, g.targetSize() + delta));
  }

  @Override
  public void deleteNodes(String groupId, List<Node> nodes) {
    NodeGroup g = group(groupId);
    if (g.targetSize() <= g.minSize() || g.targetSize() - nodes.size() < g.minSize()) {
      throw new ProviderException("min size reached, nodes will not be deleted");
    }
    List<String> names = new ArrayList<>();
    for (Node n : nodes) {
      if (!nodeGroupOf(n).map(groupId::equals).orElse(false)) {
        throw new ProviderException("node " + n.getMetadata().getName() + " does not belong to group " + groupId);
      }
      names.add(n.getMetadata().getName());
    }
    groups.put(groupId, g.withTargetSize(g.targetSize() - nodes.size()));
    calls.add(new Deletion(groupId, List.copyOf(names)));
  }

  @Override
  public void decreaseTargetSize(String groupId, int delta) {
    NodeGroup g = group(groupId);
    if (delta >= 0) {
      throw new ProviderException("size decrease must be negative");
    }
    groups.put(groupId, g.withTargetSize(Math.max(0, g.targetSize() + delta)));
    calls.add(new Decrease(groupId, delta));
  }

  /**
   * Counts {@code nodes}' standby nodes into their groups' pools (suspended, preparing); each pool's target starts at
   * the number of its standby nodes.
   */
  public RecordingNodeGroupProvider withStandbyNodes(List<Node> nodes) {
    for (Node n : nodes) {
      if (Nodes.isStandby(n)) {
        Optional<String> g = nodeGroupOf(n);
        if (g.isPresent()) {
          int[] c = standbyNodes.computeIfAbsent(g.get(), k -> new int[2]);
          c[Nodes.STANDBY_SUSPENDED.equals(n.getMetadata().getAnnotations().get(Nodes.STANDBY)) ? 0 : 1]++;
          standbyTargets.merge(g.get(), 1, Integer::sum);
        }
      }
    }
    return this;
  }

  @Override
  public Optional<String> standbyUnsupported() {
    return Optional.empty();
  }

  @Override
  public boolean isStandby(Node node) {
    return Nodes.isStandby(node);
  }

  @Override
  public StandbyPool standbyPool(String groupId) {
    int[] c = standbyNodes.getOrDefault(groupId, new int[2]);
    return new StandbyPool(standbyTargets.getOrDefault(groupId, 0), c[0], c[1]);
  }

  @Override
  public void setStandbyTarget(String groupId, int target) {
    NodeGroup g = group(groupId);
    if (g.standby() == null) {
      throw new ProviderException("node group " + groupId + " has no spec.standby");
    }
    if (target < 0) {
      throw new ProviderException("standby target must not be negative, got " + target);
    }
    int previous = standbyTargets.getOrDefault(groupId, 0);
    standbyTargets.put(groupId, target);
    calls.add(new StandbyTarget(groupId, previous, target));
  }

  /** Every call, in order. */
  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The increases, in order. */
  public List<Increase> increases() {
    List<Increase> out = new ArrayList<>();
    for (Call c : calls) {
      if (c instanceof Increase i) {
        out.add(i);
      }
    }
    return out;
  }

  private NodeGroup group(String id) {
    NodeGroup g = groups.get(id);
    if (g == null) {
      throw new ProviderException("unknown node group " + id);
    }
    return g;
  }
}
