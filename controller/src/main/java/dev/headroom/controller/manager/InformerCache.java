package dev.headroom.controller.manager;

import dev.headroom.controller.health.ApiHealth;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The manager's one informer cache: at most one fabric8 {@link SharedIndexInformer} per kind and scope (a namespace,
 * or cluster-wide), whoever asks for it. The buffer controller and the autoscaler take their informers here, so a
 * kind both read is listed and watched once. Informers asked for before {@link #start()} start with it; later ones
 * start at once. Objects in the stores are shared: readers must not mutate them.
 */
public final class InformerCache implements AutoCloseable {
  /** What an informer lists: a kind and a namespace, or cluster-wide ({@code namespace} null). */
  public record Key(String kind, String namespace) {
    @Override
    public String toString() {
      return kind + ApiHealth.scope(namespace);
    }
  }

  private record Entry(SharedIndexInformer<? extends HasMetadata> informer, long resyncMillis, CompletableFuture<Void> synced) {
    void start() {
      informer.start().whenComplete((v, t) -> {
        if (t != null) {
          synced.completeExceptionally(t);
        } else {
          synced.complete(null);
        }
      });
    }
  }

  private final KubernetesClient client;
  private final ApiHealth health;
  private final Map<Key, Entry> entries = new LinkedHashMap<>();
  private boolean running;
  private boolean closed;

  /** @param health may be null; with it every informer keeps retrying on API errors and reports them there */
  public InformerCache(KubernetesClient client, ApiHealth health) {
    this.client = client;
    this.health = health;
  }

  public KubernetesClient client() {
    return client;
  }

  /** The cluster-wide informer of {@code type} without resync. */
  public <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> type) {
    return informer(type, null, Duration.ZERO);
  }

  /**
   * The informer of {@code type} for {@code namespace} (null: cluster-wide), created on the first request. The resync
   * period is the first requester's; a later request for another non-zero period is a wiring error.
   */
  public synchronized <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> type, String namespace, Duration resync) {
    if (closed) {
      throw new IllegalStateException("the informer cache is closed");
    }
    Key key = new Key(HasMetadata.getKind(type), namespace);
    Entry e = entries.get(key);
    long millis = resync.toMillis();
    if (e == null) {
      MixedOperation<T, ?, ?> op = client.resources(type);
      SharedIndexInformer<T> i = namespace == null ? op.inAnyNamespace().runnableInformer(millis) : op.inNamespace(namespace).runnableInformer(millis);
      if (health != null) {
        health.track(i, ApiHealth.describe(type, namespace));
      }
      e = new Entry(i, millis, new CompletableFuture<>());
      entries.put(key, e);
      if (running) {
        e.start();
      }
    } else if (millis != 0 && millis != e.resyncMillis()) {
      throw new IllegalStateException("the informer for " + key + " resyncs every " + e.resyncMillis() + " ms, not " + millis + " ms");
    }
    @SuppressWarnings("unchecked")
    SharedIndexInformer<T> out = (SharedIndexInformer<T>) e.informer();
    return out;
  }

  /** An informer and the scope it lists: {@code namespace} null for a cluster-wide one. */
  public record Scoped<T>(SharedIndexInformer<T> informer, String namespace) {
    public boolean clusterWide() {
      return namespace == null;
    }
  }

  /**
   * The informer that covers {@code namespace} for {@code type}: the cluster-wide one when it is already registered
   * with a compatible resync period (equal, or none asked for), so a namespaced reader beside a cluster-wide one (the
   * buffer controller with {@code --namespace} beside the autoscaler) decodes each event once; otherwise
   * {@link #informer(Class, String, Duration)}. A reader of a cluster-wide informer filters it to its namespaces.
   */
  public synchronized <T extends HasMetadata> Scoped<T> covering(Class<T> type, String namespace, Duration resync) {
    if (namespace != null) {
      Entry wide = entries.get(new Key(HasMetadata.getKind(type), null));
      if (wide != null && (resync.isZero() || resync.toMillis() == wide.resyncMillis())) {
        @SuppressWarnings("unchecked")
        SharedIndexInformer<T> i = (SharedIndexInformer<T>) wide.informer();
        return new Scoped<>(i, null);
      }
    }
    return new Scoped<>(informer(type, namespace, resync), namespace);
  }

  /** Adds the indexers {@code informer} does not have yet (several readers may ask for the same index). */
  public static <T> void index(SharedIndexInformer<T> informer, Map<String, Function<T, List<String>>> indexers) {
    Map<String, Function<T, List<String>>> missing = new LinkedHashMap<>(indexers);
    missing.keySet().removeAll(informer.getIndexer().getIndexers().keySet());
    if (!missing.isEmpty()) {
      informer.addIndexers(missing);
    }
  }

  /** Starts every informer asked for so far (and from now on, each at once); completes when all have listed. */
  public synchronized CompletableFuture<Void> start() {
    if (!running) {
      running = true;
      entries.values().forEach(Entry::start);
    }
    return CompletableFuture.allOf(entries.values().stream().map(Entry::synced).toArray(CompletableFuture[]::new));
  }

  /** Completes when each of {@code informers} (of this cache) has listed once, after {@link #start()}. */
  public synchronized CompletableFuture<Void> synced(List<? extends SharedIndexInformer<?>> informers) {
    List<CompletableFuture<Void>> fs = new ArrayList<>();
    for (SharedIndexInformer<?> i : informers) {
      fs.add(entries.values().stream().filter(e -> e.informer() == i).findFirst().map(Entry::synced)
          .orElseGet(() -> CompletableFuture.failedFuture(new IllegalArgumentException("not an informer of this cache"))));
    }
    return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new));
  }

  /** The kinds and scopes listed (the registry, for diagnostics and tests), in the order first asked for. */
  public synchronized Set<Key> keys() {
    return new LinkedHashSet<>(entries.keySet());
  }

  /** True once started and every informer has listed. */
  public synchronized boolean hasSynced() {
    return running && entries.values().stream().allMatch(e -> e.informer().hasSynced());
  }

  /** The kinds with an informer that has not listed yet, each once, in the order first asked for. */
  public synchronized List<String> unsynced() {
    Set<String> out = new LinkedHashSet<>();
    for (Map.Entry<Key, Entry> e : entries.entrySet()) {
      if (!running || !e.getValue().informer().hasSynced()) {
        out.add(e.getKey().kind());
      }
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized void close() {
    closed = true;
    entries.values().forEach(e -> e.informer().stop());
  }
}
