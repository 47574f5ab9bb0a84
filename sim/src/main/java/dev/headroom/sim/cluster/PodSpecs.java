package dev.headroom.sim.cluster;

import io.fabric8.kubernetes.api.model.PodSpec;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-pod copies of a workload's pod spec. A simulated pod needs a spec object of its own, because binding writes
 * {@code spec.nodeName} into it; everything below the spec (containers, tolerations, affinity, ...) is never
 * written by the simulator or the core, so the copy shares it with the template. Every bean property of
 * {@link PodSpec} is copied (found once by reflection, so a property added to the model is not missed); a deep
 * copy through the fabric8 builders costs a hundred times more and was the simulator's largest cost per pod.
 */
final class PodSpecs {

  private record Property(Method getter, Method setter) {}

  private static final List<Property> PROPERTIES = properties();

  private PodSpecs() {}

  /** A new spec with every property of {@code template} (sub-objects shared; additional properties copied). */
  static PodSpec shallowCopy(PodSpec template) {
    PodSpec copy = new PodSpec();
    try {
      for (Property p : PROPERTIES) {
        Object v = p.getter().invoke(template);
        if (v != null) {
          p.setter().invoke(copy, v);
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot copy a pod spec", e);
    }
    copy.setAdditionalProperties(new LinkedHashMap<>(template.getAdditionalProperties()));
    return copy;
  }

  private static List<Property> properties() {
    List<Property> out = new ArrayList<>();
    for (Method setter : PodSpec.class.getMethods()) {
      if (!setter.getName().startsWith("set") || setter.getParameterCount() != 1 || Modifier.isStatic(setter.getModifiers())
          || setter.getName().equals("setAdditionalProperty") || setter.getName().equals("setAdditionalProperties")) {
        continue;
      }
      String property = setter.getName().substring(3);
      Method getter = getter(property, setter.getParameterTypes()[0]);
      if (getter != null) {
        out.add(new Property(getter, setter));
      }
    }
    out.sort(java.util.Comparator.comparing(p -> p.setter().getName()));
    return List.copyOf(out);
  }

  private static Method getter(String property, Class<?> type) {
    for (String prefix : new String[] {"get", "is"}) {
      try {
        Method m = PodSpec.class.getMethod(prefix + property);
        if (m.getReturnType() == type && !Modifier.isStatic(m.getModifiers())) {
          return m;
        }
      } catch (NoSuchMethodException e) {
        // try the next prefix
      }
    }
    return null;
  }

  /** The number of properties copied (tests). */
  static int propertyCount() {
    return PROPERTIES.size();
  }

  /** Property names copied (tests). */
  static Map<String, Method> getters() {
    Map<String, Method> m = new LinkedHashMap<>();
    for (Property p : PROPERTIES) {
      m.put(p.setter().getName().substring(3), p.getter());
    }
    return m;
  }
}
