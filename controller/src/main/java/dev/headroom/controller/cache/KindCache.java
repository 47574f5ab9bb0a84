package dev.headroom.controller.cache;

import dev.headroom.controller.manager.InformerCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One kind's view of the manager's informers: one cluster-wide informer, or one per watched namespace, with this
 * reader's indexes and event handler added. Reads go to the informer that covers the namespace. The informers belong
 * to the manager's {@link dev.headroom.controller.manager.InformerCache}, which starts and stops them.
 */
public final class KindCache<T extends HasMetadata> {
  private static final String ALL = "";

  private final String kind;
  private final Map<String, SharedIndexInformer<T>> informers = new LinkedHashMap<>();
  /**
   * The watched namespaces when they are served by a cluster-wide informer of the manager's cache (shared with a
   * cluster-wide reader), whose events and lists are filtered to them; null when every informer lists only what this
   * reader watches.
   */
  private final java.util.Set<String> filter;

  /**
   * @param namespaces the namespaces to watch; empty means all
   * @param factory builds an informer (not yet started) for a namespace, or for all when given null
   */
  public KindCache(String kind, List<String> namespaces, Function<String, SharedIndexInformer<T>> factory,
      Map<String, Function<T, List<String>>> indexers, ResourceEventHandler<T> handler) {
    this(kind, scopes(namespaces, ns -> new InformerCache.Scoped<>(factory.apply(ns), ns)), indexers, handler);
  }

  /**
   * As above, with informers that may be cluster-wide for a watched namespace ({@link InformerCache#covering}): this
   * reader then sees only its namespaces' objects and events.
   */
  public static <T extends HasMetadata> KindCache<T> covering(String kind, List<String> namespaces,
      Function<String, InformerCache.Scoped<T>> factory, Map<String, Function<T, List<String>>> indexers, ResourceEventHandler<T> handler) {
    return new KindCache<>(kind, scopes(namespaces, factory), indexers, handler);
  }

  /** The informer of each watched namespace ({@link #ALL} for all), in order. */
  private static <T> Map<String, InformerCache.Scoped<T>> scopes(List<String> namespaces, Function<String, InformerCache.Scoped<T>> factory) {
    Map<String, InformerCache.Scoped<T>> out = new LinkedHashMap<>();
    if (namespaces.isEmpty()) {
      out.put(ALL, factory.apply(null));
    } else {
      for (String ns : namespaces) {
        out.put(ns, factory.apply(ns));
      }
    }
    return out;
  }

  private KindCache(String kind, Map<String, InformerCache.Scoped<T>> scopes, Map<String, Function<T, List<String>>> indexers,
      ResourceEventHandler<T> handler) {
    this.kind = kind;
    boolean shared = false;
    for (Map.Entry<String, InformerCache.Scoped<T>> e : scopes.entrySet()) {
      informers.put(e.getKey(), e.getValue().informer());
      shared |= !e.getKey().equals(ALL) && e.getValue().clusterWide();
    }
    this.filter = shared ? java.util.Set.copyOf(scopes.keySet()) : null;
    ResourceEventHandler<T> h = handler == null || filter == null ? handler : new Filtered<>(handler, filter);
    for (SharedIndexInformer<T> i : distinct()) {
      if (!indexers.isEmpty()) {
        InformerCache.index(i, indexers);
      }
      if (h != null) {
        i.addEventHandler(h);
      }
    }
  }

  /** The informers, each once (several watched namespaces may share one cluster-wide informer). */
  private List<SharedIndexInformer<T>> distinct() {
    List<SharedIndexInformer<T>> out = new ArrayList<>();
    for (SharedIndexInformer<T> i : informers.values()) {
      if (out.stream().noneMatch(o -> o == i)) {
        out.add(i);
      }
    }
    return out;
  }

  private boolean watched(T o) {
    return filter == null || filter.contains(o.getMetadata().getNamespace());
  }

  /** A reader's handler on a shared cluster-wide informer: only its namespaces' events. */
  private record Filtered<T extends HasMetadata>(ResourceEventHandler<T> handler, java.util.Set<String> namespaces) implements ResourceEventHandler<T> {
    private boolean in(T o) {
      return o != null && o.getMetadata() != null && namespaces.contains(o.getMetadata().getNamespace());
    }

    @Override
    public void onAdd(T obj) {
      if (in(obj)) {
        handler.onAdd(obj);
      }
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      if (in(newObj) || in(oldObj)) {
        handler.onUpdate(oldObj, newObj);
      }
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      if (in(obj)) {
        handler.onDelete(obj, deletedFinalStateUnknown);
      }
    }

    @Override
    public void onNothing() {
      handler.onNothing();
    }

    @Override
    public void onBeforeList(String resourceVersion) {
      handler.onBeforeList(resourceVersion);
    }

    @Override
    public void onList(String resourceVersion, boolean initial) {
      handler.onList(resourceVersion, initial);
    }
  }

  /**
   * Starts the informers; only for informers this reader built itself (the custom-kind watches), never for the
   * manager cache's. The future completes when all have listed once.
   */
  public java.util.concurrent.CompletableFuture<Void> start() {
    return java.util.concurrent.CompletableFuture.allOf(distinct().stream().map(i -> i.start().toCompletableFuture())
        .toArray(java.util.concurrent.CompletableFuture[]::new));
  }

  /** Stops the informers; as {@link #start()}, only for informers this reader built itself. */
  public void close() {
    distinct().forEach(SharedIndexInformer::stop);
  }

  /** The informers of this kind (one per watched namespace, or one cluster-wide). */
  public List<SharedIndexInformer<T>> informers() {
    return distinct();
  }

  public String kind() {
    return kind;
  }

  public boolean hasSynced() {
    return informers.values().stream().allMatch(SharedIndexInformer::hasSynced);
  }

  /** Whether {@code namespace} is covered by this cache. */
  public boolean covers(String namespace) {
    return informers.containsKey(ALL) || informers.containsKey(namespace);
  }

  private SharedIndexInformer<T> informerFor(String namespace) {
    SharedIndexInformer<T> i = informers.get(ALL);
    return i != null ? i : informers.get(namespace);
  }

  /** The cached object {@code namespace/name}, or null. Callers must not mutate it. */
  public T get(String namespace, String name) {
    SharedIndexInformer<T> i = covers(namespace) ? informerFor(namespace) : null;
    return i == null ? null : i.getIndexer().getByKey(Cache.namespaceKeyFunc(namespace, name));
  }

  /** The cached objects of {@code namespace}. Callers must not mutate them. */
  public List<T> list(String namespace) {
    SharedIndexInformer<T> i = covers(namespace) ? informerFor(namespace) : null;
    return i == null ? List.of() : i.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace);
  }

  /** The cached objects whose index {@code indexName} contains {@code key}, across all informers. */
  public List<T> byIndex(String indexName, String key) {
    List<SharedIndexInformer<T>> distinct = distinct();
    if (distinct.size() == 1 && filter == null) {
      return distinct.get(0).getIndexer().byIndex(indexName, key);
    }
    List<T> out = new ArrayList<>();
    for (SharedIndexInformer<T> i : distinct) {
      for (T o : i.getIndexer().byIndex(indexName, key)) {
        if (watched(o)) {
          out.add(o);
        }
      }
    }
    return out;
  }

  /** Every cached object (of the watched namespaces). Callers must not mutate them. */
  public List<T> all() {
    List<T> out = new ArrayList<>();
    for (SharedIndexInformer<T> i : distinct()) {
      for (T o : i.getStore().list()) {
        if (watched(o)) {
          out.add(o);
        }
      }
    }
    return out;
  }

}
