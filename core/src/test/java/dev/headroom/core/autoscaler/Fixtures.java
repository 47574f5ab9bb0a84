package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Test fixtures: nodes, pods, groups, buffers, and hand-written fakes of the ports. */
final class Fixtures {

  static final Instant T0 = Instant.parse("2026-03-02T08:00:00Z");

  private Fixtures() {}

  static Node template(String group, String cpu, String mem) {
    return new NodeBuilder().withNewMetadata().withName("template-" + group)
        .withLabels(new LinkedHashMap<>(Map.of(NodeGroupLabels.NODE_GROUP, group))).endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().withCapacity(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(mem), "pods", new Quantity("110")))
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(mem), "pods", new Quantity("110"))).endStatus()
        .build();
  }

  static NodeGroup group(String id, int min, int max, int target, String cpu, String mem) {
    return new NodeGroup(id, min, max, target, 1.0, Duration.ZERO, template(id, cpu, mem), NodeGroupOptions.NONE);
  }

  static Node node(String name, String group, String cpu, String mem, boolean ready, Instant created) {
    Node n = template(group, cpu, mem);
    n.getMetadata().setName(name);
    n.getMetadata().getLabels().put(NodeGroupLabels.HOSTNAME, name);
    n.getMetadata().setCreationTimestamp(created.toString());
    n.getMetadata().setUid(name + "-uid");
    n.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.NodeConditionBuilder()
        .withType("Ready").withStatus(ready ? "True" : "False").build()));
    return n;
  }

  static Pod pod(String name, String cpu, String mem, String nodeName) {
    Pod p = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid(name + "-uid")
        .withCreationTimestamp(T0.minusSeconds(600).toString())
        .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("rs").withUid("rs-uid").withController(true).endOwnerReference()
        .endMetadata()
        .withNewSpec().withNodeName(nodeName).addNewContainer().withName("c").withNewResources()
        .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(mem)).endResources().endContainer().endSpec()
        .build();
    return nodeName == null ? unschedulable(p) : p;
  }

  /** {@code p} marked {@code PodScheduled=False/Unschedulable}, as the scheduler leaves a pod that fits nowhere. */
  static Pod unschedulable(Pod p) {
    p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending")
        .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable").endCondition().build());
    return p;
  }

  static PodTemplate podTemplate(String name, String cpu, String mem) {
    return new PodTemplateBuilder().withNewMetadata().withName(name).withNamespace("default").withGeneration(1L).endMetadata()
        .withNewTemplate().withNewMetadata().withLabels(Map.of("app", "buffer")).endMetadata()
        .withNewSpec().addNewContainer().withName("c").withNewResources()
        .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(mem)).endResources().endContainer().endSpec()
        .endTemplate().build();
  }

  static CapacityBuffer buffer(String name, String template, int replicas) {
    CapacityBuffer b = new CapacityBuffer();
    ObjectMeta m = new ObjectMeta();
    m.setName(name);
    m.setNamespace("default");
    m.setUid(name + "-uid");
    m.setGeneration(1L);
    b.setMetadata(m);
    CapacityBufferStatus st = new CapacityBufferStatus();
    st.setPodTemplateRef(new LocalObjectRef(template));
    st.setReplicas(replicas);
    st.setPodTemplateGeneration(1L);
    st.setProvisioningStrategy(BufferConditions.STRATEGY_ACTIVE_CAPACITY);
    List<Condition> cs = new ArrayList<>();
    Condition ready = BufferConditions.ready(1);
    ready.setLastTransitionTime("2026-03-02T07:00:00Z");
    cs.add(ready);
    st.setConditions(cs);
    b.setStatus(st);
    return b;
  }

  /** In-memory cluster + provider: deletions and increases change the world like a real provider would. */
  static class World implements ClusterView, NodeGroupProvider, EventSink, BufferStatusWriter {
    final List<Node> nodes = new ArrayList<>();
    final List<Pod> pods = new ArrayList<>();
    final List<PodDisruptionBudget> pdbs = new ArrayList<>();
    final List<CapacityBuffer> buffers = new ArrayList<>();
    final Map<String, PodTemplate> templates = new HashMap<>();
    final LinkedHashMap<String, NodeGroup> groups = new LinkedHashMap<>();
    final List<EventRecord> events = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    /** While above 0, each decreaseTargetSize call fails (and counts this down). */
    int refuseDecreases;
    final Map<String, List<Condition>> written = new LinkedHashMap<>();
    /** Format of registered node names from the group id and the node's number. */
    String nodeNameFormat = "%s-%d";

    World group(NodeGroup g) {
      groups.put(g.id(), g);
      return this;
    }

    @Override public List<Node> nodes() { return List.copyOf(nodes); }
    @Override public List<Pod> pods() { return List.copyOf(pods); }
    @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return List.copyOf(pdbs); }
    @Override public List<CapacityBuffer> buffers() { return List.copyOf(buffers); }
    PodGroups podGroups = PodGroups.NONE;
    @Override public PodGroups podGroups() { return podGroups; }
    final List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests = new ArrayList<>();
    @Override public List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests() {
      return List.copyOf(provisioningRequests);
    }
    @Override public Optional<PodTemplate> podTemplate(String ns, String name) { return Optional.ofNullable(templates.get(name)); }

    @Override public List<NodeGroup> nodeGroups() { return List.copyOf(groups.values()); }

    @Override
    public Optional<String> nodeGroupOf(Node node) {
      var l = node.getMetadata().getLabels();
      return Optional.ofNullable(l == null ? null : l.get(NodeGroupLabels.NODE_GROUP));
    }

    @Override
    public void increaseSize(String id, int delta) {
      NodeGroup g = groups.get(id);
      if (g.targetSize() + delta > g.maxSize()) {
        throw new ProviderException("size increase too large");
      }
      calls.add("increase " + id + " " + delta);
      groups.put(id, g.withTargetSize(g.targetSize() + delta));
    }

    @Override
    public void deleteNodes(String id, List<Node> ns) {
      NodeGroup g = groups.get(id);
      if (g.targetSize() - ns.size() < g.minSize()) {
        throw new ProviderException("min size reached");
      }
      for (Node n : ns) {
        calls.add("delete " + n.getMetadata().getName());
        nodes.removeIf(x -> x.getMetadata().getName().equals(n.getMetadata().getName()));
        pods.removeIf(p -> n.getMetadata().getName().equals(p.getSpec().getNodeName()));
      }
      groups.put(id, g.withTargetSize(g.targetSize() - ns.size()));
    }

    @Override
    public void decreaseTargetSize(String id, int delta) {
      NodeGroup g = groups.get(id);
      if (refuseDecreases > 0) {
        refuseDecreases--;
        calls.add("refused decrease " + id + " " + delta);
        throw new ProviderException("cloud API unavailable");
      }
      calls.add("decrease " + id + " " + delta);
      groups.put(id, g.withTargetSize(g.targetSize() + delta));
    }

    @Override public void emit(EventRecord e) { events.add(e); }

    @Override
    public void writeConditions(CapacityBuffer b, List<Condition> conditions) {
      written.put(b.getMetadata().getName(), conditions);
      b.getStatus().setConditions(new ArrayList<>(conditions));
    }

    /** Makes the requested-but-missing nodes of a group appear (Ready or booting). */
    void registerNodes(String group, boolean ready, Instant created) {
      NodeGroup g = groups.get(group);
      long have = nodes.stream().filter(n -> group.equals(n.getMetadata().getLabels().get(NodeGroupLabels.NODE_GROUP))).count();
      var cap = g.template().getStatus().getCapacity();
      // the first free numbers from the count on (a name is never taken twice)
      for (long i = have, k = have; i < g.targetSize(); k++) {
        String name = String.format(nodeNameFormat, group, k);
        if (nodes.stream().noneMatch(n -> name.equals(n.getMetadata().getName()))) {
          nodes.add(node(name, group, cap.get("cpu").toString(), cap.get("memory").toString(), ready, created));
          i++;
        }
      }
    }

    Autoscaler autoscaler(AutoscalerOptions options, AutoscalerState state) {
      return new Autoscaler(options, this, this, this, this, state, SnapshotSimulation::new);
    }
  }
}
