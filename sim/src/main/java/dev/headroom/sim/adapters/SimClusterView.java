package dev.headroom.sim.adapters;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.PodGroups;
import dev.headroom.sim.cluster.SimCluster;
import dev.headroom.sim.cluster.SimNode;
import dev.headroom.sim.cluster.SimPod;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The autoscaler's {@link ClusterView} over the simulated cluster: every live Node and Pod object, the
 * strategy's buffers and their managed templates. One read per loop; the core does not mutate it.
 */
public final class SimClusterView implements ClusterView {

  private final SimCluster cluster;
  private final SimBuffers buffers;
  private final Supplier<List<PodGroups.Group>> podGroups;

  /** A view over the cluster and (possibly null) buffers. */
  public SimClusterView(SimCluster cluster, SimBuffers buffers) {
    this(cluster, buffers, List::of);
  }

  /** A view that also declares the PodGroups {@code podGroups} lists (the gang jobs' groups). */
  public SimClusterView(SimCluster cluster, SimBuffers buffers, Supplier<List<PodGroups.Group>> podGroups) {
    this.cluster = cluster;
    this.buffers = buffers;
    this.podGroups = podGroups;
  }

  /** The PodGroup objects of the live gang jobs, as PodGroup informers would list them. */
  @Override
  public PodGroups podGroups() {
    List<PodGroups.Group> groups = podGroups.get();
    return groups.isEmpty() ? PodGroups.NONE : new PodGroups(groups);
  }

  @Override
  public List<Node> nodes() {
    List<Node> out = new ArrayList<>(cluster.nodes().size());
    for (SimNode n : cluster.nodes()) {
      out.add(n.node());
    }
    return out;
  }

  /** The live pods (read in full only when the autoscaler starts; afterwards it follows the change log). */
  @Override
  public List<Pod> pods() {
    List<Pod> out = new ArrayList<>(cluster.pods().size());
    for (SimPod p : cluster.pods()) {
      out.add(p.pod());
    }
    return out;
  }

  /** The cluster's pod change log, as an informer's event handler would record it. */
  @Override
  public Optional<PodChanges> podChangesSince(long cursor) {
    return cluster.podChanges().since(cursor);
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets() {
    return List.of();
  }

  @Override
  public List<CapacityBuffer> buffers() {
    return buffers == null ? List.of() : buffers.list();
  }

  @Override
  public Optional<PodTemplate> podTemplate(String namespace, String name) {
    return buffers == null ? Optional.empty() : buffers.template(namespace, name);
  }
}
