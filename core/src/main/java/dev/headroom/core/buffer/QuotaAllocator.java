package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ResourceQuota allocation (spec §5): earlier buffers reserve quota first; a buffer whose chunks do not fit is
 * cut down and gets {@code LimitedByQuotas=True}. Reservations live only for one call.
 */
public final class QuotaAllocator {

  /** Milli-units of one pod in the request vector ([H-EXT] §5.6). */
  private static final long ONE_POD = 1000L;

  private final boolean countPods;
  private final TranslationMemo memo;

  /** An allocator; {@code countPods} enables the [H-EXT] pod-count entries (§5.6). */
  public QuotaAllocator(boolean countPods) {
    this(countPods, null);
  }

  /** An allocator that keeps each managed template's chunk in {@code memo} per stored version (null: none). */
  public QuotaAllocator(boolean countPods, TranslationMemo memo) {
    this.countPods = countPods;
    this.memo = memo;
  }

  /**
   * Allocates {@code quotas} to {@code buffers} in the given order (the caller sorts by creation time and
   * name), rewriting {@code status.replicas} and {@code LimitedByQuotas} of each buffer it does not skip.
   *
   * @return errors that require a requeue (scope evaluation failures)
   */
  public List<String> allocate(List<CapacityBuffer> buffers, List<ResourceQuota> quotas, ManagedTemplateStore templates, Instant now) {
    List<ResourceQuota> sorted = new ArrayList<>(quotas);
    sorted.sort(Comparator.comparing(q -> q.getMetadata().getName()));
    Map<String, Map<String, BigInteger>> reserved = new HashMap<>();
    List<String> errors = new ArrayList<>();
    for (CapacityBuffer buffer : buffers) {
      CapacityBufferStatus status = buffer.getStatus();
      if (status == null || status.getPodTemplateRef() == null || status.getPodTemplateGeneration() == null || status.getReplicas() == null) {
        continue;
      }
      String namespace = buffer.getMetadata().getNamespace();
      Optional<TranslationMemo.Chunk> chunk = chunk(templates, namespace, status.getPodTemplateRef().getName());
      if (chunk.isEmpty()) {
        continue;
      }
      Pod pod = chunk.get().pod();
      Map<String, Long> q = chunk.get().requests();
      if (q.isEmpty()) {
        continue;
      }
      int current = status.getReplicas();
      long allowed = current;
      List<ResourceQuota> matching = new ArrayList<>();
      List<String> blocking = new ArrayList<>();
      for (ResourceQuota quota : sorted) {
        boolean matches;
        try {
          matches = QuotaScopes.matches(quota, pod);
        } catch (QuotaScopes.ScopeException e) {
          errors.add(BufferConditions.errQuotaScope(quota.getMetadata().getName(), e.getMessage()));
          continue;
        }
        if (!matches) {
          continue;
        }
        matching.add(quota);
        long max = maxChunks(quota, q, reserved.getOrDefault(key(quota), Map.of()));
        if (max < current) {
          blocking.add(quota.getMetadata().getName());
        }
        allowed = Math.min(allowed, max);
      }
      long generation = BufferStatuses.generation(buffer);
      if (allowed < current) {
        status.setReplicas((int) allowed);
        StatusConditions.set(status.getConditions(), BufferConditions.limitedByQuotas(current, (int) allowed, blocking, generation), now);
      } else {
        StatusConditions.set(status.getConditions(), BufferConditions.notLimitedByQuotas(generation), now);
      }
      if (allowed > 0) {
        for (ResourceQuota quota : matching) {
          Map<String, Quantity> hard = hard(quota);
          Map<String, BigInteger> r = reserved.computeIfAbsent(key(quota), k -> new HashMap<>());
          for (Map.Entry<String, Long> e : q.entrySet()) {
            if (hard.containsKey(e.getKey())) {
              r.merge(e.getKey(), BigInteger.valueOf(e.getValue()).multiply(BigInteger.valueOf(allowed)), BigInteger::add);
            }
          }
        }
      }
    }
    return errors;
  }

  /** The pod and request vector of a stored managed template; empty when it is missing or cannot be read. */
  private Optional<TranslationMemo.Chunk> chunk(ManagedTemplateStore templates, String namespace, String name) {
    if (memo != null) {
      return memo.chunk(templates, namespace, name, countPods, t -> chunkOf(namespace, t));
    }
    Optional<PodTemplate> template;
    try {
      template = templates.get(namespace, name);
    } catch (ClusterApiException e) {
      return Optional.empty();
    }
    return template.map(t -> chunkOf(namespace, t));
  }

  private TranslationMemo.Chunk chunkOf(String namespace, PodTemplate template) {
    Pod pod = DefaultingPodResolver.build(namespace, template.getTemplate());
    return new TranslationMemo.Chunk(pod, requestVector(pod));
  }

  /**
   * The request vector Q of one chunk (§5.2 step 3): every effective request as {@code r} and
   * {@code requests.r}; [H-EXT] plus {@code pods} and {@code count/pods} when counting pods. Milli-units.
   */
  public Map<String, Long> requestVector(Pod pod) {
    Map<String, Long> q = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : EffectiveRequests.of(pod.getSpec()).entrySet()) {
      q.put(e.getKey(), e.getValue());
      q.put("requests." + e.getKey(), e.getValue());
    }
    if (countPods) {
      q.put("pods", ONE_POD);
      q.put("count/pods", ONE_POD);
    }
    return q;
  }

  /** {@code max_q} of §5.4: how many more chunks fit into one quota, clamped to 2147483647. */
  static long maxChunks(ResourceQuota quota, Map<String, Long> q, Map<String, BigInteger> reserved) {
    Map<String, Quantity> used = quota.getStatus() == null || quota.getStatus().getUsed() == null ? Map.of() : quota.getStatus().getUsed();
    BigInteger max = BigInteger.valueOf(Integer.MAX_VALUE);
    for (Map.Entry<String, Quantity> e : hard(quota).entrySet()) {
      Long request = q.get(e.getKey());
      if (request == null || request == 0) {
        continue;
      }
      BigInteger available = milli(e.getValue()).subtract(milli(used.get(e.getKey()))).subtract(reserved.getOrDefault(e.getKey(), BigInteger.ZERO));
      if (available.signum() < 0) {
        return 0;
      }
      max = max.min(available.divide(BigInteger.valueOf(request)));
    }
    return max.longValue();
  }

  private static Map<String, Quantity> hard(ResourceQuota quota) {
    return quota.getStatus() == null || quota.getStatus().getHard() == null ? Map.of() : quota.getStatus().getHard();
  }

  private static BigInteger milli(Quantity q) {
    if (q == null || !Quantities.isValid(Quantities.text(q))) {
      return BigInteger.ZERO;
    }
    return BigInteger.valueOf(Quantities.milli(q));
  }

  private static String key(ResourceQuota quota) {
    String uid = quota.getMetadata().getUid();
    return uid == null || uid.isEmpty() ? quota.getMetadata().getNamespace() + "/" + quota.getMetadata().getName() : uid;
  }
}
