package dev.headroom.controller.autoscaling;

import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.autoscaler.VirtualPods;
import dev.headroom.core.autoscaler.scaledown.DrainRules;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scale-down actuation in the cluster (autoscaler spec §4.7), as a decorator of the node provider: before core's
 * {@code deleteNodes} reaches the provider, the node is tainted {@code ToBeDeletedByClusterAutoscaler} (value = Unix
 * seconds, {@code NoSchedule}) and cordoned, and its real pods (not DaemonSet or mirror pods; virtual pods never
 * exist in the API) are evicted through the Eviction API. A refused eviction aborts that node: the taint and cordon
 * are removed and the failure goes back to core (which records {@code ScaleDownFailed} and its failure cooldown).
 * Which node goes is core's decision; this class only carries it out.
 */
public final class NodeDrainer implements NodeGroupProvider {
  private static final Logger LOG = LoggerFactory.getLogger(NodeDrainer.class);

  private final NodeGroupProvider delegate;
  private final KubernetesClient client;
  private final Supplier<List<Pod>> pods;
  private final Clock clock;
  private final Duration deleteDelayAfterTaint;
  private final int maxGracefulTerminationSec;
  private final Sleeper sleeper;
  private final Consumer<Boolean> evictionObserver;

  /** Waits between tainting and deleting (injectable so tests do not sleep). */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;

    Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());
  }

  /**
   * @param pods the current pods (the informer cache)
   * @param deleteDelayAfterTaint wait after evicting pods before the node is deleted ({@code --node-delete-delay-after-taint})
   * @param evictionObserver told of every eviction ({@code true} = succeeded)
   */
  public NodeDrainer(NodeGroupProvider delegate, KubernetesClient client, Supplier<List<Pod>> pods, Clock clock,
      Duration deleteDelayAfterTaint, int maxGracefulTerminationSec, Sleeper sleeper, Consumer<Boolean> evictionObserver) {
    this.delegate = delegate;
    this.client = client;
    this.pods = pods;
    this.clock = clock;
    this.deleteDelayAfterTaint = deleteDelayAfterTaint;
    this.maxGracefulTerminationSec = maxGracefulTerminationSec;
    this.sleeper = sleeper;
    this.evictionObserver = evictionObserver;
  }

  @Override
  public void refresh() {
    delegate.refresh();
  }

  @Override
  public List<NodeGroup> nodeGroups() {
    return delegate.nodeGroups();
  }

  @Override
  public Optional<String> nodeGroupOf(Node node) {
    return delegate.nodeGroupOf(node);
  }

  @Override
  public void increaseSize(String groupId, int delta) {
    delegate.increaseSize(groupId, delta);
  }

  @Override
  public void decreaseTargetSize(String groupId, int delta) {
    delegate.decreaseTargetSize(groupId, delta);
  }

  @Override
  public Optional<String> standbyUnsupported() {
    return delegate.standbyUnsupported();
  }

  @Override
  public boolean isStandby(Node node) {
    return delegate.isStandby(node);
  }

  @Override
  public StandbyPool standbyPool(String groupId) {
    return delegate.standbyPool(groupId);
  }

  @Override
  public void setStandbyTarget(String groupId, int target) {
    delegate.setStandbyTarget(groupId, target);
  }

  @Override
  public void deleteNodes(String groupId, List<Node> nodes) {
    List<String> tainted = new ArrayList<>();
    boolean evicted = false;
    try {
      for (Node n : nodes) {
        String name = n.getMetadata().getName();
        taint(name);
        tainted.add(name);
        evicted |= evict(name);
      }
      if (evicted && !deleteDelayAfterTaint.isZero()) {
        sleeper.sleep(deleteDelayAfterTaint);
      }
      delegate.deleteNodes(groupId, nodes);
    } catch (ProviderException | KubernetesClientException e) {
      tainted.forEach(this::untaint);
      throw e instanceof ProviderException p ? p : new ProviderException(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      tainted.forEach(this::untaint);
      throw new ProviderException("interrupted while deleting nodes");
    }
  }

  private void taint(String node) {
    String value = Long.toString(clock.instant().getEpochSecond());
    client.nodes().withName(node).edit(n -> {
      List<Taint> taints = new ArrayList<>(n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints());
      if (taints.stream().noneMatch(t -> Nodes.TO_BE_DELETED_TAINT.equals(t.getKey()))) {
        taints.add(new TaintBuilder().withKey(Nodes.TO_BE_DELETED_TAINT).withValue(value).withEffect("NoSchedule").build());
      }
      n.getSpec().setTaints(taints);
      n.getSpec().setUnschedulable(true);
      return n;
    });
  }

  private void untaint(String node) {
    try {
      client.nodes().withName(node).edit(n -> {
        if (n.getSpec().getTaints() != null) {
          n.getSpec().setTaints(new ArrayList<>(n.getSpec().getTaints().stream().filter(t -> !Nodes.TO_BE_DELETED_TAINT.equals(t.getKey())).toList()));
        }
        n.getSpec().setUnschedulable(null);
        return n;
      });
    } catch (KubernetesClientException e) {
      LOG.warn("removing the deletion taint from node {} failed: {}", node, ApiErrors.message(e));
    }
  }

  /** Evicts the node's real, non-DaemonSet, non-mirror pods; returns true when any pod was evicted. */
  private boolean evict(String node) {
    boolean any = false;
    for (Pod p : pods.get()) {
      if (p.getSpec() == null || !node.equals(p.getSpec().getNodeName()) || VirtualPods.isVirtual(p)
          || DrainRules.isDaemonSetPod(p) || DrainRules.isMirrorPod(p)) {
        continue;
      }
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      long grace = p.getSpec().getTerminationGracePeriodSeconds() == null ? 30 : p.getSpec().getTerminationGracePeriodSeconds();
      Eviction eviction = new EvictionBuilder()
          .withNewMetadata().withName(p.getMetadata().getName()).withNamespace(p.getMetadata().getNamespace()).endMetadata()
          .withDeleteOptions(new io.fabric8.kubernetes.api.model.DeleteOptionsBuilder().withGracePeriodSeconds(Math.min(grace, (long) maxGracefulTerminationSec)).build())
          .build();
      boolean ok;
      try {
        ok = client.pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName()).evict(eviction);
      } catch (KubernetesClientException e) {
        ok = e.getCode() == 404;
      }
      evictionObserver.accept(ok);
      if (!ok) {
        throw new ProviderException("failed to evict pod " + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + " from node " + node);
      }
      any = true;
    }
    return any;
  }
}
