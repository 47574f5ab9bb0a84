package dev.headroom.controller.cache;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.core.buffer.WorkloadKind;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Index names and functions of the caches: buffers by referenced template and workload, pods by label. */
public final class Indexes {
  /** Buffers by {@code namespace/podTemplateRef.name}. */
  public static final String BUFFER_BY_TEMPLATE = "buffer-by-template";
  /** Buffers by {@code namespace/group/kind/name} of their {@code scalableRef} ({@code core} is {@code ""}). */
  public static final String BUFFER_BY_SCALABLE = "buffer-by-scalable";
  /** Pods by {@code namespace/key=value} for each label. */
  public static final String POD_BY_LABEL = "pod-by-label";

  private Indexes() {}

  public static String templateKey(String namespace, String name) {
    return namespace + "/" + name;
  }

  /** Index key of a scalable object; {@code core} and {@code ""} are the same group. */
  public static String scalableKey(String namespace, String group, String kind, String name) {
    return namespace + "/" + WorkloadKind.normaliseGroup(group) + "/" + kind + "/" + name;
  }

  public static String labelKey(String namespace, String key, String value) {
    return namespace + "/" + key + "=" + value;
  }

  static List<String> bufferTemplate(CapacityBuffer b) {
    if (b.getSpec() == null || b.getSpec().getPodTemplateRef() == null || b.getSpec().getPodTemplateRef().getName() == null) {
      return List.of();
    }
    return List.of(templateKey(b.getMetadata().getNamespace(), b.getSpec().getPodTemplateRef().getName()));
  }

  static List<String> bufferScalable(CapacityBuffer b) {
    ScalableRef ref = b.getSpec() == null ? null : b.getSpec().getScalableRef();
    if (ref == null || ref.getKind() == null || ref.getName() == null) {
      return List.of();
    }
    return List.of(scalableKey(b.getMetadata().getNamespace(), ref.getApiGroup(), ref.getKind(), ref.getName()));
  }

  static List<String> podLabels(Pod p) {
    Map<String, String> labels = p.getMetadata().getLabels();
    if (labels == null || labels.isEmpty()) {
      return List.of();
    }
    List<String> keys = new ArrayList<>(labels.size());
    labels.forEach((k, v) -> keys.add(labelKey(p.getMetadata().getNamespace(), k, v)));
    return keys;
  }
}
