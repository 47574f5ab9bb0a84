package dev.headroom.core.buffer;

import dev.headroom.api.Models;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link ManagedTemplateStore} held in memory, for {@code headroom explain} and tests.
 *
 * <p>Two generation behaviours: {@link Generations#API_SERVER} (1 on create, +1 on every semantic change of
 * {@code .template}) and {@link Generations#FAKE_CLIENT} (generation left as given, normally 0, like the
 * upstream fake clientset used by the conformance vectors). Every stored and returned object is a deep copy.
 */
public final class InMemoryTemplateStore implements ManagedTemplateStore {

  /** How generations evolve. */
  public enum Generations { API_SERVER, FAKE_CLIENT }

  private final Generations generations;
  private final Map<String, PodTemplate> objects = new LinkedHashMap<>();
  private final Set<String> written = new LinkedHashSet<>();
  private int creates;
  private int updates;
  private long resourceVersion;

  /** An empty store. */
  public InMemoryTemplateStore(Generations generations) {
    this.generations = generations;
  }

  /**
   * Stores an existing object without counting it as a write (e.g. a template read from input). Its
   * resourceVersion is kept; later writes never reuse a numeric one (versions are never reused, as on an API server).
   */
  public void put(PodTemplate template) {
    objects.put(key(template.getMetadata().getNamespace(), template.getMetadata().getName()), Models.copy(template));
    String rv = template.getMetadata().getResourceVersion();
    if (rv != null && rv.matches("[0-9]{1,18}")) {
      resourceVersion = Math.max(resourceVersion, Long.parseLong(rv));
    }
  }

  @Override
  public Optional<PodTemplate> get(String namespace, String name) {
    return Optional.ofNullable(Models.copy(objects.get(key(namespace, name))));
  }

  @Override
  public Optional<String> resourceVersion(String namespace, String name) {
    PodTemplate t = objects.get(key(namespace, name));
    String rv = t == null || t.getMetadata() == null ? null : t.getMetadata().getResourceVersion();
    return rv == null || rv.isEmpty() ? Optional.empty() : Optional.of(rv);
  }

  @Override
  public PodTemplate create(PodTemplate template) throws ClusterApiException {
    String key = key(template.getMetadata().getNamespace(), template.getMetadata().getName());
    if (objects.containsKey(key)) {
      throw new ClusterApiException("podtemplates \"" + template.getMetadata().getName() + "\" already exists");
    }
    PodTemplate stored = Models.copy(template);
    if (generations == Generations.API_SERVER) {
      stored.getMetadata().setGeneration(1L);
    }
    stored.getMetadata().setResourceVersion(Long.toString(++resourceVersion));
    objects.put(key, stored);
    written.add(key);
    creates++;
    return Models.copy(stored);
  }

  @Override
  public PodTemplate update(PodTemplate template) throws ClusterApiException {
    String key = key(template.getMetadata().getNamespace(), template.getMetadata().getName());
    PodTemplate existing = objects.get(key);
    if (existing == null) {
      throw new ClusterApiException(NotFound.message("podtemplates", "", template.getMetadata().getName()));
    }
    PodTemplate stored = Models.copy(template);
    long generation = existing.getMetadata().getGeneration() == null ? 0 : existing.getMetadata().getGeneration();
    if (generations == Generations.API_SERVER && !ManagedTemplates.semanticallyEqual(existing.getTemplate(), template.getTemplate())) {
      generation++;
    }
    stored.getMetadata().setGeneration(generations == Generations.API_SERVER ? Long.valueOf(generation) : existing.getMetadata().getGeneration());
    stored.getMetadata().setResourceVersion(Long.toString(++resourceVersion));
    objects.put(key, stored);
    written.add(key);
    updates++;
    return Models.copy(stored);
  }

  /** Every stored template, in insertion order (copies). */
  public List<PodTemplate> all() {
    return objects.values().stream().map(Models::copy).toList();
  }

  /** The templates created or updated through this store, in order of their first write (copies). */
  public List<PodTemplate> written() {
    List<PodTemplate> out = new ArrayList<>();
    written.forEach(k -> out.add(Models.copy(objects.get(k))));
    return out;
  }

  /** Number of create calls that succeeded. */
  public int creates() {
    return creates;
  }

  /** Number of update calls that succeeded. */
  public int updates() {
    return updates;
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
