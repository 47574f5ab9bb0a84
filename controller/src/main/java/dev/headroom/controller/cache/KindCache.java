package dev.headroom.controller.cache;

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
   * @param namespaces the namespaces to watch; empty means all
   * @param factory builds an informer (not yet started) for a namespace, or for all when given null
   */
  public KindCache(String kind, List<String> namespaces, Function<String, SharedIndexInformer<T>> factory,
      Map<String, Function<T, List<String>>> indexers, ResourceEventHandler<T> handler) {
    this.kind = kind;
    if (namespaces.isEmpty()) {
      informers.put(ALL, factory.apply(null));
    } else {
      for (String ns : namespaces) {
        informers.put(ns, factory.apply(ns));
      }
    }
    for (SharedIndexInformer<T> i : informers.values()) {
      if (!indexers.isEmpty()) {
        dev.headroom.controller.manager.InformerCache.index(i, indexers);
      }
      if (handler != null) {
        i.addEventHandler(handler);
      }
    }
  }

  /**
   * Starts the informers; only for informers this reader built itself (the custom-kind watches), never for the
   * manager cache's. The future completes when all have listed once.
   */
  public java.util.concurrent.CompletableFuture<Void> start() {
    return java.util.concurrent.CompletableFuture.allOf(informers.values().stream().map(i -> i.start().toCompletableFuture())
        .toArray(java.util.concurrent.CompletableFuture[]::new));
  }

  /** Stops the informers; as {@link #start()}, only for informers this reader built itself. */
  public void close() {
    informers.values().forEach(SharedIndexInformer::stop);
  }

  /** The informers of this kind (one per watched namespace, or one cluster-wide). */
  public List<SharedIndexInformer<T>> informers() {
    return List.copyOf(informers.values());
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
    SharedIndexInformer<T> i = informerFor(namespace);
    return i == null ? null : i.getIndexer().getByKey(Cache.namespaceKeyFunc(namespace, name));
  }

  /** The cached objects of {@code namespace}. Callers must not mutate them. */
  public List<T> list(String namespace) {
    SharedIndexInformer<T> i = informerFor(namespace);
    return i == null ? List.of() : i.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace);
  }

  /** The cached objects whose index {@code indexName} contains {@code key}, across all informers. */
  public List<T> byIndex(String indexName, String key) {
    if (informers.size() == 1) {
      return informers.values().iterator().next().getIndexer().byIndex(indexName, key);
    }
    List<T> out = new ArrayList<>();
    for (SharedIndexInformer<T> i : informers.values()) {
      out.addAll(i.getIndexer().byIndex(indexName, key));
    }
    return out;
  }

  /** Every cached object. Callers must not mutate them. */
  public List<T> all() {
    List<T> out = new ArrayList<>();
    for (SharedIndexInformer<T> i : informers.values()) {
      out.addAll(i.getStore().list());
    }
    return out;
  }

}
