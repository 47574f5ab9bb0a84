package dev.headroom.api;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/**
 * Converts between the served versions. The schemas are identical (conversion strategy {@code None}), so a
 * conversion copies every field and changes only {@code apiVersion}.
 */
public final class CapacityBufferConversion {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private CapacityBufferConversion() {}

  /** The v1beta1 form of a v1alpha1 buffer (a deep copy; the argument is not changed). */
  public static dev.headroom.api.v1beta1.CapacityBuffer toV1beta1(dev.headroom.api.v1alpha1.CapacityBuffer buffer) {
    return convert(buffer, CapacityBufferVersion.V1BETA1, dev.headroom.api.v1beta1.CapacityBuffer.class);
  }

  /** The v1alpha1 form of a v1beta1 buffer (a deep copy; the argument is not changed). */
  public static dev.headroom.api.v1alpha1.CapacityBuffer toV1alpha1(dev.headroom.api.v1beta1.CapacityBuffer buffer) {
    return convert(buffer, CapacityBufferVersion.V1ALPHA1, dev.headroom.api.v1alpha1.CapacityBuffer.class);
  }

  @SuppressWarnings("unchecked")
  private static <T> T convert(Object buffer, CapacityBufferVersion target, Class<T> type) {
    Map<String, Object> tree = SERIALIZATION.convertValue(buffer, Map.class);
    tree.put("apiVersion", target.apiVersion());
    tree.put("kind", CapacityBufferVersion.KIND);
    return SERIALIZATION.convertValue(tree, type);
  }
}
