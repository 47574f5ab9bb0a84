package dev.headroom.bench;

import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The workload of Karpenter's scheduling benchmark (autoscaler spec §9), as Headroom node groups.
 *
 * <p>Catalogue: instance type {@code i} (0..399) has {@code i+1} CPU, {@code 2(i+1)} Gi memory and
 * {@code 10(i+1)} pods, 100m CPU and 10Mi memory of overhead, with five offerings (spot in zone-1/2, on-demand in
 * zone-1/2/3); every (type, offering) pair is one node group. Pods: {@code n/5} each of generic pods,
 * zonal topology spread, hostname topology spread (maxSkew 1, DoNotSchedule), zonal pod self-affinity and
 * hostname pod anti-affinity ({@code app: nginx}); the remainder generic. CPU from {100m, 250m, 500m,
 * 1000m, 1500m}, memory from {100Mi, 256Mi, 512Mi, 1Gi, 2Gi, 4Gi}, label values from a..g, seed 42, unique
 * UIDs.
 */
public final class DiverseWorkload {

  /** Instance types in Karpenter's benchmark. */
  public static final int INSTANCE_TYPES = 400;
  /** Zone label. */
  public static final String ZONE = "topology.kubernetes.io/zone";
  /** Capacity-type label. */
  public static final String CAPACITY_TYPE = "karpenter.sh/capacity-type";
  /** Instance-type label. */
  public static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
  /** Hostname label. */
  public static final String HOSTNAME = "kubernetes.io/hostname";

  private static final String[][] OFFERINGS = {
    {"spot", "test-zone-1"}, {"spot", "test-zone-2"},
    {"on-demand", "test-zone-1"}, {"on-demand", "test-zone-2"}, {"on-demand", "test-zone-3"}
  };
  private static final int[] CPU_MILLIS = {100, 250, 500, 1000, 1500};
  private static final int[] MEMORY_MI = {100, 256, 512, 1024, 2048, 4096};
  private static final String[] VALUES = {"a", "b", "c", "d", "e", "f", "g"};

  private DiverseWorkload() {}

  /** Node overhead of every type (Karpenter's fake provider): allocatable = capacity minus this. */
  public static final long OVERHEAD_CPU_MILLIS = 100;
  /** Memory overhead of every type, MiB. */
  public static final long OVERHEAD_MEMORY_MI = 10;

  /** The number of offerings per instance type. */
  public static int offerings() {
    return OFFERINGS.length;
  }

  /**
   * One node group per (instance type, offering), group index = type × 5 + offering: id
   * {@code it-<i>-<capacity type>-<zone>}, 0..100,000 nodes, at size 0, priced by {@link #price}; the template has
   * capacity {@code i+1} CPU, {@code 2(i+1)} Gi, {@code 10(i+1)} pods and allocatable capacity minus 100m / 10Mi.
   */
  public static List<NodeGroup> nodeGroups(int instanceTypes) {
    List<NodeGroup> out = new ArrayList<>(instanceTypes * OFFERINGS.length);
    for (int i = 0; i < instanceTypes; i++) {
      for (String[] o : OFFERINGS) {
        String name = "it-" + i + "-" + o[0] + "-" + o[1];
        long cpu = 1000L * (i + 1);
        long memMi = 2048L * (i + 1);
        Node template = new NodeBuilder()
            .withNewMetadata().withName(name)
            .withLabels(Map.of(INSTANCE_TYPE, "it-" + i, CAPACITY_TYPE, o[0], ZONE, o[1], NodeGroupLabels.NODE_GROUP, name))
            .endMetadata()
            .withNewSpec().endSpec()
            .withNewStatus()
            .withCapacity(Map.of("cpu", new Quantity(cpu + "m"), "memory", new Quantity(memMi + "Mi"),
                "pods", new Quantity(String.valueOf(10 * (i + 1)))))
            .withAllocatable(Map.of("cpu", new Quantity((cpu - OVERHEAD_CPU_MILLIS) + "m"),
                "memory", new Quantity((memMi - OVERHEAD_MEMORY_MI) + "Mi"),
                "pods", new Quantity(String.valueOf(10 * (i + 1)))))
            .endStatus()
            .build();
        out.add(new NodeGroup(name, 0, 100_000, 0, price(i, o[0].equals("spot")), Duration.ZERO, template, NodeGroupOptions.NONE));
      }
    }
    return out;
  }

  /** The zone of a group of {@link #nodeGroups}. */
  public static String zone(NodeGroup g) {
    return g.template().getMetadata().getLabels().get(ZONE);
  }

  /** Price per hour of a type: spot is cheaper than on-demand, smaller types cheaper than larger. */
  public static double price(int type, boolean spot) {
    return (type + 1) * (spot ? 0.3 : 1.0);
  }

  /** The diverse pods, seeded. */
  public static List<Pod> pods(int count, long seed) {
    Random r = new Random(seed);
    List<Pod> pods = new ArrayList<>(count);
    int each = count / 5;
    for (int i = 0; i < each; i++) {
      pods.add(generic(r, pods.size()));
    }
    for (int i = 0; i < each; i++) {
      pods.add(spread(r, pods.size(), ZONE));
    }
    for (int i = 0; i < each; i++) {
      pods.add(spread(r, pods.size(), HOSTNAME));
    }
    for (int i = 0; i < each; i++) {
      pods.add(selfAffinity(r, pods.size(), ZONE));
    }
    for (int i = 0; i < each; i++) {
      pods.add(antiAffinity(r, pods.size(), HOSTNAME));
    }
    while (pods.size() < count) {
      pods.add(generic(r, pods.size()));
    }
    return pods;
  }

  private static PodBuilder base(Random r, int i, Map<String, String> labels) {
    String cpu = CPU_MILLIS[r.nextInt(CPU_MILLIS.length)] + "m";
    String mem = MEMORY_MI[r.nextInt(MEMORY_MI.length)] + "Mi";
    return new PodBuilder()
        .withNewMetadata().withName("pod-" + i).withNamespace("default").withUid("uid-" + i).withLabels(labels).endMetadata()
        .withNewSpec()
        .addNewContainer().withName("app").withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(mem)))
        .endResources().endContainer()
        .endSpec()
        .withStatus(RunOnceScaleUp.unschedulable());
  }

  private static String value(Random r) {
    return VALUES[r.nextInt(VALUES.length)];
  }

  private static Pod generic(Random r, int i) {
    Map<String, String> labels = Map.of("my-label", value(r));
    return base(r, i, labels).build();
  }

  private static Pod spread(Random r, int i, String key) {
    Map<String, String> labels = Map.of("my-label", value(r));
    Map<String, String> selector = Map.of("my-label", value(r));
    return base(r, i, labels).editSpec()
        .withTopologySpreadConstraints(new TopologySpreadConstraintBuilder().withMaxSkew(1).withTopologyKey(key)
            .withWhenUnsatisfiable("DoNotSchedule")
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(selector).build()).build())
        .endSpec().build();
  }

  private static Pod selfAffinity(Random r, int i, String key) {
    Map<String, String> labels = Map.of("my-affinity", value(r));
    return base(r, i, labels).editSpec().withNewAffinity().withNewPodAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey(key)
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(labels).build()).build())
        .endPodAffinity().endAffinity().endSpec().build();
  }

  private static Pod antiAffinity(Random r, int i, String key) {
    Map<String, String> labels = Map.of("app", "nginx");
    return base(r, i, labels).editSpec().withNewAffinity().withNewPodAntiAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey(key)
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(labels).build()).build())
        .endPodAntiAffinity().endAffinity().endSpec().build();
  }
}
