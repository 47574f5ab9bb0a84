package dev.headroom.controller.kube;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.cache.ApiCallObserver;
import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.controller.cache.ClusterCaches;
import dev.headroom.core.buffer.BufferClusterView;
import dev.headroom.core.buffer.ClusterApiException;
import dev.headroom.core.buffer.ScaleView;
import dev.headroom.core.buffer.SelectorExpression;
import dev.headroom.core.buffer.WorkloadKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Core's cluster view over the informer caches. Every object handed out is a deep copy. The only live read is the
 * spec's "cache first, then a live GET" for a user PodTemplate that the cache does not hold.
 */
public final class CacheClusterView implements BufferClusterView {
  /** What the API server answers for {@code /scale} of a kind without that subresource. */
  public static final String NO_SCALE_SUBRESOURCE = "the server could not find the requested resource";

  private final ClusterCaches caches;
  private final ApiCallObserver observer;

  public CacheClusterView(ClusterCaches caches, ApiCallObserver observer) {
    this.caches = caches;
    this.observer = observer;
  }

  @Override
  public List<CapacityBuffer> buffers(String namespace) {
    List<CapacityBuffer> out = new ArrayList<>();
    for (CapacityBuffer b : caches.buffers(namespace)) {
      out.add(Copies.of(b));
    }
    return out;
  }

  @Override
  public Optional<PodTemplate> podTemplate(String namespace, String name) throws ClusterApiException {
    PodTemplate cached = caches.podTemplate(namespace, name);
    if (cached != null) {
      return Optional.of(Copies.of(cached));
    }
    try {
      return Optional.ofNullable(caches.client().resources(PodTemplate.class).inNamespace(namespace).withName(name).get());
    } catch (KubernetesClientException e) {
      observer.apiError("get", e.getCode());
      throw new ClusterApiException(ApiErrors.message(e), e);
    }
  }

  @Override
  public Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) {
    return Optional.ofNullable(Copies.of(caches.workload(namespace, kind, name)));
  }

  @Override
  public ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException {
    Optional<WorkloadKind> builtIn = WorkloadKind.resolve(apiGroup, kind);
    if (builtIn.isPresent()) {
      HasMetadata o = caches.workload(namespace, builtIn.get(), name);
      if (builtIn.get() == WorkloadKind.JOB) {
        throw new ClusterApiException(NO_SCALE_SUBRESOURCE);
      }
      if (o == null) {
        throw new ClusterApiException(builtIn.get().notFound(name));
      }
      return builtIn.get().scaleOf(o).orElseThrow(() -> new ClusterApiException(NO_SCALE_SUBRESOURCE));
    }
    return caches.customScale(namespace, apiGroup, kind, name);
  }

  @Override
  public List<Pod> pods(String namespace, SelectorExpression selector) {
    List<Pod> out = new ArrayList<>();
    for (Pod p : caches.pods(namespace, selector)) {
      out.add(Copies.of(p));
    }
    return out;
  }

  @Override
  public List<ResourceQuota> resourceQuotas(String namespace) {
    List<ResourceQuota> out = new ArrayList<>();
    for (ResourceQuota q : caches.quotas(namespace)) {
      out.add(Copies.of(q));
    }
    return out;
  }
}
