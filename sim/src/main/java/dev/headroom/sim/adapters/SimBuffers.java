package dev.headroom.sim.adapters;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.core.buffer.BufferClusterView;
import dev.headroom.core.buffer.BufferOutcome;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.BufferSettings;
import dev.headroom.core.buffer.ClusterApiException;
import dev.headroom.core.buffer.DefaultingPodResolver;
import dev.headroom.core.buffer.InMemoryTemplateStore;
import dev.headroom.core.buffer.NamespaceResult;
import dev.headroom.core.buffer.ScaleView;
import dev.headroom.core.buffer.SelectorExpression;
import dev.headroom.core.buffer.WorkloadKind;
import dev.headroom.sim.cluster.DeploymentController;
import dev.headroom.sim.cluster.SimCluster;
import dev.headroom.sim.cluster.SimPod;
import dev.headroom.sim.scenario.Scenario;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The strategy's CapacityBuffers and the buffer controller that sizes them. Each sync runs the core
 * {@link BufferReconciler#reconcileNamespace} over a {@link BufferClusterView} of the simulated cluster, with
 * the core's {@link DefaultingPodResolver} and an {@link InMemoryTemplateStore}, and writes the statuses it
 * reports as changed — exactly the controller's loop, with the simulator as the API server.
 */
public final class SimBuffers {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final SimCluster cluster;
  private final Map<String, DeploymentController> deployments;
  private final Map<String, CapacityBuffer> buffers = new TreeMap<>();
  private final InMemoryTemplateStore templates = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
  private final BufferReconciler reconciler = new BufferReconciler(BufferSettings.defaults());
  private final DefaultingPodResolver resolver = new DefaultingPodResolver();
  private final View view = new View();
  private long reconciles;

  /**
   * Buffers for a strategy.
   *
   * @param deployments the scenario's Deployments by {@code namespace/name}
   */
  public SimBuffers(SimCluster cluster, Map<String, DeploymentController> deployments, List<Scenario.BufferDef> defs,
      Instant created) {
    this.cluster = cluster;
    this.deployments = deployments;
    int i = 0;
    for (Scenario.BufferDef d : defs) {
      CapacityBuffer b = new CapacityBuffer();
      b.getMetadata().setName(d.name());
      b.getMetadata().setNamespace(d.namespace());
      b.getMetadata().setUid("buffer-" + (++i));
      b.getMetadata().setGeneration(1L);
      b.getMetadata().setCreationTimestamp(created.toString());
      b.setSpec(SERIALIZATION.clone(d.spec()));
      b.setStatus(new CapacityBufferStatus());
      buffers.put(d.namespace() + "/" + d.name(), b);
    }
  }

  /** One controller pass over every namespace that has buffers. */
  public void reconcile(Instant now) {
    reconciles++;
    for (String ns : new TreeSet<>(buffers.values().stream().map(b -> b.getMetadata().getNamespace()).toList())) {
      NamespaceResult result = reconciler.reconcileNamespace(ns, view, templates, resolver, now);
      for (BufferOutcome o : result.changed()) {
        CapacityBuffer stored = buffers.get(o.key());
        if (stored != null) {
          // the status write: keep the autoscaler's conditions, take the controller's fields and conditions
          CapacityBufferStatus computed = o.buffer().getStatus();
          List<Condition> merged = new ArrayList<>(computed.getConditions() == null ? List.of() : computed.getConditions());
          for (Condition c : stored.getStatus().getConditions()) {
            if (merged.stream().noneMatch(m -> m.getType().equals(c.getType()))) {
              merged.add(c);
            }
          }
          computed.setConditions(merged);
          stored.setStatus(computed);
        }
      }
    }
  }

  /** Writes conditions for the autoscaler (its status-writer port). */
  public void writeConditions(CapacityBuffer buffer, List<Condition> conditions) {
    CapacityBuffer stored = buffers.get(buffer.getMetadata().getNamespace() + "/" + buffer.getMetadata().getName());
    if (stored != null) {
      stored.getStatus().setConditions(new ArrayList<>(conditions));
    }
  }

  /** Deep copies of the buffers, as an informer cache would hand them out. */
  public List<CapacityBuffer> list() {
    List<CapacityBuffer> out = new ArrayList<>(buffers.size());
    for (CapacityBuffer b : buffers.values()) {
      out.add(SERIALIZATION.clone(b));
    }
    return out;
  }

  /** The stored buffers (live objects; do not mutate). */
  public List<CapacityBuffer> stored() {
    return List.copyOf(buffers.values());
  }

  /** Sum of {@code status.replicas} over the buffers. */
  public int totalReplicas() {
    int n = 0;
    for (CapacityBuffer b : buffers.values()) {
      if (b.getStatus() != null && b.getStatus().getReplicas() != null) {
        n += b.getStatus().getReplicas();
      }
    }
    return n;
  }

  /** A managed PodTemplate by namespace and name. */
  public Optional<PodTemplate> template(String namespace, String name) {
    return templates.get(namespace, name);
  }

  /** Reconciles run so far. */
  public long reconciles() {
    return reconciles;
  }

  private final class View implements BufferClusterView {
    @Override
    public List<CapacityBuffer> buffers(String namespace) {
      List<CapacityBuffer> out = new ArrayList<>();
      for (CapacityBuffer b : buffers.values()) {
        if (b.getMetadata().getNamespace().equals(namespace)) {
          out.add(SERIALIZATION.clone(b));
        }
      }
      return out;
    }

    @Override
    public Optional<PodTemplate> podTemplate(String namespace, String name) {
      return templates.get(namespace, name);
    }

    @Override
    public Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) {
      if (kind != WorkloadKind.DEPLOYMENT) {
        return Optional.empty();
      }
      DeploymentController d = deployments.get(namespace + "/" + name);
      return d == null ? Optional.empty() : Optional.of(SERIALIZATION.clone(d.deployment()));
    }

    @Override
    public ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException {
      Optional<WorkloadKind> wk = WorkloadKind.resolve(apiGroup, kind);
      if (wk.isEmpty()) {
        throw new ClusterApiException("the server doesn't have a resource type \"" + kind + "\"");
      }
      if (wk.get() != WorkloadKind.DEPLOYMENT || !deployments.containsKey(namespace + "/" + name)) {
        throw new ClusterApiException(wk.get().notFound(name));
      }
      return wk.get().scaleOf(deployments.get(namespace + "/" + name).deployment()).orElseThrow();
    }

    @Override
    public List<Pod> pods(String namespace, SelectorExpression selector) {
      List<Pod> out = new ArrayList<>();
      for (SimPod p : cluster.pods()) {
        Map<String, String> labels = p.pod().getMetadata().getLabels();
        if (p.namespace().equals(namespace) && p.pod().getMetadata().getDeletionTimestamp() == null
            && selector.matches(labels)) {
          out.add(p.pod());
        }
      }
      return out;
    }

    @Override
    public List<ResourceQuota> resourceQuotas(String namespace) {
      return List.of();
    }
  }
}
