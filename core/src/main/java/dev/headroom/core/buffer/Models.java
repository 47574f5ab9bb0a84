package dev.headroom.core.buffer;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/** In-memory model helpers: deep copies and generic trees of fabric8 objects (Jackson 3; no I/O). */
final class Models {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Models() {}

  /** A deep copy of a fabric8 model object (null stays null). */
  static <T> T copy(T object) {
    return object == null ? null : SERIALIZATION.clone(object);
  }

  /** The object as a generic JSON-like tree. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> tree(Object object) {
    return object == null ? Map.of() : SERIALIZATION.convertValue(object, Map.class);
  }
}
