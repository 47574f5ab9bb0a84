package dev.headroom.controller.kube;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Deep copies of cached objects: the cache is shared, core mutates what it gets. */
final class Copies {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Copies() {}

  static <T> T of(T object) {
    return object == null ? null : SERIALIZATION.clone(object);
  }

  static KubernetesSerialization serialization() {
    return SERIALIZATION;
  }
}
