package dev.headroom.sim.cluster;

import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Node objects as the KWOK-style provider creates them (autoscaler spec §6.2 steps 3–4), built in memory:
 * template labels plus group and hostname labels, the not-ready taint and {@code Ready=False} until the
 * provisioning delay has passed.
 */
public final class NodeObjects {

  /** Taint carried by a node until it is Ready. */
  public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
  /** Reason of the {@code Ready=False} condition while provisioning. */
  public static final String PROVISIONING_REASON = "HeadroomProvisioning";
  /** Annotation marking nodes the provider manages. */
  public static final String MANAGED_ANNOTATION = "headroom.dev/managed";
  /** Annotation holding the request time. */
  public static final String REQUESTED_AT_ANNOTATION = "headroom.dev/requested-at";
  /** Hostname label. */
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  private NodeObjects() {}

  /** A new node from a group template, not Ready (or Ready at once when {@code ready}). */
  public static Node create(Node template, String group, String name, Instant requestedAt, boolean ready) {
    Map<String, String> labels = new TreeMap<>(template.getMetadata().getLabels() == null ? Map.of() : template.getMetadata().getLabels());
    labels.put(NodeGroupLabels.NODE_GROUP, group);
    labels.put(HOSTNAME_LABEL, name);
    Map<String, String> annotations = new TreeMap<>(template.getMetadata().getAnnotations() == null ? Map.of() : template.getMetadata().getAnnotations());
    annotations.put(MANAGED_ANNOTATION, "true");
    annotations.put(REQUESTED_AT_ANNOTATION, requestedAt.toString());
    List<Taint> taints = new ArrayList<>();
    if (template.getSpec() != null && template.getSpec().getTaints() != null) {
      for (Taint t : template.getSpec().getTaints()) {
        taints.add(new TaintBuilder(t).build());
      }
    }
    if (!ready) {
      taints.add(new TaintBuilder().withKey(NOT_READY_TAINT).withEffect("NoSchedule").build());
    }
    return new NodeBuilder()
        .withNewMetadata().withName(name).withLabels(labels).withAnnotations(annotations)
        .withCreationTimestamp(requestedAt.toString()).withResourceVersion("1").endMetadata()
        .withNewSpec().withProviderID("kwok:" + name).withTaints(taints).endSpec()
        .withNewStatus().withCapacity(new TreeMap<>(template.getStatus().getCapacity()))
        .withAllocatable(new TreeMap<>(template.getStatus().getAllocatable()))
        .withConditions(new NodeConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False")
            .withReason(ready ? "KubeletReady" : PROVISIONING_REASON).build())
        .withNewNodeInfo().withKubeletVersion("fake").endNodeInfo()
        .endStatus()
        .build();
  }

  /** Sets {@code Ready=True} and removes the not-ready taint (a new resourceVersion, as an API server writes). */
  static void markReady(Node node) {
    String version = node.getMetadata().getResourceVersion();
    node.getMetadata().setResourceVersion(Long.toString(version == null ? 2 : Long.parseLong(version) + 1));
    node.getSpec().getTaints().removeIf(t -> NOT_READY_TAINT.equals(t.getKey()));
    node.getStatus().getConditions().removeIf(c -> "Ready".equals(c.getType()));
    node.getStatus().getConditions().add(new NodeConditionBuilder().withType("Ready").withStatus("True")
        .withReason("KubeletReady").build());
  }
}
