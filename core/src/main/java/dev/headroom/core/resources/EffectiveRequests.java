package dev.headroom.core.resources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The requests of a pod as the scheduler computes them (KEP-753 sidecars, pod-level resources, overhead).
 *
 * <p>Used by buffer limits, ResourceQuota allocation, scheduling fit, utilisation and expander scores: the
 * one definition of "what a pod asks for". Values are milli-units ({@link Quantities#milli(Quantity)}).
 */
public final class EffectiveRequests {

  private EffectiveRequests() {}

  /** Effective requests of a pod spec, by resource name, in milli-units; never null. */
  public static Map<String, Long> of(PodSpec spec) {
    if (spec == null) {
      return Collections.emptySortedMap();
    }
    TreeMap<String, Long> sum = new TreeMap<>();
    for (Container c : nullSafe(spec.getContainers())) {
      addInto(sum, requests(c));
    }
    TreeMap<String, Long> sidecars = new TreeMap<>();
    TreeMap<String, Long> initPeak = new TreeMap<>();
    for (Container ic : nullSafe(spec.getInitContainers())) {
      Map<String, Long> own = requests(ic);
      Map<String, Long> step;
      if ("Always".equals(ic.getRestartPolicy())) {
        addInto(sum, own);
        addInto(sidecars, own);
        step = new TreeMap<>(sidecars);
      } else {
        TreeMap<String, Long> s = new TreeMap<>(own);
        addInto(s, sidecars);
        step = s;
      }
      maxInto(initPeak, step);
    }
    maxInto(sum, initPeak);
    if (spec.getResources() != null && spec.getResources().getRequests() != null) {
      for (Map.Entry<String, Quantity> e : spec.getResources().getRequests().entrySet()) {
        String name = e.getKey();
        if (name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-")) {
          sum.put(name, Quantities.milli(e.getValue()));
        }
      }
    }
    if (spec.getOverhead() != null) {
      Map<String, Long> overhead = new TreeMap<>();
      spec.getOverhead().forEach((k, v) -> overhead.put(k, Quantities.milli(v)));
      addInto(sum, overhead);
    }
    return Collections.unmodifiableSortedMap(sum);
  }

  /** The container's own requests in milli-units. */
  public static Map<String, Long> requests(Container c) {
    TreeMap<String, Long> out = new TreeMap<>();
    if (c.getResources() != null && c.getResources().getRequests() != null) {
      c.getResources().getRequests().forEach((k, v) -> out.put(k, Quantities.milli(v)));
    }
    return out;
  }

  private static void addInto(Map<String, Long> target, Map<String, Long> add) {
    add.forEach((k, v) -> target.merge(k, v, Quantities::add));
  }

  private static void maxInto(Map<String, Long> target, Map<String, Long> other) {
    other.forEach((k, v) -> target.merge(k, v, Math::max));
  }

  private static <T> List<T> nullSafe(List<T> list) {
    return list == null ? List.of() : list;
  }
}
