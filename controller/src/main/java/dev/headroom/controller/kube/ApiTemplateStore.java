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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's managed-template store over the API server. Reads come from the informer cache, overlaid with the
 * objects this store wrote itself until the cache has caught up (so a quick re-reconcile does not see a stale
 * template). Writes are single CREATE / UPDATE calls; core's {@link ManagedTemplates#upsert} decides whether to
 * write at all. A write that loses a race (409: already exists, or modified since read) re-runs that same upsert
 * rule once against a live GET.
 */
public final class ApiTemplateStore implements ManagedTemplateStore {
  private static final Logger LOG = LoggerFactory.getLogger(ApiTemplateStore.class);

  private final KubernetesClient client;
  private final ClusterCaches caches;
  private final ControllerMetrics metrics;
  private final Map<String, PodTemplate> written = new ConcurrentHashMap<>();

  public ApiTemplateStore(KubernetesClient client, ClusterCaches caches, ControllerMetrics metrics) {
    this.client = client;
    this.caches = caches;
    this.metrics = metrics;
  }

  @Override
  public Optional<PodTemplate> get(String namespace, String name) {
    String key = namespace + "/" + name;
    PodTemplate cached = caches.podTemplate(namespace, name);
    PodTemplate mine = written.get(key);
    if (mine != null) {
      if (cached != null && !olderThan(cached, mine)) {
        written.remove(key, mine);
      } else {
        return Optional.of(Copies.of(mine));
      }
    }
    return Optional.ofNullable(Copies.of(cached));
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
      if (retryOnConflict && e.getCode() == 409) {
        return retryLive(template, e);
      }
      throw new ClusterApiException(ApiErrors.message(e), e);
    }
  }

  private void remember(PodTemplate t) {
    written.put(t.getMetadata().getNamespace() + "/" + t.getMetadata().getName(), t);
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
