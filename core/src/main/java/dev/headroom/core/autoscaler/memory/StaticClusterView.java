package dev.headroom.core.autoscaler.memory;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.ClusterView;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link ClusterView} over fixed lists of objects (parsed files, generated benchmark inputs). Every read
 * returns the same objects; the core never mutates them.
 */
public final class StaticClusterView implements ClusterView {

  private final List<Node> nodes;
  private final List<Pod> pods;
  private final List<PodDisruptionBudget> pdbs;
  private final List<CapacityBuffer> buffers;
  private final Map<String, PodTemplate> templates;
  private final dev.headroom.core.autoscaler.PodGroups podGroups;
  private final List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests;

  private StaticClusterView(Builder b) {
    this.provisioningRequests = List.copyOf(b.provisioningRequests);
    this.nodes = List.copyOf(b.nodes);
    this.pods = List.copyOf(b.pods);
    this.pdbs = List.copyOf(b.pdbs);
    this.buffers = List.copyOf(b.buffers);
    this.templates = Map.copyOf(b.templates);
    this.podGroups = new dev.headroom.core.autoscaler.PodGroups(b.podGroups);
  }

  @Override
  public List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests() {
    return provisioningRequests;
  }

  /** An empty builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public List<Node> nodes() {
    return nodes;
  }

  @Override
  public List<Pod> pods() {
    return pods;
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets() {
    return pdbs;
  }

  @Override
  public dev.headroom.core.autoscaler.PodGroups podGroups() {
    return podGroups;
  }

  @Override
  public List<CapacityBuffer> buffers() {
    return buffers;
  }

  @Override
  public Optional<PodTemplate> podTemplate(String namespace, String name) {
    return Optional.ofNullable(templates.get(key(namespace, name)));
  }

  private static String key(String namespace, String name) {
    return (namespace == null || namespace.isEmpty() ? "default" : namespace) + "/" + name;
  }

  /** Collects the objects of a view. */
  public static final class Builder {
    private final List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests = new java.util.ArrayList<>();
    private final List<Node> nodes = new ArrayList<>();
    private final List<Pod> pods = new ArrayList<>();
    private final List<PodDisruptionBudget> pdbs = new ArrayList<>();
    private final List<CapacityBuffer> buffers = new ArrayList<>();
    private final List<dev.headroom.core.autoscaler.PodGroups.Group> podGroups = new ArrayList<>();
    private final Map<String, PodTemplate> templates = new LinkedHashMap<>();

    private Builder() {}

    public Builder node(Node n) {
      nodes.add(n);
      return this;
    }

    public Builder nodes(List<Node> ns) {
      nodes.addAll(ns);
      return this;
    }

    public Builder pod(Pod p) {
      pods.add(p);
      return this;
    }

    public Builder pods(List<Pod> ps) {
      pods.addAll(ps);
      return this;
    }

    public Builder podDisruptionBudget(PodDisruptionBudget pdb) {
      pdbs.add(pdb);
      return this;
    }

    public Builder buffer(CapacityBuffer b) {
      buffers.add(b);
      return this;
    }

    /** A PodTemplate (a buffer's managed template); namespace {@code default} when unset. */
    public Builder podTemplate(PodTemplate t) {
      templates.put(key(t.getMetadata().getNamespace(), t.getMetadata().getName()), t);
      return this;
    }

    /** A ProvisioningRequest. */
    public Builder provisioningRequest(dev.headroom.api.provisioningrequest.v1.ProvisioningRequest r) {
      provisioningRequests.add(r);
      return this;
    }

    /** A declared pod group (a PodGroup object). */
    public Builder podGroup(dev.headroom.core.autoscaler.PodGroups.Group g) {
      podGroups.add(g);
      return this;
    }

    public StaticClusterView build() {
      return new StaticClusterView(this);
    }
  }
}
