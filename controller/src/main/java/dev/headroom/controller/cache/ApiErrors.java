package dev.headroom.controller.cache;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** Renders API failures the way Kubernetes clients print them: the Status message when there is one. */
public final class ApiErrors {
  private ApiErrors() {}

  /** The server's Status message, else the exception's own message. */
  public static String message(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isBlank()) {
      return e.getStatus().getMessage();
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }
}
