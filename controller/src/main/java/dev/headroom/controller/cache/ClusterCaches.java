package dev.headroom.controller.cache;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.manager.InformerCache;
import dev.headroom.core.buffer.BufferConsumption;
import dev.headroom.core.buffer.ClusterApiException;
import dev.headroom.core.buffer.ScaleView;
import dev.headroom.core.buffer.SelectorExpression;
import dev.headroom.core.buffer.WorkloadKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buffer controller's informers, taken from the manager's {@link InformerCache}, and the enqueue rules of spec
 * §6.2 and §6.4 on top of them:
 * CapacityBuffer, PodTemplate, ResourceQuota, the five built-in workload kinds and Pod, plus dynamic informers for
 * custom scalable kinds. Informers run on every replica so that caches are warm before leadership is won; only the
 * leader consumes the enqueued namespaces.
 */
public final class ClusterCaches implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterCaches.class);

  private final KubernetesClient client;
  private final InformerCache cache;
  private final Consumer<String> enqueue;
  private final Consumer<String> enqueueResync;
  private final KindCache<CapacityBuffer> buffers;
  private final KindCache<PodTemplate> templates;
  private final KindCache<ResourceQuota> quotas;
  private final KindCache<Pod> pods;
  private final Map<WorkloadKind, KindCache<HasMetadata>> workloads = new EnumMap<>(WorkloadKind.class);
  private final CustomKindWatches customKinds;
  private final ExecutorService watchSync;
  private final AtomicBoolean watchSyncPending = new AtomicBoolean();
  private final List<Consumer<PodTemplate>> templateDeletions = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * @param namespaces the namespaces to watch (empty: all)
   * @param resync the buffer informer's resync period (5 minutes in production)
   * @param enqueue receives the namespaces to reconcile
   */
  public ClusterCaches(InformerCache cache, List<String> namespaces, Duration resync, Consumer<String> enqueue, ApiCallObserver observer,
      ApiHealth health) {
    this(cache, namespaces, resync, enqueue, enqueue, observer, health);
  }

  /**
   * As above, with the namespaces that only a periodic resync of the buffer informer asks for going to
   * {@code enqueueResync} (the work queue's low priority), so a real change is reconciled before a resync pass.
   */
  public ClusterCaches(InformerCache cache, List<String> namespaces, Duration resync, Consumer<String> enqueue,
      Consumer<String> enqueueResync, ApiCallObserver observer, ApiHealth health) {
    this.client = cache.client();
    this.cache = cache;
    this.enqueue = enqueue;
    this.enqueueResync = enqueueResync;
    this.buffers = new KindCache<>("CapacityBuffer", namespaces, ns -> cache.informer(CapacityBuffer.class, ns, resync),
        Map.of(Indexes.BUFFER_BY_TEMPLATE, Indexes::bufferTemplate, Indexes.BUFFER_BY_SCALABLE, Indexes::bufferScalable),
        bufferHandler());
    // Pods and PodTemplates: a cluster-wide informer already in the cache (the autoscaler's) serves the watched namespaces
    this.templates = KindCache.covering("PodTemplate", namespaces, ns -> cache.covering(PodTemplate.class, ns, Duration.ZERO), Map.of(), templateHandler());
    this.quotas = new KindCache<>("ResourceQuota", namespaces, ns -> cache.informer(ResourceQuota.class, ns, Duration.ZERO), Map.of(), quotaHandler());
    this.pods = KindCache.covering("Pod", namespaces, ns -> cache.covering(Pod.class, ns, Duration.ZERO),
        Map.of(Indexes.POD_BY_LABEL, Indexes::podLabels), podHandler());
    for (WorkloadKind kind : WorkloadKind.values()) {
      @SuppressWarnings("unchecked")
      Class<HasMetadata> type = (Class<HasMetadata>) kind.type();
      workloads.put(kind, new KindCache<>(kind.kind(), namespaces, ns -> cache.informer(type, ns, Duration.ZERO), Map.of(), workloadHandler(kind)));
    }
    this.customKinds = new CustomKindWatches(client, namespaces, observer, this::enqueueReferencing, health);
    this.watchSync = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "headroom-custom-kind-watches");
      t.setDaemon(true);
      return t;
    });
  }

  /** Completes when each of these kinds' informers has listed once (after the manager started the cache). */
  public CompletableFuture<Void> synced() {
    List<SharedIndexInformer<?>> all = new ArrayList<>();
    for (KindCache<?> c : List.of(buffers, templates, quotas, pods)) {
      all.addAll(c.informers());
    }
    workloads.values().forEach(c -> all.addAll(c.informers()));
    return cache.synced(all);
  }

  // ---- handlers: spec §6.2 and §6.4 ----

  private ResourceEventHandler<CapacityBuffer> bufferHandler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(CapacityBuffer b) {
        enqueue.accept(b.getMetadata().getNamespace());
        scheduleWatchSync();
      }

      @Override
      public void onUpdate(CapacityBuffer oldB, CapacityBuffer newB) {
        boolean resync = Objects.equals(oldB.getMetadata().getResourceVersion(), newB.getMetadata().getResourceVersion());
        if (resync) {
          enqueueResync.accept(newB.getMetadata().getNamespace());
        } else if (EnqueueRules.bufferUpdate(oldB, newB)) {
          enqueue.accept(newB.getMetadata().getNamespace());
        }
        if (resync || !Objects.equals(oldB.getSpec() == null ? null : oldB.getSpec().getScalableRef(), newB.getSpec() == null ? null : newB.getSpec().getScalableRef())) {
          scheduleWatchSync();
        }
      }

      @Override
      public void onDelete(CapacityBuffer b, boolean unknownFinalState) {
        enqueue.accept(b.getMetadata().getNamespace());
        scheduleWatchSync();
      }
    };
  }

  private ResourceEventHandler<PodTemplate> templateHandler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(PodTemplate t) {
        if (referenced(t)) {
          enqueue.accept(t.getMetadata().getNamespace());
        }
      }

      @Override
      public void onUpdate(PodTemplate oldT, PodTemplate newT) {
        boolean userTemplateChanged = EnqueueRules.generationChanged(oldT, newT) && referenced(newT);
        boolean managedTemplateTouched = EnqueueRules.ownedByBuffer(newT) && !Objects.equals(oldT.getMetadata().getResourceVersion(), newT.getMetadata().getResourceVersion());
        if (userTemplateChanged || managedTemplateTouched) {
          enqueue.accept(newT.getMetadata().getNamespace());
        }
      }

      @Override
      public void onDelete(PodTemplate t, boolean unknownFinalState) {
        // before the enqueue: the reconcile it starts must not find the deleted template in a writer's overlay
        templateDeletions.forEach(l -> l.accept(t));
        if (referenced(t) || EnqueueRules.ownedByBuffer(t)) {
          enqueue.accept(t.getMetadata().getNamespace());
        }
      }

      private boolean referenced(PodTemplate t) {
        return !buffers.byIndex(Indexes.BUFFER_BY_TEMPLATE, Indexes.templateKey(t.getMetadata().getNamespace(), t.getMetadata().getName())).isEmpty();
      }
    };
  }

  /** Pods matter to the buffers that pods consume ({@link BufferConsumption}); other buffers read pods on demand. */
  private ResourceEventHandler<Pod> podHandler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod p) {
        enqueueConsumed(p, null);
      }

      @Override
      public void onUpdate(Pod oldP, Pod newP) {
        if (EnqueueRules.podConsumptionUpdate(oldP, newP)) {
          enqueueConsumed(newP, oldP);
        }
      }

      @Override
      public void onDelete(Pod p, boolean unknownFinalState) {
        enqueueConsumed(p, null);
      }
    };
  }

  /** Consumer selectors parsed once per text (pod events are the hot path); emptied when it holds 1,024 texts. */
  private final Map<String, SelectorExpression> consumerSelectors = new java.util.concurrent.ConcurrentHashMap<>();

  private SelectorExpression consumerSelector(String text) {
    SelectorExpression parsed = consumerSelectors.get(text);
    if (parsed == null) {
      parsed = SelectorExpression.parse(text);
      if (consumerSelectors.size() >= 1024) {
        consumerSelectors.clear();
      }
      consumerSelectors.put(text, parsed);
    }
    return parsed;
  }

  /** Enqueues the pod's namespace when one of its buffers has a consumer selector that {@code p} (or {@code before}) matches. */
  private void enqueueConsumed(Pod p, Pod before) {
    String ns = p.getMetadata().getNamespace();
    for (CapacityBuffer b : buffers.list(ns)) {
      Map<String, String> a = b.getMetadata().getAnnotations();
      String selector = a == null ? null : a.get(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR);
      if (selector == null) {
        continue;
      }
      try {
        SelectorExpression parsed = consumerSelector(selector);
        if (parsed.matches(labels(p)) || (before != null && parsed.matches(labels(before)))) {
          enqueue.accept(ns);
          return;
        }
      } catch (IllegalArgumentException e) {
        // a malformed selector is reported on the buffer by its reconcile; pods cannot change that
      }
    }
  }

  private static Map<String, String> labels(Pod p) {
    return p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels();
  }

  private ResourceEventHandler<ResourceQuota> quotaHandler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ResourceQuota q) {
        enqueue.accept(q.getMetadata().getNamespace());
      }

      @Override
      public void onUpdate(ResourceQuota oldQ, ResourceQuota newQ) {
        if (EnqueueRules.quotaUpdate(oldQ, newQ)) {
          enqueue.accept(newQ.getMetadata().getNamespace());
        }
      }

      @Override
      public void onDelete(ResourceQuota q, boolean unknownFinalState) {
        enqueue.accept(q.getMetadata().getNamespace());
      }
    };
  }

  private ResourceEventHandler<HasMetadata> workloadHandler(WorkloadKind kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(HasMetadata o) {
        notify(o);
      }

      @Override
      public void onUpdate(HasMetadata oldO, HasMetadata newO) {
        if (EnqueueRules.generationChanged(oldO, newO) || !Objects.equals(kind.scaleOf(oldO), kind.scaleOf(newO))) {
          notify(newO);
        }
      }

      @Override
      public void onDelete(HasMetadata o, boolean unknownFinalState) {
        notify(o);
      }

      private void notify(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        enqueueReferencing(ns, Indexes.scalableKey(ns, kind.group(), kind.kind(), o.getMetadata().getName()));
      }
    };
  }

  private void enqueueReferencing(String namespace, String scalableKey) {
    if (!buffers.byIndex(Indexes.BUFFER_BY_SCALABLE, scalableKey).isEmpty()) {
      enqueue.accept(namespace);
    }
  }

  private void scheduleWatchSync() {
    if (watchSync.isShutdown() || !watchSyncPending.compareAndSet(false, true)) {
      return;
    }
    try {
      watchSync.execute(() -> {
        watchSyncPending.set(false);
        try {
          customKinds.sync(referencedCustomKinds());
        } catch (RuntimeException e) {
          LOG.warn("updating custom-kind watches failed: {}", e.toString());
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      watchSyncPending.set(false);
    }
  }

  /** The custom (non built-in) kinds some buffer references. */
  public Set<CustomKindWatches.KindKey> referencedCustomKinds() {
    Set<CustomKindWatches.KindKey> out = new HashSet<>();
    for (CapacityBuffer b : buffers.all()) {
      ScalableRef ref = b.getSpec() == null ? null : b.getSpec().getScalableRef();
      if (ref != null && ref.getKind() != null && WorkloadKind.resolve(ref.getApiGroup(), ref.getKind()).isEmpty()) {
        out.add(new CustomKindWatches.KindKey(WorkloadKind.normaliseGroup(ref.getApiGroup()), ref.getKind()));
      }
    }
    return out;
  }

  // ---- reads (objects are shared: callers copy before mutating) ----

  public KindCache<CapacityBuffer> buffers() {
    return buffers;
  }

  public List<CapacityBuffer> buffers(String namespace) {
    return buffers.list(namespace);
  }

  /** Tells {@code listener} of every PodTemplate deletion the informers see, before the namespace is enqueued. */
  public void onTemplateDeleted(Consumer<PodTemplate> listener) {
    templateDeletions.add(listener);
  }

  public PodTemplate podTemplate(String namespace, String name) {
    return templates.get(namespace, name);
  }

  public List<ResourceQuota> quotas(String namespace) {
    return quotas.list(namespace);
  }

  public HasMetadata workload(String namespace, WorkloadKind kind, String name) {
    return workloads.get(kind).get(namespace, name);
  }

  /** The pods of {@code namespace} matching {@code selector}, narrowed through the label index when possible. */
  public List<Pod> pods(String namespace, SelectorExpression selector) {
    List<Pod> candidates = null;
    for (SelectorExpression.Requirement r : selector.requirements()) {
      boolean single = (r.operator() == SelectorExpression.Operator.EQUALS)
          || (r.operator() == SelectorExpression.Operator.IN && r.values().size() == 1);
      if (single) {
        List<Pod> c = pods.byIndex(Indexes.POD_BY_LABEL, Indexes.labelKey(namespace, r.key(), r.values().get(0)));
        if (candidates == null || c.size() < candidates.size()) {
          candidates = c;
        }
      }
    }
    if (candidates == null) {
      candidates = pods.list(namespace);
    }
    List<Pod> out = new ArrayList<>();
    for (Pod p : candidates) {
      if (namespace.equals(p.getMetadata().getNamespace())
          && selector.matches(p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels())) {
        out.add(p);
      }
    }
    return out;
  }

  /** The scale view of a custom kind's object (see {@link CustomKindWatches#scale}). */
  public ScaleView customScale(String namespace, String group, String kind, String name) throws ClusterApiException {
    return customKinds.scale(namespace, new CustomKindWatches.KindKey(WorkloadKind.normaliseGroup(group), kind), name);
  }

  public CustomKindWatches customKinds() {
    return customKinds;
  }

  public KubernetesClient client() {
    return client;
  }

  /** Stops the custom-kind watches; the shared informers are the manager cache's to stop. */
  @Override
  public void close() {
    watchSync.shutdownNow();
    customKinds.close();
  }
}
