package dev.headroom.sim.run;

import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which strategies use standby capacity (the {@code buffer.headroom.dev/standby-capacity} provisioning strategy), and
 * the {@code warm-pool} strategy written as that strategy. A warm pool of {@code size} instances of one group is: the
 * group's {@code spec.standby} ({@code resumeDelay}, the group's price × {@code stoppedPriceFraction}), and one standby
 * CapacityBuffer of {@code size} chunks that each take a whole node of that group — a tiny request, a node selector on
 * the group's label, a toleration of every taint and a required pod anti-affinity on {@code kubernetes.io/hostname}
 * against the chunks' own label — so that core's binpacking of the chunks onto the group's template gives exactly
 * {@code size} nodes. Core decides the pool's size from that buffer (its {@code StandbyCapacity} step) and the
 * simulator's provider keeps it; nothing here sizes a pool.
 */
final class StandbyStrategies {

  /** Label of a warm pool's chunks (the value is the group), which their anti-affinity selects. */
  static final String POOL_LABEL = "headroom.dev/warm-pool";
  /** Namespace of a warm pool's buffer and PodTemplate. */
  static final String POOL_NAMESPACE = "default";

  private StandbyStrategies() {}

  /** True when the strategy has a buffer of the standby strategy (a warm pool is one). */
  static boolean uses(Scenario.Strategy strategy) {
    if (strategy instanceof Scenario.WarmPool) {
      return true;
    }
    if (strategy instanceof Scenario.Buffers bs) {
      for (Scenario.BufferDef d : bs.buffers()) {
        if (standby(d)) {
          return true;
        }
      }
    }
    return false;
  }

  /** True for a buffer of the standby strategy. */
  static boolean standby(Scenario.BufferDef d) {
    return BufferConditions.STRATEGY_STANDBY_CAPACITY.equals(d.spec().getProvisioningStrategy());
  }

  /** The scenario's node groups for this strategy: a warm pool's group with its {@code spec.standby}. */
  static List<NodeGroup> nodeGroups(List<NodeGroup> groups, Scenario.Strategy strategy) {
    if (!(strategy instanceof Scenario.WarmPool w)) {
      return groups;
    }
    List<NodeGroup> out = new ArrayList<>(groups.size());
    for (NodeGroup g : groups) {
      out.add(g.id().equals(w.nodeGroup())
          ? g.withStandby(new NodeGroup.Standby(w.resumeDelay(), g.pricePerHour() * w.stoppedPriceFraction()))
          : g);
    }
    return out;
  }

  /** The strategy's buffers: a buffer strategy's own, a warm pool's standby buffer, none otherwise. */
  static List<Scenario.BufferDef> buffers(Scenario.Strategy strategy) {
    if (strategy instanceof Scenario.Buffers bs) {
      return bs.buffers();
    }
    if (strategy instanceof Scenario.WarmPool w) {
      return List.of(poolBuffer(w));
    }
    return List.of();
  }

  /** The standby CapacityBuffer a warm pool stands for: {@code size} chunks, one per node of its group. */
  static Scenario.BufferDef poolBuffer(Scenario.WarmPool w) {
    String name = "warm-pool-" + w.nodeGroup();
    Map<String, String> labels = Map.of(POOL_LABEL, w.nodeGroup());
    PodSpec pod = ScenarioParser.requestsPod(Map.of("cpu", new Quantity("1m"), "memory", new Quantity("1Mi")));
    pod.setNodeSelector(Map.of(NodeGroupLabels.NODE_GROUP, w.nodeGroup()));
    pod.setTolerations(List.of(new TolerationBuilder().withOperator("Exists").build()));
    pod.setAffinity(new AffinityBuilder().withNewPodAntiAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder()
            .withNewLabelSelector().withMatchLabels(labels).endLabelSelector()
            .withTopologyKey(NodeGroupLabels.HOSTNAME).build())
        .endPodAntiAffinity().build());
    PodTemplate template = new PodTemplateBuilder().withNewMetadata().withName(name + "-chunk").withNamespace(POOL_NAMESPACE)
        .endMetadata().withNewTemplate().withNewMetadata().withLabels(labels).endMetadata().withSpec(pod).endTemplate().build();
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setPodTemplateRef(new LocalObjectRef(template.getMetadata().getName()));
    spec.setReplicas(w.size());
    spec.setProvisioningStrategy(BufferConditions.STRATEGY_STANDBY_CAPACITY);
    return new Scenario.BufferDef(name, POOL_NAMESPACE, spec, null, Map.of(), template);
  }
}
