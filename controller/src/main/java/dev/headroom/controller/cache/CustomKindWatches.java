package dev.headroom.controller.cache;

import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.ApiRequest;
import dev.headroom.core.buffer.ClusterApiException;
import dev.headroom.core.buffer.UnmappedKindException;
import dev.headroom.core.buffer.ScaleView;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * [H-EXT] §6.4 H2: a dynamic informer for every custom kind that some buffer's {@code scalableRef} references, so
 * such workloads are watched rather than polled. A kind is resolved through its CustomResourceDefinition the first
 * time it is referenced, watched from then on, and unwatched when no buffer references it any more. Resolution
 * failures are retried with exponential backoff (1 s to 5 min); until then those buffers rely on the resync.
 */
public final class CustomKindWatches implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CustomKindWatches.class);
  private static final Duration MIN_RETRY = Duration.ofSeconds(1);
  private static final Duration MAX_RETRY = Duration.ofMinutes(5);

  /** A referenced {@code (group, kind)}; {@code core} is {@code ""}. */
  public record KindKey(String group, String kind) {
    @Override
    public String toString() {
      return (group.isEmpty() ? "" : group + "/") + kind;
    }
  }

  private static final class Entry {
    CustomKind kind;
    KindCache<GenericKubernetesResource> cache;
    String error;
    long retryAtNanos;
    int failures;
  }

  private final KubernetesClient client;
  private final List<String> namespaces;
  private final ApiCallObserver observer;
  /** Called with (namespace, index key of the object) when a watched object changes in a way that counts. */
  private final BiConsumer<String, String> onChange;
  private final Map<KindKey, Entry> entries = new HashMap<>();
  private final ApiHealth health;
  private boolean closed;

  public CustomKindWatches(KubernetesClient client, List<String> namespaces, ApiCallObserver observer, BiConsumer<String, String> onChange,
      ApiHealth health) {
    this.health = health;
    this.client = client;
    this.namespaces = namespaces;
    this.observer = observer;
    this.onChange = onChange;
  }

  /** Starts watches for newly referenced kinds (or retries due ones) and stops those no longer referenced. */
  public synchronized void sync(Set<KindKey> referenced) {
    if (closed) {
      return;
    }
    entries.entrySet().removeIf(e -> {
      if (!referenced.contains(e.getKey())) {
        LOG.info("no buffer references {} any more: unwatching it", e.getKey());
        if (e.getValue().cache != null) {
          e.getValue().cache.close();
        }
        return true;
      }
      return false;
    });
    for (KindKey key : referenced) {
      ensure(key);
    }
  }

  /** The kinds currently watched (tests and logs). */
  public synchronized Set<KindKey> watched() {
    Set<KindKey> out = new java.util.HashSet<>();
    entries.forEach((k, v) -> {
      if (v.cache != null) {
        out.add(k);
      }
    });
    return out;
  }

  /** True when every watch has listed once. */
  public synchronized boolean hasSynced() {
    return entries.values().stream().allMatch(e -> e.cache == null || e.cache.hasSynced());
  }

  private Entry ensure(KindKey key) {
    Entry e = entries.computeIfAbsent(key, k -> new Entry());
    if (e.kind != null || (e.failures > 0 && System.nanoTime() - e.retryAtNanos < 0)) {
      return e;
    }
    try {
      Optional<CustomResourceDefinition> crd = findCrd(key);
      if (crd.isEmpty()) {
        fail(key, e, UnmappedKindException.noMatches(key.group(), key.kind()).getMessage());
        return e;
      }
      CustomKind kind = CustomKind.of(crd.get());
      e.kind = kind;
      e.error = null;
      e.failures = 0;
      e.cache = new KindCache<>(key.toString(), kind.namespaced() ? namespaces : List.of(),
          ns -> health.track(ns == null
              ? client.genericKubernetesResources(kind.context()).inAnyNamespace().runnableInformer(0)
              : client.genericKubernetesResources(kind.context()).inNamespace(ns).runnableInformer(0),
              new ApiRequest("list", kind.group(), kind.plural(), ns).qualifiedResource() + ApiHealth.scope(ns)),
          Map.of(), handler(kind));
      e.cache.start();
      LOG.info("watching custom kind {} ({}/{}, {}) referenced by a buffer", key, kind.group(), kind.version(), kind.plural());
    } catch (KubernetesClientException ex) {
      observer.apiError("list", ex.getCode());
      fail(key, e, ApiErrors.message(ex));
    }
    return e;
  }

  private void fail(KindKey key, Entry e, String error) {
    e.failures++;
    long backoff = Math.min(MAX_RETRY.toNanos(), MIN_RETRY.toNanos() << Math.min(e.failures - 1, 20));
    e.retryAtNanos = System.nanoTime() + backoff;
    if (!error.equals(e.error)) {
      LOG.warn("cannot watch {}: {} (retrying with backoff; buffers referencing it rely on the resync)", key, error);
    }
    e.error = error;
  }

  private Optional<CustomResourceDefinition> findCrd(KindKey key) {
    return client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
        .filter(c -> c.getSpec() != null && key.group().equals(c.getSpec().getGroup())
            && c.getSpec().getNames() != null && key.kind().equals(c.getSpec().getNames().getKind()))
        .findFirst();
  }

  private ResourceEventHandler<GenericKubernetesResource> handler(CustomKind kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource o) {
        notify(o);
      }

      @Override
      public void onUpdate(GenericKubernetesResource oldO, GenericKubernetesResource newO) {
        if (EnqueueRules.generationChanged(oldO, newO) || kind.scale().map(s -> s.scaleChanged(oldO, newO)).orElse(false)) {
          notify(newO);
        }
      }

      @Override
      public void onDelete(GenericKubernetesResource o, boolean unknownFinalState) {
        notify(o);
      }

      private void notify(GenericKubernetesResource o) {
        String ns = o.getMetadata().getNamespace();
        onChange.accept(ns, Indexes.scalableKey(ns, kind.group(), kind.kind(), o.getMetadata().getName()));
      }
    };
  }

  /**
   * The scale view of a custom object, read from the watch (or with a live GET while the watch has not synced).
   *
   * @throws UnmappedKindException with the discovery error when the kind cannot be resolved
   * @throws ClusterApiException with the API's text when the kind has no scale subresource,
   *     or the object does not exist
   */
  public ScaleView scale(String namespace, KindKey key, String name) throws ClusterApiException {
    CustomKind kind;
    KindCache<GenericKubernetesResource> cache;
    synchronized (this) {
      Entry e = ensure(key);
      if (e.kind == null) {
        // discovery (the CRD lookup) failed: no /scale GET was made (spec §3.3)
        throw new UnmappedKindException(e.error == null ? "kind " + key + " is not resolved yet" : e.error);
      }
      kind = e.kind;
      cache = e.cache;
    }
    if (kind.scale().isEmpty()) {
      throw new ClusterApiException("the server could not find the requested resource");
    }
    GenericKubernetesResource o;
    if (cache != null && cache.hasSynced()) {
      o = cache.get(namespace, name);
    } else {
      try {
        o = client.genericKubernetesResources(kind.context()).inNamespace(namespace).withName(name).get();
      } catch (KubernetesClientException ex) {
        observer.apiError("get", ex.getCode());
        throw new ClusterApiException(ApiErrors.message(ex), ex);
      }
    }
    if (o == null) {
      throw new ClusterApiException(kind.notFound(name));
    }
    ScaleSource s = kind.scale().get();
    return new ScaleView(s.statusReplicas(o), s.selector(o));
  }

  @Override
  public synchronized void close() {
    closed = true;
    entries.values().forEach(e -> {
      if (e.cache != null) {
        e.cache.close();
      }
    });
    entries.clear();
  }
}
