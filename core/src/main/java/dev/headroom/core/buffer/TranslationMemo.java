package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one namespace reconcile may reuse from the previous ones, keyed on object versions only, so that a reuse
 * yields exactly what the plain computation would:
 *
 * <ul>
 *   <li>the managed template of a buffer sized from a live pod (§3.3 step 1): when the pod's content (same
 *       {@link BufferClusterView#podTemplateVersion}) and the stored managed template (same resourceVersion) are
 *       the ones of an earlier upsert whose stored template was semantically equal to the desired one, the upsert
 *       would again find them equal and write nothing, so its result is that stored template;</li>
 *   <li>the chunk of a managed template for quota allocation (§5.2): the pod built from it and its request
 *       vector, per stored resourceVersion;</li>
 *   <li>the canonical content of each stored managed template per resourceVersion, so that an upsert whose
 *       desired content equals it neither reads nor writes the template;</li>
 *   <li>parsed scale selectors and buffer creation times, per text.</li>
 * </ul>
 *
 * <p>Entries are tied to the view and the store they were read from. Values handed out are shared: callers read
 * them and never mutate them.
 */
public final class TranslationMemo {

  /** The pod a managed template describes and its request vector Q (milli-units), for quota allocation. */
  public record Chunk(Pod pod, Map<String, Long> requests) {
    /** An unmodifiable request vector. */
    public Chunk {
      requests = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(requests));
    }
  }

  private record LiveEntry(BufferClusterView view, ManagedTemplateStore store, String podVersion,
      String templateName, String templateVersion, PodTemplate managed) {}

  private record StoredEntry(ManagedTemplateStore store, String version, Object canonical, PodTemplate template) {}

  private record ChunkEntry(ManagedTemplateStore store, String templateVersion, boolean countPods, Chunk chunk) {}

  /** Most selector texts, and most timestamp texts, kept parsed. */
  private static final int MAX_PARSED = 1024;

  private final Map<String, LiveEntry> live = new ConcurrentHashMap<>();
  private final Map<String, SelectorExpression> selectors = new ConcurrentHashMap<>();
  private final Map<String, StoredEntry> stored = new ConcurrentHashMap<>();
  private final Map<String, java.time.Instant> times = new ConcurrentHashMap<>();
  private final Map<String, ChunkEntry> chunks = new ConcurrentHashMap<>();

  /**
   * The managed template an upsert from {@code pod} would return for {@code buffer}, when it is known without
   * extracting and comparing; null otherwise.
   */
  PodTemplate managedFor(BufferClusterView view, ManagedTemplateStore store, CapacityBuffer buffer, Pod pod) {
    LiveEntry e = live.get(key(buffer));
    if (e == null || e.view() != view || e.store() != store) {
      return null;
    }
    String version = view.podTemplateVersion(pod);
    if (version == null || !version.equals(e.podVersion())
        || !e.templateName().equals(ManagedTemplates.name(buffer.getMetadata().getName()))) {
      return null;
    }
    Optional<String> stored;
    try {
      stored = store.resourceVersion(buffer.getMetadata().getNamespace(), e.templateName());
    } catch (ClusterApiException ex) {
      return null;
    }
    return stored.isPresent() && stored.get().equals(e.templateVersion()) ? e.managed() : null;
  }

  /**
   * Records the outcome of an upsert of {@code desired} extracted from {@code pod}. Kept only when the stored
   * result is semantically equal to {@code desired} (always so when nothing was written) and every version is
   * known.
   */
  void rememberManaged(BufferClusterView view, ManagedTemplateStore store, CapacityBuffer buffer, Pod pod, PodTemplate desired,
      ManagedTemplates.Upserted upserted) {
    String key = key(buffer);
    live.remove(key);
    String version = view.podTemplateVersion(pod);
    PodTemplate managed = upserted.stored();
    String templateVersion = managed.getMetadata() == null ? null : managed.getMetadata().getResourceVersion();
    if (version == null || templateVersion == null || templateVersion.isEmpty()
        || !Objects.equals(managed.getMetadata().getName(), desired.getMetadata().getName())) {
      return;
    }
    if (upserted.written() && !ManagedTemplates.semanticallyEqual(managed.getTemplate(), desired.getTemplate())) {
      return;
    }
    live.put(key, new LiveEntry(view, store, version, managed.getMetadata().getName(), templateVersion, managed));
  }

  /**
   * {@link ManagedTemplates#upsertTracked}, without reading the stored template when its resourceVersion is the
   * one seen last: then its canonical content is known, and when it equals the desired one the upsert writes
   * nothing and returns that stored template.
   */
  ManagedTemplates.Upserted upsert(ManagedTemplateStore store, PodTemplate desired) throws ClusterApiException {
    String namespace = desired.getMetadata().getNamespace();
    String name = desired.getMetadata().getName();
    String key = namespace + "/" + name;
    StoredEntry e = stored.get(key);
    Object wanted = null;
    if (e != null && e.store() == store) {
      Optional<String> version;
      try {
        version = store.resourceVersion(namespace, name);
      } catch (ClusterApiException ex) {
        version = Optional.empty();
      }
      if (version.isPresent() && version.get().equals(e.version())) {
        wanted = ManagedTemplates.canonical(desired.getTemplate());
        if (Objects.equals(wanted, e.canonical())) {
          return new ManagedTemplates.Upserted(e.template(), false);
        }
      }
    }
    stored.remove(key);
    ManagedTemplates.Upserted u = ManagedTemplates.upsertTracked(store, desired);
    PodTemplate t = u.stored();
    String version = t.getMetadata() == null ? null : t.getMetadata().getResourceVersion();
    if (version != null && !version.isEmpty() && name.equals(t.getMetadata().getName())) {
      // unwritten: the stored content is semantically equal to the desired one, so their canonical forms are equal
      Object canonical = u.written() ? ManagedTemplates.canonical(t.getTemplate())
          : wanted != null ? wanted : ManagedTemplates.canonical(desired.getTemplate());
      stored.put(key, new StoredEntry(store, version, canonical, t));
    }
    return u;
  }

  /** Forgets what a buffer's live-pod translation kept (it took another path this time). */
  void forgetManaged(CapacityBuffer buffer) {
    live.remove(key(buffer));
  }

  /**
   * The chunk of the stored template {@code namespace/name}, computed with {@code compute} from a fresh read when
   * its resourceVersion changed; empty when the template does not exist or cannot be read.
   */
  Optional<Chunk> chunk(ManagedTemplateStore store, String namespace, String name, boolean countPods,
      java.util.function.Function<PodTemplate, Chunk> compute) {
    String key = namespace + "/" + name;
    try {
      Optional<String> version = store.resourceVersion(namespace, name);
      ChunkEntry e = chunks.get(key);
      if (version.isPresent() && e != null && e.store() == store && e.countPods() == countPods
          && version.get().equals(e.templateVersion())) {
        return Optional.of(e.chunk());
      }
    } catch (ClusterApiException ex) {
      // read it the plain way below
    }
    Optional<PodTemplate> template;
    try {
      template = store.get(namespace, name);
    } catch (ClusterApiException ex) {
      chunks.remove(key);
      return Optional.empty();
    }
    if (template.isEmpty()) {
      chunks.remove(key);
      return Optional.empty();
    }
    Chunk chunk = compute.apply(template.get());
    String version = template.get().getMetadata() == null ? null : template.get().getMetadata().getResourceVersion();
    if (version == null || version.isEmpty()) {
      chunks.remove(key);
    } else {
      chunks.put(key, new ChunkEntry(store, version, countPods, chunk));
    }
    return Optional.of(chunk);
  }

  /**
   * {@link SelectorExpression#parse} of {@code text}, kept per text (parsed selectors are immutable).
   *
   * @throws IllegalArgumentException as {@link SelectorExpression#parse} (failures are not kept)
   */
  SelectorExpression selector(String text) {
    return parsedOnce(selectors, text, SelectorExpression::parse);
  }

  /** {@link Timestamps#creation}, with each timestamp text parsed once (at most {@value #MAX_PARSED} kept). */
  java.time.Instant creation(io.fabric8.kubernetes.api.model.ObjectMeta meta) {
    String text = meta == null ? null : meta.getCreationTimestamp();
    return text == null ? Timestamps.creation(meta) : parsedOnce(times, text, t -> Timestamps.creation(meta));
  }

  /**
   * The value {@code parse} gives for {@code text}, kept in {@code parsed} (emptied when it holds
   * {@value #MAX_PARSED} texts). A parse that throws keeps nothing.
   */
  private static <T> T parsedOnce(Map<String, T> parsed, String text, java.util.function.Function<String, T> parse) {
    T value = parsed.get(text);
    if (value == null) {
      value = parse.apply(text);
      if (parsed.size() >= MAX_PARSED) {
        parsed.clear();
      }
      parsed.put(text, value);
    }
    return value;
  }

  /** Drops the entries of {@code namespace} whose buffers are not among {@code present} (deleted buffers). */
  void retain(String namespace, Collection<CapacityBuffer> present) {
    Set<String> keys = new HashSet<>();
    present.forEach(b -> keys.add(key(b)));
    String prefix = namespace + "/";
    live.keySet().removeIf(k -> k.startsWith(prefix) && !keys.contains(k));
  }

  private static String key(CapacityBuffer b) {
    return b.getMetadata().getNamespace() + "/" + b.getMetadata().getName();
  }
}
