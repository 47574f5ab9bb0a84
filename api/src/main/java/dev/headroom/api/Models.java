package dev.headroom.api;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/**
 * Deep copies and generic trees of fabric8 model objects, with fabric8's own (Jackson 3) serialisation. It lives
 * here, beside the model, so that {@code core} needs no type of {@code kubernetes-client-api} (the build checks that
 * rule: {@code CoreDependencyRuleTest}).
 */
public final class Models {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Models() {}

  /** A deep copy of a fabric8 model object (null stays null). */
  public static <T> T copy(T object) {
    return object == null ? null : SERIALIZATION.clone(object);
  }

  /** The object as a generic JSON-like tree (an empty map for null). */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> tree(Object object) {
    return object == null ? Map.of() : SERIALIZATION.convertValue(object, Map.class);
  }
}
