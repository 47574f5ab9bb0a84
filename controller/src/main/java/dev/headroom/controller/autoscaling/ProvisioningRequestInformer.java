package dev.headroom.controller.autoscaling;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.ApiRequest;
import dev.headroom.controller.health.CrdWait;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-wide informer of ProvisioningRequests ({@code autoscaling.x-k8s.io/v1}, docs/provisioning-request.md).
 * The CRD is optional, as the PodGroup ones are ({@link PodGroupInformers}): discovery is checked with the backoff of
 * {@link CrdWait}, one INFO line while {@code provisioningrequests} is not served, and the informer starts the moment
 * it is, without a restart.
 */
public final class ProvisioningRequestInformer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProvisioningRequestInformer.class);

  private final KubernetesClient client;
  private final ApiHealth health;
  private final ScheduledExecutorService scheduler;
  private final CrdWait wait;
  private volatile SharedIndexInformer<ProvisioningRequest> informer;
  private volatile boolean closed;

  /** @param health may be null; with it the informer keeps retrying on API errors and reports them there */
  public ProvisioningRequestInformer(KubernetesClient client, ApiHealth health, CrdWait.Backoff backoff) {
    this.client = client;
    this.health = health;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-provreq-discovery");
      t.setDaemon(true);
      return t;
    });
    this.wait = new CrdWait(ProvisioningRequest.CRD_NAME, false, () -> check(client), backoff, scheduler, this::watch);
  }

  /** Empty when {@code autoscaling.x-k8s.io/v1} serves {@code provisioningrequests}, else why not. */
  static Optional<String> check(KubernetesClient client) {
    String missing = "the ProvisioningRequest CRD (" + ProvisioningRequest.CRD_NAME + ") is not installed;"
        + " ProvisioningRequests are not handled until it is";
    try {
      APIResourceList list = client.getApiResources(ProvisioningRequest.API_VERSION);
      if (list == null || list.getResources() == null
          || list.getResources().stream().noneMatch(r -> ProvisioningRequest.PLURAL.equals(r.getName()))) {
        return Optional.of(missing);
      }
      return Optional.empty();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.of(missing);
      }
      return Optional.of("cannot check whether the API server serves " + ProvisioningRequest.CRD_NAME + ": "
          + (e.getCode() > 0 ? e.getCode() + " " : "") + ApiHealth.oneLine(e) + "; retrying");
    }
  }

  private void watch() {
    if (closed) {
      return;
    }
    SharedIndexInformer<ProvisioningRequest> i = client.resources(ProvisioningRequest.class).inAnyNamespace().runnableInformer(0);
    if (health != null) {
      i = health.track(i, new ApiRequest("list", ProvisioningRequest.GROUP, ProvisioningRequest.PLURAL, null).qualifiedResource()
          + ApiHealth.scope(null));
    }
    LOG.info("watching ProvisioningRequests ({})", ProvisioningRequest.API_VERSION);
    informer = i;
    i.start();
  }

  /** Starts the discovery check (which starts the informer once the kind is served). */
  public void start() {
    wait.start();
  }

  /** True once the kind was looked up at least once and, if served, its informer has listed. */
  public boolean hasSynced() {
    SharedIndexInformer<ProvisioningRequest> i = informer;
    return wait.checked() && (i == null || i.hasSynced());
  }

  /** True while the informer runs (the kind is served). */
  public boolean watching() {
    return informer != null;
  }

  /** The requests in the cache now. */
  public List<ProvisioningRequest> requests() {
    SharedIndexInformer<ProvisioningRequest> i = informer;
    return i == null ? List.of() : i.getStore().list();
  }

  /** A fresh list from the API server (tests that drive iterations step by step); none when the kind is not served. */
  public static Supplier<List<ProvisioningRequest>> fromApi(KubernetesClient client) {
    return () -> {
      if (check(client).isPresent()) {
        return List.of();
      }
      try {
        return client.resources(ProvisioningRequest.class).inAnyNamespace().list().getItems();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return List.of();
        }
        throw e;
      }
    };
  }

  @Override
  public void close() {
    closed = true;
    scheduler.shutdownNow();
    SharedIndexInformer<ProvisioningRequest> i = informer;
    if (i != null) {
      i.close();
    }
  }
}
