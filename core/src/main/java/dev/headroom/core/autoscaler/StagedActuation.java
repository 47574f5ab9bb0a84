package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Optional;

/**
 * The iteration's provider and event sink, passed through to the real ones except while a trial runs
 * ({@link #staged}): then size increases and events go nowhere, so a step can be run to see what it would do.
 * Reads always reach the real provider.
 */
final class StagedActuation implements NodeGroupProvider, EventSink {

  private final NodeGroupProvider provider;
  private final EventSink events;
  private boolean staged;

  StagedActuation(NodeGroupProvider provider, EventSink events) {
    this.provider = provider;
    this.events = events;
  }

  /** Runs {@code body} with increases and events held back. */
  <T> T staged(java.util.function.Supplier<T> body) {
    boolean was = staged;
    staged = true;
    try {
      return body.get();
    } finally {
      staged = was;
    }
  }

  @Override
  public void refresh() {
    provider.refresh();
  }

  @Override
  public List<NodeGroup> nodeGroups() {
    return provider.nodeGroups();
  }

  @Override
  public Optional<String> nodeGroupOf(Node node) {
    return provider.nodeGroupOf(node);
  }

  @Override
  public void increaseSize(String groupId, int delta) {
    if (!staged) {
      provider.increaseSize(groupId, delta);
    }
  }

  @Override
  public void deleteNodes(String groupId, List<Node> nodes) {
    if (staged) {
      throw new IllegalStateException("node deletion inside a staged scale-up trial");
    }
    provider.deleteNodes(groupId, nodes);
  }

  @Override
  public void decreaseTargetSize(String groupId, int delta) {
    if (staged) {
      throw new IllegalStateException("target size decrease inside a staged scale-up trial");
    }
    provider.decreaseTargetSize(groupId, delta);
  }

  @Override
  public Optional<String> standbyUnsupported() {
    return provider.standbyUnsupported();
  }

  @Override
  public boolean isStandby(Node node) {
    return provider.isStandby(node);
  }

  @Override
  public StandbyPool standbyPool(String groupId) {
    return provider.standbyPool(groupId);
  }

  @Override
  public void setStandbyTarget(String groupId, int target) {
    if (staged) {
      throw new IllegalStateException("standby target change inside a staged scale-up trial");
    }
    provider.setStandbyTarget(groupId, target);
  }

  @Override
  public void emit(EventRecord event) {
    if (!staged) {
      events.emit(event);
    }
  }
}
