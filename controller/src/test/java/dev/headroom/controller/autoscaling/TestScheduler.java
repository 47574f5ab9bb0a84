package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.Placement;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A tiny stand-in for kube-scheduler in tests: binds pending pods to Ready, schedulable nodes where core's scheduling
 * predicates say they fit (first fit in node-name order), and marks the others {@code PodScheduled=False/Unschedulable}
 * (gated pods {@code PodScheduled=False/SchedulingGated}, as kube-scheduler does).
 */
final class TestScheduler {
  private final KubernetesClient client;

  TestScheduler(KubernetesClient client) {
    this.client = client;
  }

  /** One scheduling pass; returns the number of pods bound. */
  int schedule() {
    SchedulingCompiler compiler = new SchedulingCompiler();
    ClusterSnapshot snapshot = new ClusterSnapshot(compiler);
    List<Node> nodes = new ArrayList<>(client.nodes().list().getItems());
    nodes.sort(Comparator.comparing(n -> n.getMetadata().getName()));
    for (Node n : nodes) {
      if (Nodes.isReady(n) && !Nodes.isCordoned(n) && !Nodes.isBeingDeleted(n)) {
        snapshot.addNode(compiler.compile(n));
      }
    }
    List<Pod> pending = new ArrayList<>();
    for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
      String node = p.getSpec().getNodeName();
      if (node != null && !node.isEmpty()) {
        if (snapshot.nodeIndex(node) >= 0) {
          snapshot.addPod(compiler.compile(p), node);
        }
      } else if (p.getMetadata().getDeletionTimestamp() == null) {
        pending.add(p);
      }
    }
    pending.sort(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp() == null ? "" : p.getMetadata().getCreationTimestamp())
        .thenComparing(p -> p.getMetadata().getName()));
    int bound = 0;
    for (Pod p : pending) {
      if (p.getSpec().getSchedulingGates() != null && !p.getSpec().getSchedulingGates().isEmpty()) {
        // kube-scheduler does not try a gated pod; it reports PodScheduled=False/SchedulingGated.
        client.pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName()).editStatus(x -> {
          if (x.getStatus() == null) {
            x.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
          }
          x.getStatus().setPhase("Pending");
          x.getStatus().setConditions(new ArrayList<>(List.of(condition("False", "SchedulingGated"))));
          return x;
        });
        continue;
      }
      Placement placement = snapshot.schedulePodOnAnyNode(compiler.compile(p));
      String ns = p.getMetadata().getNamespace();
      String name = p.getMetadata().getName();
      if (placement instanceof Placement.Placed placed) {
        String node = placed.nodeName();
        client.pods().inNamespace(ns).withName(name).edit(x -> {
          x.getSpec().setNodeName(node);
          return x;
        });
        client.pods().inNamespace(ns).withName(name).editStatus(x -> {
          if (x.getStatus() == null) {
            x.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
          }
          x.getStatus().setPhase("Running");
          x.getStatus().setConditions(new ArrayList<>(List.of(condition("True", null))));
          return x;
        });
        bound++;
      } else {
        client.pods().inNamespace(ns).withName(name).editStatus(x -> {
          if (x.getStatus() == null) {
            x.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
          }
          x.getStatus().setPhase("Pending");
          x.getStatus().setConditions(new ArrayList<>(List.of(condition("False", "Unschedulable"))));
          return x;
        });
      }
    }
    return bound;
  }

  private static PodCondition condition(String status, String reason) {
    return new PodConditionBuilder().withType("PodScheduled").withStatus(status).withReason(reason).build();
  }
}
