package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.core.buffer.StatusConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * When a request may be taken up again, as the Cluster Autoscaler's pod injector decides it
 * ({@code cluster-autoscaler/processors/provreq/injector.go}, {@code IsAvailableForProvisioning}): never once
 * {@code Failed} or {@code Provisioned} is True; at once without a {@code Provisioned} condition; with
 * {@code Provisioned=False}, once its transition is older than the request's retry time, which starts at the initial
 * backoff and doubles up to the maximum on each retry (kept per request UID, for the last {@link #CACHE_SIZE}
 * requests, as CA's LRU cache).
 */
public final class RequestBackoff {
  /** CA's {@code --provisioning-request-max-backoff-cache-size} default. */
  public static final int CACHE_SIZE = 1000;

  private final Duration initial;
  private final Duration max;
  private final Map<String, Duration> retry = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Duration> eldest) {
      return size() > CACHE_SIZE;
    }
  };

  /** {@code initial}: CA's {@code --provisioning-request-initial-backoff-time} (1m); {@code max}: {@code -max-backoff-time} (10m). */
  public RequestBackoff(Duration initial, Duration max) {
    this.initial = initial;
    this.max = max;
  }

  /** True when the request may be taken up at {@code now}; a retry granted doubles its next retry time. */
  public boolean available(ProvisioningRequest pr, Instant now) {
    String key = pr.getMetadata().getUid() == null ? RequestPods.key(pr) : pr.getMetadata().getUid();
    if (ProvisioningConditions.isTrue(pr, ProvisioningConditions.FAILED)
        || ProvisioningConditions.isTrue(pr, ProvisioningConditions.PROVISIONED)) {
      retry.remove(key);
      return false;
    }
    Optional<Condition> provisioned = StatusConditions.find(ProvisioningConditions.conditions(pr), ProvisioningConditions.PROVISIONED);
    if (provisioned.isEmpty()) {
      return true;
    }
    if (!ProvisioningConditions.FALSE.equals(provisioned.get().getStatus())) {
      return false;
    }
    Duration wait = retry.getOrDefault(key, initial);
    Optional<Instant> since = RequestLifecycle.transition(provisioned.get());
    if (since.map(s -> s.plus(wait).isBefore(now)).orElse(true)) {
      retry.remove(key);
      Duration doubled = wait.multipliedBy(2);
      retry.put(key, doubled.compareTo(max) < 0 ? doubled : max);
      return true;
    }
    return false;
  }

  /** The retry time held for {@code uid}, if any (tests). */
  Optional<Duration> retryTime(String uid) {
    return Optional.ofNullable(retry.get(uid));
  }
}
