package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.Optional;

/**
 * Port: storage of the managed PodTemplates (spec §3.6).
 *
 * <p>The controller implements it over the API server (GET / CREATE / UPDATE with the existing
 * {@code resourceVersion}); {@link InMemoryTemplateStore} implements it for {@code headroom explain} and tests.
 * The upsert <em>rule</em> (compare semantically, write only on change, replace owner references) lives in
 * {@link ManagedTemplates#upsert}; stores only perform the single calls.
 *
 * <p>Returned objects carry {@code metadata.generation}: a real API server sets 1 on create and adds 1 on every
 * semantic change of {@code .template}; fake clients leave 0.
 */
public interface ManagedTemplateStore {

  /** The PodTemplate {@code namespace/name}, or empty when it does not exist. */
  Optional<PodTemplate> get(String namespace, String name) throws ClusterApiException;

  /**
   * The {@code metadata.resourceVersion} of the stored PodTemplate {@code namespace/name}: empty when it does
   * not exist or carries none. Equal non-empty versions of one name mean an unchanged object. The default reads
   * it through {@link #get}; stores may answer without copying the object.
   */
  default Optional<String> resourceVersion(String namespace, String name) throws ClusterApiException {
    return get(namespace, name).map(t -> t.getMetadata() == null ? null : t.getMetadata().getResourceVersion()).filter(v -> !v.isEmpty());
  }

  /** Creates {@code template} and returns the stored object (with its generation). */
  PodTemplate create(PodTemplate template) throws ClusterApiException;

  /** Updates {@code template} (optimistic locking on its resourceVersion) and returns the stored object. */
  PodTemplate update(PodTemplate template) throws ClusterApiException;
}
