package dev.headroom.controller.kube;

import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.controller.cache.ClusterCaches;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.core.buffer.ClusterApiException;
import dev.headroom.core.buffer.ManagedTemplateStore;
import dev.headroom.core.buffer.ManagedTemplates;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's managed-template store over the API server. Reads come from the informer cache, overlaid with the
 * objects this store wrote itself until the cache has caught up (so a quick re-reconcile does not see a stale
 * template). Writes are single CREATE / UPDATE calls; core's {@link ManagedTemplates#upsert} decides whether to
 * write at all. A write that loses a race (409: already exists, or modified since read; or 404 on an update: the
 * template was deleted since, say by the garbage collector after its buffer was deleted and re-created) re-runs that
 * same upsert rule once against a live GET.
 *
 * <p>A deletion the informers see removes this store's write of that object from the overlay. Beyond that, an
 * object of the overlay that the cache does not hold (yet) stands for at most {@link #OVERLAY_TTL}: one the cache
 * has not caught up with by then was deleted since it was written (an absent template is then created again, and a
 * 409 corrects the rare lagging watch). Entries the cache caught up with go on the next read, and every
 * {@link #PRUNE_EVERY_WRITES} writes the overlay drops what is older, so the templates of deleted buffers do not
 * stay in it.
 */
public final class ApiTemplateStore implements ManagedTemplateStore {
  private static final Logger LOG = LoggerFactory.getLogger(ApiTemplateStore.class);

  /** How long a written object the cache does not hold stands in for it. */
  static final Duration OVERLAY_TTL = Duration.ofSeconds(30);
  /** Writes between two sweeps of the overlay. */
  static final int PRUNE_EVERY_WRITES = 256;

  private final KubernetesClient client;
  private final BiFunction<String, String, PodTemplate> cache;
  private final ControllerMetrics metrics;
  private final LongSupplier nanos;
  private final Map<String, Written> written = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();

  /** A template this store wrote, and when (nanos). */
  private record Written(PodTemplate template, long at) {}

  public ApiTemplateStore(KubernetesClient client, ClusterCaches caches, ControllerMetrics metrics) {
    this(client, caches::podTemplate, metrics, System::nanoTime);
    caches.onTemplateDeleted(this::deleted);
  }

  /** A store reading the cached template of (namespace, name) from {@code cache}, with a clock for the overlay. */
  ApiTemplateStore(KubernetesClient client, BiFunction<String, String, PodTemplate> cache, ControllerMetrics metrics, LongSupplier nanos) {
    this.client = client;
    this.cache = cache;
    this.metrics = metrics;
    this.nanos = nanos;
  }

  @Override
  public Optional<PodTemplate> get(String namespace, String name) {
    String key = namespace + "/" + name;
    PodTemplate cached = cache.apply(namespace, name);
    Written mine = written.get(key);
    if (mine != null) {
      if (cached != null ? !olderThan(cached, mine.template()) : expired(mine)) {
        written.remove(key, mine);
      } else {
        return Optional.of(Copies.of(mine.template()));
      }
    }
    return Optional.ofNullable(Copies.of(cached));
  }

  /**
   * The informers saw {@code template} deleted: a write of this store of that very object (same UID) no longer stands
   * for it. A newer object of the name (written after the deletion) stays.
   */
  void deleted(PodTemplate template) {
    String key = template.getMetadata().getNamespace() + "/" + template.getMetadata().getName();
    Written mine = written.get(key);
    if (mine != null && java.util.Objects.equals(mine.template().getMetadata().getUid(), template.getMetadata().getUid())) {
      written.remove(key, mine);
    }
  }

  private boolean expired(Written w) {
    return nanos.getAsLong() - w.at() > OVERLAY_TTL.toNanos();
  }

  /** Templates in the overlay (tests). */
  int overlaySize() {
    return written.size();
  }

  /** True when {@code a}'s resourceVersion is known to be older than {@code b}'s. */
  private static boolean olderThan(PodTemplate a, PodTemplate b) {
    try {
      return Long.parseLong(a.getMetadata().getResourceVersion()) < Long.parseLong(b.getMetadata().getResourceVersion());
    } catch (NumberFormatException | NullPointerException e) {
      return !a.getMetadata().getResourceVersion().equals(b.getMetadata().getResourceVersion());
    }
  }

  @Override
  public PodTemplate create(PodTemplate template) throws ClusterApiException {
    return write(Verb.CREATE, template, true);
  }

  @Override
  public PodTemplate update(PodTemplate template) throws ClusterApiException {
    return write(Verb.UPDATE, template, true);
  }

  private enum Verb {
    CREATE("create"),
    UPDATE("update");

    final String metricName;

    Verb(String metricName) {
      this.metricName = metricName;
    }
  }

  /** One CREATE or UPDATE call; a 409 re-runs core's upsert rule once against a live GET when allowed. */
  private PodTemplate write(Verb verb, PodTemplate template, boolean retryOnConflict) throws ClusterApiException {
    var resource = client.resources(PodTemplate.class).inNamespace(template.getMetadata().getNamespace()).resource(template);
    try {
      PodTemplate written = verb == Verb.CREATE ? resource.create() : resource.update();
      metrics.templateWrite(verb.metricName);
      remember(written);
      return written;
    } catch (KubernetesClientException e) {
      metrics.apiError(verb.metricName, e.getCode());
      if (retryOnConflict && (e.getCode() == 409 || (verb == Verb.UPDATE && e.getCode() == 404))) {
        written.remove(template.getMetadata().getNamespace() + "/" + template.getMetadata().getName());
        return retryLive(template, e);
      }
      throw new ClusterApiException(ApiErrors.message(e), e);
    }
  }

  private void remember(PodTemplate t) {
    long now = nanos.getAsLong();
    written.put(t.getMetadata().getNamespace() + "/" + t.getMetadata().getName(), new Written(t, now));
    if (writes.incrementAndGet() % PRUNE_EVERY_WRITES == 0) {
      written.values().removeIf(this::expired);
    }
  }

  private PodTemplate retryLive(PodTemplate desired, KubernetesClientException cause) throws ClusterApiException {
    LOG.info("managed template {}/{} changed under us ({}); re-reading it", desired.getMetadata().getNamespace(), desired.getMetadata().getName(), ApiErrors.message(cause));
    PodTemplate fresh = Copies.of(desired);
    fresh.getMetadata().setResourceVersion(null);
    return ManagedTemplates.upsert(new LiveStore(), fresh);
  }

  /** One-shot store for conflict recovery: live GET, plain writes, no further retries. */
  private final class LiveStore implements ManagedTemplateStore {
    @Override
    public Optional<PodTemplate> get(String namespace, String name) throws ClusterApiException {
      try {
        return Optional.ofNullable(client.resources(PodTemplate.class).inNamespace(namespace).withName(name).get());
      } catch (KubernetesClientException e) {
        metrics.apiError("get", e.getCode());
        throw new ClusterApiException(ApiErrors.message(e), e);
      }
    }

    @Override
    public PodTemplate create(PodTemplate template) throws ClusterApiException {
      return write(Verb.CREATE, template, false);
    }

    @Override
    public PodTemplate update(PodTemplate template) throws ClusterApiException {
      return write(Verb.UPDATE, template, false);
    }
  }
}
