package dev.headroom.controller.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a custom kind keeps the values its {@code /scale} subresource reports: the CRD's
 * {@code specReplicasPath}, {@code statusReplicasPath} and {@code labelSelectorPath} (simple dotted JSON paths such
 * as {@code .status.replicas}).
 */
public record ScaleSource(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {

  /** {@code status.replicas} as the scale subresource reports it (0 when absent). */
  public int statusReplicas(GenericKubernetesResource o) {
    Object v = read(o, statusReplicasPath);
    return v instanceof Number n ? n.intValue() : 0;
  }

  /** {@code status.selector} as the scale subresource reports it (empty when absent or unset). */
  public String selector(GenericKubernetesResource o) {
    Object v = read(o, labelSelectorPath);
    return v == null ? "" : v.toString();
  }

  /** H3: whether an update changed the observed replica count or the selector. */
  public boolean scaleChanged(GenericKubernetesResource oldO, GenericKubernetesResource newO) {
    return !Objects.equals(read(oldO, statusReplicasPath), read(newO, statusReplicasPath))
        || !Objects.equals(read(oldO, labelSelectorPath), read(newO, labelSelectorPath));
  }

  /** Reads a dotted path ({@code .a.b.c}) from the object's JSON tree; null when any step is missing. */
  static Object read(GenericKubernetesResource o, String path) {
    if (path == null || path.isBlank() || o == null) {
      return null;
    }
    Object cur = o.getAdditionalProperties();
    for (String step : path.replaceFirst("^\\.", "").split("\\.")) {
      if (step.isEmpty()) {
        continue;
      }
      if (cur instanceof Map<?, ?> m) {
        cur = m.get(step);
      } else if (cur instanceof List<?>) {
        return null;
      } else {
        return null;
      }
      if (cur == null) {
        return null;
      }
    }
    return cur;
  }
}
