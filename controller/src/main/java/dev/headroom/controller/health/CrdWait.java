package dev.headroom.controller.health;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up gate: informers start only once the API server serves {@code capacitybuffers.autoscaling.x-k8s.io} in the
 * version the controller reads (API discovery, which every authenticated user may read). Until then it says so in one
 * WARN line, keeps {@code /readyz} at 503 with that reason, and checks again with exponential backoff on
 * {@code scheduler}; when the CRD appears it runs {@code onServed} once, without a restart.
 */
public final class CrdWait {
  private static final Logger LOG = LoggerFactory.getLogger(CrdWait.class);
  /** The resource the controller cannot work without. */
  public static final String RESOURCE = "capacitybuffers." + CapacityBuffer.GROUP;
  /** Where the CRD is in the repository. */
  public static final String CRD_FILE = "deploy/crds/" + RESOURCE + ".yaml";

  /** Retry delays: {@code initial}, doubling up to {@code max}. */
  public record Backoff(Duration initial, Duration max) {
    public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    Duration after(int failures) {
      long nanos = initial.toNanos();
      for (int i = 1; i < failures && nanos < max.toNanos(); i++) {
        nanos *= 2;
      }
      return Duration.ofNanos(Math.min(nanos, max.toNanos()));
    }
  }

  private final String resource;
  private final boolean required;
  private final Supplier<Optional<String>> check;
  private final Backoff backoff;
  private final ScheduledExecutorService scheduler;
  private final Runnable onServed;
  private volatile String waitingFor;
  private volatile boolean served;
  private volatile int attempts;
  private volatile boolean checked;
  private int failures;
  private String logged;

  /**
   * @param check empty when the resource is served, else why not (one line)
   */
  public CrdWait(Supplier<Optional<String>> check, Backoff backoff, ScheduledExecutorService scheduler, Runnable onServed) {
    this(RESOURCE, true, check, backoff, scheduler, onServed);
  }

  /**
   * A wait for {@code resource} ({@code plural.group}). An optional one ({@code required} false) says why it waits in
   * one INFO line instead of a WARN; the caller does not hold readiness on it.
   */
  public CrdWait(String resource, boolean required, Supplier<Optional<String>> check, Backoff backoff, ScheduledExecutorService scheduler,
      Runnable onServed) {
    this.resource = resource;
    this.required = required;
    this.waitingFor = "checking that the API server serves " + resource;
    this.check = check;
    this.backoff = backoff;
    this.scheduler = scheduler;
    this.onServed = onServed;
  }

  /** The discovery check against {@code client}: served in {@code autoscaling.x-k8s.io/v1beta1}? */
  public static Supplier<Optional<String>> discovery(KubernetesClient client) {
    String groupVersion = CapacityBuffer.GROUP + "/" + CapacityBuffer.VERSION;
    return () -> {
      try {
        APIResourceList list = client.getApiResources(groupVersion);
        boolean served = list != null && list.getResources() != null
            && list.getResources().stream().anyMatch(r -> "capacitybuffers".equals(r.getName()));
        if (served) {
          return Optional.empty();
        }
        return Optional.of("the CapacityBuffer CRD (" + RESOURCE + ", " + CapacityBuffer.VERSION + ") is not installed; waiting for it"
            + " (kubectl apply -f " + CRD_FILE + ")");
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return Optional.of("the CapacityBuffer CRD (" + RESOURCE + ", " + CapacityBuffer.VERSION + ") is not installed; waiting for it"
              + " (kubectl apply -f " + CRD_FILE + ")");
        }
        return Optional.of("cannot check whether the API server serves " + RESOURCE + ": "
            + (e.getCode() > 0 ? e.getCode() + " " : "") + ApiHealth.oneLine(rootOf(e)) + "; retrying");
      }
    };
  }

  private static Throwable rootOf(Throwable t) {
    Throwable r = t;
    while (r.getCause() != null && r.getCause() != r) {
      r = r.getCause();
    }
    return r;
  }

  /** Checks now, and again with backoff until served. */
  public void start() {
    scheduler.execute(this::attempt);
  }

  private void attempt() {
    attempts++;
    Optional<String> missing;
    try {
      missing = check.get();
    } catch (RuntimeException e) {
      missing = Optional.of("cannot check whether the API server serves " + resource + ": " + ApiHealth.oneLine(e) + "; retrying");
      LOG.debug("CRD check failure", e);
    }
    if (missing.isEmpty()) {
      if (logged != null) {
        LOG.info("the API server serves {} now; starting {}", resource, required ? "the informers" : "its informer");
      }
      served = true;
      waitingFor = null;
      onServed.run();
      checked = true;
      return;
    }
    checked = true;
    failures++;
    waitingFor = missing.get();
    if (!missing.get().equals(logged)) {
      if (required) {
        LOG.warn(missing.get());
      } else {
        LOG.info(missing.get());
      }
      logged = missing.get();
    }
    Duration delay = backoff.after(failures);
    try {
      scheduler.schedule(this::attempt, delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // shutting down
    }
  }

  /** True once the resource was found served. */
  public boolean served() {
    return served;
  }

  /** Why the controller still waits (readiness reason), or empty once served. */
  public Optional<String> waiting() {
    return Optional.ofNullable(waitingFor);
  }

  /** True once a check has finished (whatever it found); until then nobody knows whether the resource is served. */
  public boolean checked() {
    return checked;
  }

  /** Checks made so far (tests: proves the backoff, not a spin). */
  public int attempts() {
    return attempts;
  }
}
