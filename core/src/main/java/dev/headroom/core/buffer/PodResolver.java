package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * Port: turns a pod template into the pod the API server would admit (spec §3.5).
 *
 * <p>Two implementations exist: the {@link DefaultingPodResolver} in core (copies limits into missing
 * requests) and the controller's server dry-run resolver ({@code POST pods?dryRun=All}).
 * Implementations must not mutate {@code template}.
 */
public interface PodResolver {

  /**
   * Resolves a pod from {@code template} in {@code namespace}.
   *
   * @throws PodResolutionException when the pod cannot be built or is rejected; its message becomes the
   *     {@code <err>} of {@code failed to create fake pod: <err>} / {@code failed to resolve pod spec: <err>}
   */
  Pod resolve(String namespace, PodTemplateSpec template) throws PodResolutionException;

  /** A pod resolution failure (for example a dry-run admission rejection), message as rendered by the API. */
  final class PodResolutionException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the failure with the text that goes into the buffer's condition. */
    public PodResolutionException(String message) {
      super(message);
    }
  }
}
