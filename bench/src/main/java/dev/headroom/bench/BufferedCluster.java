package dev.headroom.bench;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.autoscaler.EventSink;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code buffers}: one {@link Autoscaler#runOnce} over a large, busy cluster with many buffers. For
 * {@code --pods N} (virtual pods, default 20,000): N/10 CapacityBuffers of 10 chunks (1 CPU / 4 Gi each,
 * every buffer with its own PodTemplate and labels, spread over 20 namespaces) on N/4 Ready nodes
 * (16 CPU / 64 Gi / 110 pods, three zones) that already hold 5N scheduled pods, 20 per node, from 500
 * ReplicaSets (250m–750m CPU, 1–3 Gi). Every node keeps about 6 CPU / 24 Gi free, so every chunk fits on
 * existing capacity and the loop ends without scale-up; scale-down finds every node above the utilisation
 * threshold. The default size is 2,000 buffers × 10 chunks, 5,000 nodes and 100,000 scheduled pods.
 */
public final class BufferedCluster implements Scenario {

  /** The loop time. */
  public static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
  /** Chunks per buffer. */
  public static final int CHUNKS = 10;
  /** Scheduled pods per node. */
  public static final int PODS_PER_NODE = 20;
  /** Namespaces the buffers and pods are spread over. */
  public static final int NAMESPACES = 20;

  @Override
  public String name() {
    return "buffers";
  }

  @Override
  public int defaultPods() {
    return 20_000;
  }

  @Override
  public String description() {
    return "N virtual pods from N/10 buffers on N/4 busy nodes holding 5N scheduled pods (one runOnce)";
  }

  @Override
  public Prepared prepare(int pods) {
    Cluster c = cluster(pods);
    AutoscalerOptions options = AutoscalerOptions.DEFAULTS;
    return () -> {
      RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(List.of(c.group()));
      IterationResult r = new Autoscaler(options, c.view(), provider, EventSink.NONE, BufferStatusWriter.NONE,
          new AutoscalerState(options), SnapshotSimulation::new).runOnce(NOW);
      int virtual = 0;
      int placed = 0;
      for (IterationResult.BufferOutcome b : r.buffers()) {
        virtual += b.virtualPods();
        placed += b.onExistingNodes() + b.onUpcomingNodes() + b.onNewNodes();
      }
      int nodes = c.view().nodes().size() + r.scaleUp().stream().mapToInt(IterationResult.ScaleUpDecision::delta).sum();
      return new Outcome(virtual, placed, nodes);
    };
  }

  /** The generated cluster. */
  public record Cluster(StaticClusterView view, NodeGroup group) {}

  /** Builds the cluster for {@code virtualPods} virtual pods. */
  public static Cluster cluster(int virtualPods) {
    int buffers = Math.max(1, virtualPods / CHUNKS);
    int nodeCount = Math.max(1, virtualPods / 4);
    Map<String, Quantity> resources = Map.of("cpu", new Quantity("16"), "memory", new Quantity("64Gi"), "pods", new Quantity("110"));
    Node template = new NodeBuilder()
        .withNewMetadata().withName("template-general").withLabels(Map.of(NodeGroupLabels.NODE_GROUP, "general")).endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().withCapacity(resources).withAllocatable(resources).endStatus()
        .build();
    NodeGroup group = new NodeGroup("general", 0, nodeCount * 2, nodeCount, 0.384, Duration.ZERO, template, NodeGroupOptions.NONE);
    StaticClusterView.Builder view = StaticClusterView.builder();
    String created = NOW.minus(Duration.ofDays(1)).toString();
    String[] cpu = {"250m", "500m", "750m"};
    String[] mem = {"1Gi", "2Gi", "3Gi"};
    int pod = 0;
    for (int n = 0; n < nodeCount; n++) {
      String name = String.format("node-%05d", n);
      view.node(new NodeBuilder()
          .withNewMetadata().withName(name).withUid(name + "-uid").withCreationTimestamp(created)
          .withLabels(Map.of(NodeGroupLabels.NODE_GROUP, "general", NodeGroupLabels.HOSTNAME, name,
              "topology.kubernetes.io/zone", "zone-" + (n % 3)))
          .endMetadata()
          .withNewSpec().withProviderID("bench://" + name).endSpec()
          .withNewStatus().withCapacity(resources).withAllocatable(resources)
          .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").build()).endStatus()
          .build());
      for (int k = 0; k < PODS_PER_NODE; k++, pod++) {
        int rs = pod % 500;
        String ns = "team-" + (rs % NAMESPACES);
        view.pod(new PodBuilder()
            .withNewMetadata().withName("rs-" + rs + "-" + pod).withNamespace(ns).withUid("pod-uid-" + pod).withCreationTimestamp(created)
            .withLabels(Map.of("app", "app-" + rs))
            .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("rs-" + rs).withUid("rs-uid-" + rs)
            .withController(true).endOwnerReference()
            .endMetadata()
            .withNewSpec().withNodeName(name).addNewContainer().withName("app").withNewResources()
            .addToRequests("cpu", new Quantity(cpu[pod % 3])).addToRequests("memory", new Quantity(mem[(pod / 3) % 3]))
            .endResources().endContainer().endSpec()
            .withNewStatus().withPhase("Running").endStatus()
            .build());
      }
    }
    for (int b = 0; b < buffers; b++) {
      String ns = "team-" + (b % NAMESPACES);
      String name = "buffer-" + b;
      view.podTemplate(new PodTemplateBuilder()
          .withNewMetadata().withName(name + "-template").withNamespace(ns).withGeneration(1L).endMetadata()
          .withNewTemplate().withNewMetadata().withLabels(Map.of("app", name)).endMetadata()
          .withNewSpec().addNewContainer().withName("app").withNewResources()
          .addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("4Gi")).endResources().endContainer().endSpec()
          .endTemplate().build());
      view.buffer(buffer(ns, name, name + "-template"));
    }
    return new Cluster(view.build(), group);
  }

  private static CapacityBuffer buffer(String namespace, String name, String template) {
    CapacityBuffer b = new CapacityBuffer();
    ObjectMeta m = new ObjectMeta();
    m.setName(name);
    m.setNamespace(namespace);
    m.setUid(name + "-uid");
    m.setGeneration(1L);
    m.setCreationTimestamp(NOW.minus(Duration.ofDays(1)).toString());
    b.setMetadata(m);
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setPodTemplateRef(new LocalObjectRef(template));
    spec.setReplicas(CHUNKS);
    b.setSpec(spec);
    CapacityBufferStatus st = new CapacityBufferStatus();
    st.setPodTemplateRef(new LocalObjectRef(template));
    st.setReplicas(CHUNKS);
    st.setPodTemplateGeneration(1L);
    st.setProvisioningStrategy(BufferConditions.STRATEGY_ACTIVE_CAPACITY);
    List<Condition> cs = new ArrayList<>();
    Condition ready = BufferConditions.ready(1);
    ready.setLastTransitionTime(NOW.minus(Duration.ofHours(1)).toString());
    cs.add(ready);
    st.setConditions(cs);
    b.setStatus(st);
    return b;
  }
}
