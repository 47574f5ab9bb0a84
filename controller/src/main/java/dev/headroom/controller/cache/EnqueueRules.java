package dev.headroom.controller.cache;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.buffer.BufferConsumption;
import dev.headroom.core.buffer.BufferReconciler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * Which informer updates enqueue a namespace (spec §6.2, §6.4 H3–H5). Adds and deletes always do (when the object
 * is referenced); these predicates decide for updates.
 */
public final class EnqueueRules {
  private EnqueueRules() {}

  /**
   * A buffer update counts when it is a periodic resync (same resourceVersion), a spec change (generation), or a
   * change of an annotation the reconcile reads ({@link BufferReconciler#READ_ANNOTATIONS}: the schedule, H5, and the
   * consumption annotations). Status-only writes, including ours, do not.
   */
  public static boolean bufferUpdate(CapacityBuffer oldB, CapacityBuffer newB) {
    if (Objects.equals(oldB.getMetadata().getResourceVersion(), newB.getMetadata().getResourceVersion())) {
      return true;
    }
    if (!Objects.equals(oldB.getMetadata().getGeneration(), newB.getMetadata().getGeneration())) {
      return true;
    }
    for (String key : BufferReconciler.READ_ANNOTATIONS) {
      if (!Objects.equals(annotation(oldB, key), annotation(newB, key))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A pod update counts for the buffers its namespace has with a consumer selector when the pod's labels changed
   * or it started or stopped consuming ({@link BufferConsumption#consumes}: deleted, terminated).
   */
  public static boolean podConsumptionUpdate(Pod oldP, Pod newP) {
    return !Objects.equals(oldP.getMetadata().getLabels(), newP.getMetadata().getLabels())
        || BufferConsumption.consumes(oldP) != BufferConsumption.consumes(newP);
  }

  /** A quota update counts only when {@code status.hard} or {@code status.used} changed by value. */
  public static boolean quotaUpdate(ResourceQuota oldQ, ResourceQuota newQ) {
    return !sameQuantities(hard(oldQ), hard(newQ)) || !sameQuantities(used(oldQ), used(newQ));
  }

  /** A template or workload update counts when its generation changed. */
  public static boolean generationChanged(HasMetadata oldO, HasMetadata newO) {
    return !Objects.equals(oldO.getMetadata().getGeneration(), newO.getMetadata().getGeneration());
  }

  /** True when {@code o}'s controller owner reference is a CapacityBuffer (a managed template, H4). */
  public static boolean ownedByBuffer(HasMetadata o) {
    if (o.getMetadata().getOwnerReferences() == null) {
      return false;
    }
    for (OwnerReference r : o.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(r.getController()) && CapacityBuffer.KIND.equals(r.getKind())
          && r.getApiVersion() != null && r.getApiVersion().startsWith(CapacityBuffer.GROUP + "/")) {
        return true;
      }
    }
    return false;
  }

  static boolean sameQuantities(Map<String, Quantity> a, Map<String, Quantity> b) {
    Map<String, Quantity> x = a == null ? Map.of() : a;
    Map<String, Quantity> y = b == null ? Map.of() : b;
    if (!x.keySet().equals(y.keySet())) {
      return false;
    }
    for (Map.Entry<String, Quantity> e : x.entrySet()) {
      if (!sameValue(e.getValue(), y.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameValue(Quantity a, Quantity b) {
    if (a == null || b == null) {
      return a == b;
    }
    try {
      BigDecimal x = a.getNumericalAmount();
      BigDecimal y = b.getNumericalAmount();
      return x.compareTo(y) == 0;
    } catch (RuntimeException e) {
      return Objects.equals(a.toString(), b.toString());
    }
  }

  private static Map<String, Quantity> hard(ResourceQuota q) {
    return q.getStatus() == null ? null : q.getStatus().getHard();
  }

  private static Map<String, Quantity> used(ResourceQuota q) {
    return q.getStatus() == null ? null : q.getStatus().getUsed();
  }

  private static String annotation(HasMetadata o, String key) {
    Map<String, String> a = o.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }
}
