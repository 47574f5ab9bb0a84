package dev.headroom.core.scheduling;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders for test nodes and pods. */
final class Fixtures {

  private Fixtures() {}

  static Map<String, String> labels(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static NodeBuilder node(String name, String cpu, String memory, int pods, String... labels) {
    Map<String, String> l = labels(labels);
    l.putIfAbsent(CompiledNode.HOSTNAME_LABEL, name);
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(l)
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .withNewStatus()
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity(String.valueOf(pods))))
        .endStatus();
  }

  static Node taintedNode(String name, List<Taint> taints) {
    return node(name, "4", "8Gi", 110).editSpec().withTaints(taints).endSpec().build();
  }

  static PodBuilder pod(String name, String cpu, String memory, String... labels) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .withUid("uid-" + name)
        .withLabels(labels(labels))
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("c")
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
        .endResources()
        .endContainer()
        .endSpec();
  }

  static Pod simplePod(String name) {
    return pod(name, "100m", "100Mi").build();
  }
}
