package dev.headroom.core.buffer;

import dev.headroom.api.Models;
import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The defaulting pod resolver (spec §3.5, used when server dry run is off and by {@code headroom explain}):
 * builds the pod from the template and copies limits into missing requests, for containers, init containers
 * and pod-level resources.
 */
public final class DefaultingPodResolver implements PodResolver {

  @Override
  public Pod resolve(String namespace, PodTemplateSpec template) {
    Pod pod = build(namespace, template);
    PodSpec spec = pod.getSpec();
    for (Container c : Containers.all(spec)) {
      defaultContainer(c);
    }
    defaultPodLevel(spec);
    return pod;
  }

  /**
   * Builds the pod a template describes: deep copies of labels, annotations, finalizers and spec; the
   * namespace set. Never null (an absent spec becomes an empty one).
   */
  public static Pod build(String namespace, PodTemplateSpec template) {
    Pod pod = new Pod();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    ObjectMeta meta = new ObjectMeta();
    ObjectMeta source = template == null ? null : template.getMetadata();
    if (source != null) {
      meta.setLabels(source.getLabels() == null ? null : new LinkedHashMap<>(source.getLabels()));
      meta.setAnnotations(source.getAnnotations() == null ? null : new LinkedHashMap<>(source.getAnnotations()));
      meta.setFinalizers(source.getFinalizers() == null ? null : new ArrayList<>(source.getFinalizers()));
    }
    meta.setNamespace(namespace);
    pod.setMetadata(meta);
    PodSpec spec = template == null ? null : Models.copy(template.getSpec());
    pod.setSpec(spec == null ? new PodSpec() : spec);
    return pod;
  }

  private static void defaultContainer(Container c) {
    ResourceRequirements r = c.getResources();
    if (r == null) {
      r = new ResourceRequirements();
      c.setResources(r);
    }
    if (r.getRequests() == null) {
      r.setRequests(new LinkedHashMap<>());
    }
    if (r.getLimits() != null) {
      for (Map.Entry<String, Quantity> e : r.getLimits().entrySet()) {
        r.getRequests().putIfAbsent(e.getKey(), e.getValue());
      }
    }
  }

  private static void defaultPodLevel(PodSpec spec) {
    ResourceRequirements pod = spec.getResources();
    if (pod == null || pod.getLimits() == null || pod.getLimits().isEmpty()) {
      return;
    }
    Map<String, Quantity> requests = pod.getRequests() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(pod.getRequests());
    PodSpec containersOnly = new PodSpec();
    containersOnly.setContainers(spec.getContainers());
    containersOnly.setInitContainers(spec.getInitContainers());
    for (Map.Entry<String, Long> e : EffectiveRequests.of(containersOnly).entrySet()) {
      if (e.getKey().startsWith("hugepages-") && !requests.containsKey(e.getKey())) {
        requests.put(e.getKey(), new Quantity(Quantities.format(e.getKey(), e.getValue())));
      }
    }
    for (Map.Entry<String, Quantity> e : pod.getLimits().entrySet()) {
      if (isPodLevelResource(e.getKey())) {
        requests.putIfAbsent(e.getKey(), e.getValue());
      }
    }
    if (!requests.isEmpty()) {
      pod.setRequests(requests);
    }
  }

  /** Resources that pod-level {@code resources} may carry: cpu, memory, hugepages-*. */
  static boolean isPodLevelResource(String name) {
    return name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-");
  }
}
