package dev.headroom.controller.kube;

import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.core.buffer.DefaultingPodResolver;
import dev.headroom.core.buffer.PodResolver;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server dry-run pod resolver (spec §3.5): builds the pod from the template, names it {@code fake-pod-*} through
 * {@code generateName}, and POSTs it with {@code dryRun=All}; the admitted pod the server returns is the result.
 * Nothing is persisted.
 *
 * <p>If the server refuses dry-run creation as such (RBAC forbids creating pods, dry run unsupported or the verb not
 * allowed), the resolver falls back to core's {@link DefaultingPodResolver} for good, says so once in the log and
 * sets the {@value ControllerMetrics#DRY_RUN_FALLBACK} gauge. An admission rejection of one pod is not a refusal:
 * it fails that buffer with the server's message.
 *
 * <p>Results are cached by (namespace, template content) for {@code ttl}, so a steady-state resync does not repeat
 * identical dry runs.
 */
public final class DryRunPodResolver implements PodResolver {
  private static final Logger LOG = LoggerFactory.getLogger(DryRunPodResolver.class);
  /** The {@code generateName} of dry-run pods. */
  public static final String GENERATE_NAME = "fake-pod-";

  private final KubernetesClient client;
  private final ControllerMetrics metrics;
  private final DefaultingPodResolver fallback = new DefaultingPodResolver();
  private final AtomicBoolean fellBack = new AtomicBoolean();
  private final LongSupplier nanos;
  private final long ttlNanos;
  private final int maxEntries;
  private final Map<String, Cached> cache;

  private record Cached(Pod pod, long at) {}

  public DryRunPodResolver(KubernetesClient client, ControllerMetrics metrics, Duration ttl, int maxEntries, LongSupplier nanos) {
    this.client = client;
    this.metrics = metrics;
    this.ttlNanos = ttl.toNanos();
    this.maxEntries = maxEntries;
    this.nanos = nanos;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
        return size() > DryRunPodResolver.this.maxEntries;
      }
    };
  }

  /** True once the server refused dry runs and the defaulting resolver took over. */
  public boolean fellBack() {
    return fellBack.get();
  }

  @Override
  public Pod resolve(String namespace, PodTemplateSpec template) throws PodResolutionException {
    if (fellBack.get()) {
      return fallback.resolve(namespace, template);
    }
    Pod pod = DefaultingPodResolver.build(namespace, template);
    pod.getMetadata().setName(null);
    pod.getMetadata().setGenerateName(GENERATE_NAME);
    String key = namespace + "\n" + Copies.serialization().asJson(template);
    long now = nanos.getAsLong();
    synchronized (cache) {
      Cached hit = cache.get(key);
      if (hit != null && now - hit.at < ttlNanos) {
        return Copies.of(hit.pod);
      }
    }
    try {
      Pod admitted = client.pods().inNamespace(namespace).resource(pod).dryRun().create();
      synchronized (cache) {
        cache.put(key, new Cached(admitted, now));
      }
      return Copies.of(admitted);
    } catch (KubernetesClientException e) {
      metrics.apiError("create", e.getCode());
      if (refusesDryRun(e)) {
        if (fellBack.compareAndSet(false, true)) {
          metrics.dryRunFallback();
          LOG.warn("the API server refused dry-run pod creation ({}: {}); resolving pod templates with the defaulting resolver from now on",
              e.getCode(), ApiErrors.message(e));
        }
        return fallback.resolve(namespace, template);
      }
      throw new PodResolutionException(ApiErrors.message(e));
    }
  }

  /**
   * A refusal of the dry-run mechanism itself, as opposed to an admission decision about this pod: RBAC denies
   * creating pods, the server does not support or allow the request, or it says dry run is unsupported.
   */
  static boolean refusesDryRun(KubernetesClientException e) {
    String message = ApiErrors.message(e).toLowerCase(Locale.ROOT);
    return switch (e.getCode()) {
      case 403 -> message.contains("cannot create resource");
      case 404, 405, 501 -> true;
      case 400 -> message.contains("dryrun") || message.contains("dry run") || message.contains("dry-run");
      default -> false;
    };
  }
}
