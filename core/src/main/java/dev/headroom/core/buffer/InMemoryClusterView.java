package dev.headroom.core.buffer;

import dev.headroom.api.Models;
import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link BufferClusterView} over objects held in memory, for {@code headroom explain}, the simulator and
 * tests. Objects without a namespace are in {@code default}. Every returned object is a deep copy.
 *
 * <p>The {@code /scale} view of the four scalable built-in kinds is computed from the stored object
 * ({@link WorkloadKind#scaleOf}); Jobs have none; other kinds must be added with {@link #addScale}. With
 * {@link #withoutScale(String)} every scale lookup fails with the given text (the "no scale client" fixture
 * of spec §9.7).
 */
public final class InMemoryClusterView implements BufferClusterView {

  /** The namespace of objects that have none. */
  public static final String DEFAULT_NAMESPACE = "default";
  /** What the API server answers for {@code /scale} of a kind without that subresource (Jobs). */
  public static final String NO_SUBRESOURCE = "the server could not find the requested resource";

  private final List<CapacityBuffer> buffers = new ArrayList<>();
  private final List<PodTemplate> podTemplates = new ArrayList<>();
  private final List<HasMetadata> workloads = new ArrayList<>();
  private final List<Pod> pods = new ArrayList<>();
  private final List<ResourceQuota> quotas = new ArrayList<>();
  private final Map<String, ScaleView> customScales = new HashMap<>();
  private String scaleFailure;

  /** Makes every {@link #scale} call fail with {@code message}. */
  public InMemoryClusterView withoutScale(String message) {
    this.scaleFailure = message;
    return this;
  }

  /** Adds a buffer. */
  public InMemoryClusterView add(CapacityBuffer buffer) {
    buffers.add(withNamespace(Models.copy(buffer)));
    return this;
  }

  /**
   * Adds any supported object: PodTemplate, Pod, ResourceQuota, or one of the five built-in workloads.
   *
   * @throws IllegalArgumentException for other kinds
   */
  public InMemoryClusterView add(HasMetadata object) {
    if (object instanceof CapacityBuffer b) {
      return add(b);
    }
    HasMetadata copy = withNamespace(Models.copy(object));
    if (copy instanceof PodTemplate t) {
      podTemplates.add(t);
    } else if (copy instanceof Pod p) {
      pods.add(p);
    } else if (copy instanceof ResourceQuota q) {
      quotas.add(q);
    } else if (WorkloadKind.of(copy).isPresent()) {
      workloads.add(copy);
    } else {
      throw new IllegalArgumentException("unsupported kind " + object.getKind());
    }
    return this;
  }

  /** Declares the {@code /scale} view of a custom (non built-in) object. */
  public InMemoryClusterView addScale(String namespace, String apiGroup, String kind, String name, ScaleView scale) {
    customScales.put(scaleKey(namespace, WorkloadKind.normaliseGroup(apiGroup), kind, name), scale);
    return this;
  }

  /** The namespaces that hold at least one buffer, in order of first appearance. */
  public List<String> bufferNamespaces() {
    return buffers.stream().map(b -> namespaceOf(b)).distinct().toList();
  }

  @Override
  public List<CapacityBuffer> buffers(String namespace) {
    return buffers.stream().filter(b -> namespaceOf(b).equals(namespace)).map(Models::copy).toList();
  }

  @Override
  public Optional<PodTemplate> podTemplate(String namespace, String name) {
    return podTemplates.stream().filter(t -> namespaceOf(t).equals(namespace) && Objects.equals(t.getMetadata().getName(), name)).findFirst().map(Models::copy);
  }

  @Override
  public Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) {
    return workloads.stream()
        .filter(w -> kind.type().isInstance(w) && namespaceOf(w).equals(namespace) && Objects.equals(w.getMetadata().getName(), name))
        .findFirst()
        .map(Models::copy);
  }

  @Override
  public ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException {
    if (scaleFailure != null) {
      throw new ClusterApiException(scaleFailure);
    }
    Optional<WorkloadKind> builtIn = WorkloadKind.resolve(apiGroup, kind);
    if (builtIn.isPresent()) {
      WorkloadKind k = builtIn.get();
      if (k == WorkloadKind.JOB) {
        throw new ClusterApiException(NO_SUBRESOURCE);
      }
      HasMetadata w = workload(namespace, k, name).orElseThrow(() -> new ClusterApiException(k.notFound(name)));
      return k.scaleOf(w).orElseThrow(() -> new ClusterApiException(NO_SUBRESOURCE));
    }
    ScaleView custom = customScales.get(scaleKey(namespace, apiGroup, kind, name));
    if (custom != null) {
      return custom;
    }
    if (customScales.keySet().stream().anyMatch(k -> k.startsWith(apiGroup + "|" + kind + "|"))) {
      throw new ClusterApiException(NotFound.message(kind.toLowerCase(java.util.Locale.ROOT) + "s", apiGroup, name));
    }
    throw UnmappedKindException.noMatches(apiGroup, kind);
  }

  @Override
  public List<Pod> pods(String namespace, SelectorExpression selector) {
    return pods.stream()
        .filter(p -> namespaceOf(p).equals(namespace) && selector.matches(p.getMetadata().getLabels()))
        .map(Models::copy)
        .toList();
  }

  @Override
  public List<ResourceQuota> resourceQuotas(String namespace) {
    return quotas.stream().filter(q -> namespaceOf(q).equals(namespace)).map(Models::copy).toList();
  }

  /** The namespace of an object, {@code default} when unset. */
  public static String namespaceOf(HasMetadata object) {
    String ns = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    return ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
  }

  private static <T extends HasMetadata> T withNamespace(T object) {
    if (object.getMetadata() == null) {
      object.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    }
    object.getMetadata().setNamespace(namespaceOf(object));
    return object;
  }

  private static String scaleKey(String namespace, String apiGroup, String kind, String name) {
    return apiGroup + "|" + kind + "|" + namespace + "|" + name;
  }
}
