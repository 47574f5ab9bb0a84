package dev.headroom.controller.provider.clusterapi;

import static dev.headroom.controller.provider.clusterapi.ClusterApiNames.*;

import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The template node of a Cluster API group from the upstream scale-from-zero annotations ({@code
 * capacity.cluster-autoscaler.kubernetes.io/{cpu,memory,ephemeral-disk,maxPods,gpu-type,gpu-count,labels,taints}}).
 * Annotation taints override template taints with the same key and effect.
 */
final class ScaleFromZeroTemplate {
  private static final Logger LOG = LoggerFactory.getLogger(ScaleFromZeroTemplate.class);
  static final String DEFAULT_MAX_PODS = "110";

  private ScaleFromZeroTemplate() {}

  /** The template, or empty when cpu or memory is not annotated (or an annotation is malformed). */
  static Optional<Node> fromAnnotations(String groupId, Map<String, String> a, List<Map<String, Object>> templateTaints) {
    String cpu = a.get(CAPACITY_CPU);
    String memory = a.get(CAPACITY_MEMORY);
    if (cpu == null || memory == null) {
      return Optional.empty();
    }
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    try {
      capacity.put("cpu", quantity(cpu));
      capacity.put("memory", quantity(memory));
      capacity.put("pods", quantity(a.getOrDefault(CAPACITY_MAX_PODS, DEFAULT_MAX_PODS)));
      if (a.containsKey(CAPACITY_EPHEMERAL_DISK)) {
        capacity.put("ephemeral-storage", quantity(a.get(CAPACITY_EPHEMERAL_DISK)));
      }
      if (a.containsKey(CAPACITY_GPU_TYPE) && a.containsKey(CAPACITY_GPU_COUNT)) {
        capacity.put(a.get(CAPACITY_GPU_TYPE).trim(), quantity(a.get(CAPACITY_GPU_COUNT)));
      }
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: malformed capacity annotation: {}", groupId, e.getMessage());
      return Optional.empty();
    }
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(NodeGroupLabels.OS, "linux");
    labels.put(NodeGroupLabels.ARCH, "amd64");
    labels.putAll(pairs(a.get(CAPACITY_LABELS)));
    String name = "template-" + groupId.replace('/', '-').toLowerCase();
    labels.put(NodeGroupLabels.HOSTNAME, name);
    List<Taint> taints = new ArrayList<>();
    List<Taint> annotated = taints(a.get(CAPACITY_TAINTS));
    for (Map<String, Object> t : templateTaints) {
      Taint taint = new TaintBuilder().withKey(str(t.get("key"))).withValue(str(t.get("value"))).withEffect(str(t.get("effect"))).build();
      boolean overridden = annotated.stream().anyMatch(x -> x.getKey().equals(taint.getKey()) && x.getEffect().equals(taint.getEffect()));
      if (!overridden) {
        taints.add(taint);
      }
    }
    taints.addAll(annotated);
    Node node = new NodeBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec().withTaints(taints).endSpec()
        .withNewStatus().withCapacity(capacity).withAllocatable(new LinkedHashMap<>(capacity))
          .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").build())
        .endStatus()
        .build();
    return Optional.of(node);
  }

  private static Quantity quantity(String s) {
    String t = s.trim();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("empty quantity");
    }
    Quantity q = new Quantity(t);
    Quantity.getAmountInBytes(q);
    return q;
  }

  private static Map<String, String> pairs(String s) {
    Map<String, String> out = new LinkedHashMap<>();
    if (s == null) {
      return out;
    }
    for (String part : s.split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
      }
    }
    return out;
  }

  /** {@code k=v:Effect,k2=v2:Effect}. */
  private static List<Taint> taints(String s) {
    List<Taint> out = new ArrayList<>();
    if (s == null) {
      return out;
    }
    for (String part : s.split(",")) {
      String p = part.trim();
      int colon = p.lastIndexOf(':');
      if (p.isEmpty() || colon <= 0) {
        continue;
      }
      String kv = p.substring(0, colon);
      String effect = p.substring(colon + 1).trim();
      int eq = kv.indexOf('=');
      String key = eq < 0 ? kv.trim() : kv.substring(0, eq).trim();
      String value = eq < 0 ? "" : kv.substring(eq + 1).trim();
      out.add(new TaintBuilder().withKey(key).withValue(value).withEffect(effect).build());
    }
    return out;
  }

  private static String str(Object o) {
    return o == null ? null : o.toString();
  }
}
