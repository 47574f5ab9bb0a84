package dev.headroom.sim.adapters;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.core.buffer.BufferClusterView;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.BufferConsumption;
import dev.headroom.core.buffer.BufferOutcome;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.BufferSettings;
import dev.headroom.core.buffer.ClusterApiException;
import dev.headroom.core.buffer.DefaultingPodResolver;
import dev.headroom.core.buffer.InMemoryTemplateStore;
import dev.headroom.core.buffer.NamespaceResult;
import dev.headroom.core.buffer.ScaleView;
import dev.headroom.core.buffer.SelectorExpression;
import dev.headroom.core.buffer.UnmappedKindException;
import dev.headroom.core.buffer.WorkloadKind;
import dev.headroom.sim.cluster.DeploymentController;
import dev.headroom.sim.cluster.SimCluster;
import dev.headroom.sim.cluster.SimPod;
import dev.headroom.sim.scenario.Scenario;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
  /** The PodTemplates that buffers' {@code spec.podTemplateRef} name (the user's objects), by namespace/name. */
  private final Map<String, PodTemplate> userTemplates = new HashMap<>();
  private final InMemoryTemplateStore templates = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
  private final BufferReconciler reconciler;
  private final DefaultingPodResolver resolver = new DefaultingPodResolver();
  private final View view = new View();
  private final NewestLivePods newestPods;
  /** The parsed consumer selectors of the buffers that pods consume, by namespace/name. */
  private final Map<String, SelectorExpression> consumers = new TreeMap<>();
  private final Map<String, Optional<PodTemplate>> templateCache = new HashMap<>();
  private long templateCacheWrites = -1;
  private long reconciles;
  private long[] lastFingerprint;
  /** What {@link #list} hands out for the current stored state; null after a write. */
  private List<CapacityBuffer> listed;
  private Instant nextResync = Instant.MIN;

  /** Period of the controller's full resync, as an informer's resync period. */
  public static final java.time.Duration RESYNC = java.time.Duration.ofMinutes(5);

  /**
   * Buffers for a strategy.
   *
   * @param deployments the scenario's Deployments by {@code namespace/name}
   */
  public SimBuffers(SimCluster cluster, Map<String, DeploymentController> deployments, List<Scenario.BufferDef> defs,
      Instant created) {
    this(cluster, deployments, defs, created, BufferSettings.defaults());
  }

  /**
   * Buffers for a strategy, reconciled with {@code settings} (with {@link BufferSettings#standbyCapacity()} on for a
   * strategy with standby buffers).
   *
   * @param deployments the scenario's Deployments by {@code namespace/name}
   */
  public SimBuffers(SimCluster cluster, Map<String, DeploymentController> deployments, List<Scenario.BufferDef> defs,
      Instant created, BufferSettings settings) {
    this.reconciler = new BufferReconciler(settings);
    this.cluster = cluster;
    this.deployments = deployments;
    this.newestPods = new NewestLivePods(cluster);
    int i = 0;
    for (Scenario.BufferDef d : defs) {
      CapacityBuffer b = new CapacityBuffer();
      b.getMetadata().setName(d.name());
      b.getMetadata().setNamespace(d.namespace());
      b.getMetadata().setUid("buffer-" + (++i));
      b.getMetadata().setGeneration(1L);
      b.getMetadata().setCreationTimestamp(created.toString());
      Map<String, String> annotations = new TreeMap<>(d.annotations());
      if (d.activeSchedule() != null) {
        annotations.put(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, d.activeSchedule());
      }
      if (!annotations.isEmpty()) {
        b.getMetadata().setAnnotations(annotations);
      }
      if (d.podTemplate() != null) {
        userTemplates.put(d.namespace() + "/" + d.podTemplate().getMetadata().getName(), d.podTemplate());
      }
      b.setSpec(SERIALIZATION.clone(d.spec()));
      if (b.getSpec().getProvisioningStrategy() == null) {
        // the CRD's schema default, which the API server applies on create
        b.getSpec().setProvisioningStrategy(BufferConditions.STRATEGY_ACTIVE_CAPACITY);
      }
      b.setStatus(new CapacityBufferStatus());
      buffers.put(d.namespace() + "/" + d.name(), b);
      String selector = annotations.get(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR);
      if (selector != null) {
        try {
          consumers.put(d.namespace() + "/" + d.name(), SelectorExpression.parse(selector));
        } catch (IllegalArgumentException e) {
          // the reconcile reports it on the buffer
        }
      }
    }
  }

  /**
   * One controller pass over every namespace that has buffers, when something it watches changed since the
   * last pass (a Deployment's replicas or status) or a full resync is due — the informer-driven controller's
   * behaviour. Returns true when it reconciled.
   */
  public boolean reconcile(Instant now) {
    long[] fingerprint = fingerprint();
    if (Arrays.equals(fingerprint, lastFingerprint) && now.isBefore(nextResync)) {
      return false;
    }
    lastFingerprint = fingerprint;
    nextResync = now.plus(RESYNC);
    reconcileAll(now);
    return true;
  }

  /**
   * Generation and {@code status.replicas} of every Deployment (absent values as {@link Long#MIN_VALUE}), and the
   * consuming pods of every buffer with a consumer selector (the controller's pod handler).
   */
  private long[] fingerprint() {
    long[] f = new long[2 * deployments.size() + consumers.size()];
    int i = 0;
    for (Map.Entry<String, SelectorExpression> c : consumers.entrySet()) {
      String ns = buffers.get(c.getKey()).getMetadata().getNamespace();
      long n = 0;
      for (SimPod p : NewestLivePods.listed(cluster, ns, c.getValue())) {
        if (BufferConsumption.consumes(p.pod())) {
          n++;
        }
      }
      f[i++] = n;
    }
    for (DeploymentController d : deployments.values()) {
      Long generation = d.deployment().getMetadata().getGeneration();
      Integer replicas = d.deployment().getStatus().getReplicas();
      f[i++] = generation == null ? Long.MIN_VALUE : generation;
      f[i++] = replicas == null ? Long.MIN_VALUE : replicas;
    }
    return f;
  }

  private void reconcileAll(Instant now) {
    reconciles++;
    for (String ns : new TreeSet<>(buffers.values().stream().map(b -> b.getMetadata().getNamespace()).toList())) {
      NamespaceResult result = reconciler.reconcileNamespace(ns, view, templates, resolver, now);
      // the controller re-adds the namespace at its next schedule boundary (ControllerLoop)
      result.nextBoundary().filter(t -> t.isBefore(nextResync)).ifPresent(t -> nextResync = t);
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
          listed = null;
          lastFingerprint = null;
          cluster.changed();
        }
      }
    }
  }

  /**
   * A write of the buffer's {@code /scale} subresource: {@code spec.replicas = replicas} (its {@code specReplicasPath}),
   * a spec change, so the generation moves and the controller's next pass re-translates the buffer (its informer
   * would deliver the update at once; the simulated controller takes it at its next sync).
   */
  public void scale(String namespace, String name, int replicas) {
    CapacityBuffer stored = buffers.get(namespace + "/" + name);
    if (stored == null) {
      throw new IllegalArgumentException("no buffer " + namespace + "/" + name);
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("spec.replicas: must be greater than or equal to 0");
    }
    if (java.util.Objects.equals(stored.getSpec().getReplicas(), replicas)) {
      return;
    }
    stored.getSpec().setReplicas(replicas);
    stored.getMetadata().setGeneration(stored.getMetadata().getGeneration() + 1);
    listed = null;
    lastFingerprint = null;
    cluster.changed();
  }

  /** Writes conditions for the autoscaler (its status-writer port). */
  public void writeConditions(CapacityBuffer buffer, List<Condition> conditions) {
    CapacityBuffer stored = buffers.get(buffer.getMetadata().getNamespace() + "/" + buffer.getMetadata().getName());
    if (stored != null && !conditions.equals(stored.getStatus().getConditions())) {
      stored.getStatus().setConditions(new ArrayList<>(conditions));
      listed = null;
      cluster.changed();
    }
  }

  /**
   * Deep copies of the buffers, as an informer cache hands them out: one unmodifiable list of copies per stored
   * state, shared by every read until a buffer is written again (readers must not mutate the buffers).
   */
  public List<CapacityBuffer> list() {
    if (listed == null) {
      List<CapacityBuffer> out = new ArrayList<>(buffers.size());
      for (CapacityBuffer b : buffers.values()) {
        out.add(copy(b));
      }
      listed = List.copyOf(out);
    }
    return listed;
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

  /**
   * The workload each buffer targets: its {@code scalableRef} name (every scenario buffer names a Deployment of
   * its own namespace), with the buffers that target it in name order ({@code namespace/name} keys).
   */
  public Map<String, List<String>> buffersByWorkload() {
    Map<String, List<String>> out = new TreeMap<>();
    for (CapacityBuffer b : buffers.values()) {
      String w = target(b);
      if (w != null) {
        out.computeIfAbsent(w, k -> new ArrayList<>()).add(b.getMetadata().getName());
      }
    }
    return out;
  }

  /** Sum of {@code status.replicas} per targeted workload (every workload of {@link #buffersByWorkload}). */
  public Map<String, Integer> replicasByWorkload() {
    Map<String, Integer> out = new TreeMap<>();
    for (CapacityBuffer b : buffers.values()) {
      String w = target(b);
      if (w != null) {
        Integer r = b.getStatus() == null ? null : b.getStatus().getReplicas();
        out.merge(w, r == null ? 0 : r, Integer::sum);
      }
    }
    return out;
  }

  private static String target(CapacityBuffer b) {
    ScalableRef ref = b.getSpec() == null ? null : b.getSpec().getScalableRef();
    return ref == null ? null : ref.getName();
  }

  /**
   * A managed PodTemplate by namespace and name, as an informer cache hands it out: one copy per stored
   * version, shared by every read until the template store is written again (readers must not mutate it).
   */
  public Optional<PodTemplate> template(String namespace, String name) {
    long writes = (long) templates.creates() + templates.updates();
    if (writes != templateCacheWrites) {
      templateCache.clear();
      templateCacheWrites = writes;
    }
    return templateCache.computeIfAbsent(namespace + "/" + name, k -> templates.get(namespace, name));
  }

  /** Reconciles run so far. */
  public long reconciles() {
    return reconciles;
  }

  /** A deep copy of a buffer (as an informer cache hands out), without a serialisation round trip. */
  static CapacityBuffer copy(CapacityBuffer b) {
    CapacityBuffer c = new CapacityBuffer();
    c.setMetadata(new ObjectMetaBuilder(b.getMetadata()).build());
    CapacityBufferSpec s = b.getSpec();
    if (s != null) {
      CapacityBufferSpec cs = new CapacityBufferSpec();
      cs.setProvisioningStrategy(s.getProvisioningStrategy());
      cs.setPodTemplateRef(s.getPodTemplateRef() == null ? null : new LocalObjectRef(s.getPodTemplateRef().getName()));
      cs.setScalableRef(s.getScalableRef() == null ? null : new ScalableRef(s.getScalableRef().getApiGroup(),
          s.getScalableRef().getKind(), s.getScalableRef().getName()));
      cs.setReplicas(s.getReplicas());
      cs.setPercentage(s.getPercentage());
      cs.setLimits(s.getLimits() == null ? null : new LinkedHashMap<>(s.getLimits()));
      c.setSpec(cs);
    }
    CapacityBufferStatus st = b.getStatus();
    if (st != null) {
      CapacityBufferStatus cst = new CapacityBufferStatus();
      cst.setPodTemplateRef(st.getPodTemplateRef() == null ? null : new LocalObjectRef(st.getPodTemplateRef().getName()));
      cst.setReplicas(st.getReplicas());
      cst.setPodTemplateGeneration(st.getPodTemplateGeneration());
      cst.setProvisioningStrategy(st.getProvisioningStrategy());
      List<Condition> conditions = new ArrayList<>();
      if (st.getConditions() != null) {
        for (Condition x : st.getConditions()) {
          conditions.add(new ConditionBuilder(x).build());
        }
      }
      cst.setConditions(conditions);
      c.setStatus(cst);
    }
    return c;
  }

  private final class View implements BufferClusterView {
    @Override
    public List<CapacityBuffer> buffers(String namespace) {
      List<CapacityBuffer> out = new ArrayList<>();
      for (CapacityBuffer b : buffers.values()) {
        if (b.getMetadata().getNamespace().equals(namespace)) {
          out.add(copy(b));
        }
      }
      return out;
    }

    @Override
    public Optional<PodTemplate> podTemplate(String namespace, String name) {
      PodTemplate user = userTemplates.get(namespace + "/" + name);
      return user != null ? Optional.of(SERIALIZATION.clone(user)) : templates.get(namespace, name);
    }

    @Override
    public Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) {
      if (kind != WorkloadKind.DEPLOYMENT) {
        return Optional.empty();
      }
      DeploymentController d = deployments.get(namespace + "/" + name);
      return d == null ? Optional.empty() : Optional.of(new DeploymentBuilder(d.deployment()).build());
    }

    @Override
    public ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException {
      Optional<WorkloadKind> wk = WorkloadKind.resolve(apiGroup, kind);
      if (wk.isEmpty()) {
        throw UnmappedKindException.noMatches(apiGroup, kind);
      }
      if (wk.get() != WorkloadKind.DEPLOYMENT || !deployments.containsKey(namespace + "/" + name)) {
        throw new ClusterApiException(wk.get().notFound(name));
      }
      return wk.get().scaleOf(deployments.get(namespace + "/" + name).deployment()).orElseThrow();
    }

    @Override
    public List<Pod> pods(String namespace, SelectorExpression selector) {
      List<SimPod> listed = NewestLivePods.listed(cluster, namespace, selector);
      List<Pod> out = new ArrayList<>(listed.size());
      for (SimPod p : listed) {
        out.add(p.pod());
      }
      return out;
    }

    /** The core rule over {@link #pods}, kept up to date from the cluster's pod changes. */
    @Override
    public Optional<Pod> newestPod(String namespace, SelectorExpression selector) {
      return newestPods.newest(namespace, selector);
    }

    /**
     * The pod's {@link SimPod#templateToken()}: pods of one workload template share it, so a new newest pod reuses
     * the managed template extracted from an earlier one. Null for a pod no longer in the cluster.
     */
    @Override
    public String podTemplateVersion(Pod pod) {
      SimPod p = cluster.pod(pod.getMetadata().getUid());
      return p == null || p.pod() != pod ? null : p.templateToken();
    }

    @Override
    public List<ResourceQuota> resourceQuotas(String namespace) {
      return List.of();
    }
  }
}
