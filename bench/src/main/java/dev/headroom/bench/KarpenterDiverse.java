package dev.headroom.bench;

import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.CompiledNode;
import dev.headroom.core.scheduling.CompiledPod;
import dev.headroom.core.scheduling.FitResult;
import dev.headroom.core.scheduling.ResourceIds;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code karpenter-diverse}: Karpenter's scheduling-benchmark workload ({@link DiverseWorkload}) solved
 * with Headroom's scheduling core, Karpenter style (spec §2.5 item 7).
 *
 * <p>Measured work: compile the 2,000 templates and the pods, sort pods by CPU then memory descending, and
 * for each pod try the nodes opened so far ({@link ClusterSnapshot#schedulePodOnAnyNode}, with the
 * equivalence-class memo); otherwise open a node of the largest instance type in the offering whose zone has
 * the fewest nodes (spot first, lowest index on ties) among those the pod passes on
 * ({@link ClusterSnapshot#checkOnTemplate}). Like Karpenter, which keeps a node claim open to every
 * compatible instance type and picks the cheapest one that holds its pods at the end, each node is then
 * right-sized to the cheapest type of its offering whose allocatable holds its pods. In this catalogue
 * larger types dominate smaller ones and pods only constrain zone and hostname, which right-sizing keeps.
 */
public final class KarpenterDiverse implements Scenario {

  /** Seed of the pod generator (Karpenter's). */
  public static final long SEED = 42;

  @Override
  public String name() {
    return "karpenter-diverse";
  }

  @Override
  public int defaultPods() {
    return 20_000;
  }

  @Override
  public String description() {
    return "Karpenter's diverse-pods scheduling benchmark: 400 instance types x 5 offerings, no existing nodes";
  }

  @Override
  public Prepared prepare(int pods) {
    List<Node> templates = DiverseWorkload.templates(DiverseWorkload.INSTANCE_TYPES);
    List<Pod> podList = DiverseWorkload.pods(pods, SEED);
    return () -> solve(templates, podList).outcome();
  }

  /** The result of one solve, with the right-sized instance type of every node. */
  public record Solution(int pods, int placed, List<String> nodeTypes) {
    /** As a bench outcome. */
    public Outcome outcome() {
      return new Outcome(pods, placed, nodeTypes.size());
    }
  }

  /** Solves the workload; see the type comment. */
  public static Solution solve(List<Node> templateNodes, List<Pod> pods) {
    SchedulingCompiler compiler = new SchedulingCompiler();
    ClusterSnapshot snapshot = new ClusterSnapshot(compiler);
    int offerings = 5;
    List<CompiledNode> templates = new ArrayList<>(templateNodes.size());
    for (Node n : templateNodes) {
      templates.add(compiler.compile(n));
    }
    int types = templates.size() / offerings;
    List<CompiledPod> queue = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      queue.add(compiler.compile(p));
    }
    queue.sort(
        Comparator.comparingLong((CompiledPod p) -> p.request(ResourceIds.CPU)).reversed()
            .thenComparing(Comparator.comparingLong((CompiledPod p) -> p.request(ResourceIds.MEMORY)).reversed()));

    Map<String, Integer> nodesPerZone = new HashMap<>();
    List<Integer> offeringOfNode = new ArrayList<>();
    int placed = 0;
    for (CompiledPod pod : queue) {
      if (snapshot.schedulePodOnAnyNode(pod).placed()) {
        placed++;
        continue;
      }
      int best = -1;
      int bestZoneCount = Integer.MAX_VALUE;
      int largest = (types - 1) * offerings;
      for (int o = 0; o < offerings; o++) {
        CompiledNode t = templates.get(largest + o);
        int zoneCount = nodesPerZone.getOrDefault(t.labels().get(DiverseWorkload.ZONE), 0);
        if (zoneCount < bestZoneCount && snapshot.checkOnTemplate(pod, t) instanceof FitResult.Fits) {
          best = o;
          bestZoneCount = zoneCount;
        }
      }
      if (best < 0) {
        continue;
      }
      CompiledNode t = templates.get(largest + best);
      int node = snapshot.addNodeCopy(t, "node-" + offeringOfNode.size());
      offeringOfNode.add(best);
      nodesPerZone.merge(t.labels().get(DiverseWorkload.ZONE), 1, Integer::sum);
      snapshot.addPod(pod, node);
      placed++;
    }

    List<String> nodeTypes = new ArrayList<>(snapshot.nodeCount());
    for (int n = 0; n < snapshot.nodeCount(); n++) {
      nodeTypes.add(rightSize(snapshot, n, templates, offeringOfNode.get(n), offerings));
    }
    return new Solution(pods.size(), placed, nodeTypes);
  }

  private static String rightSize(
      ClusterSnapshot snapshot, int node, List<CompiledNode> templates, int offering, int offerings) {
    long cpu = snapshot.requested(node, ResourceIds.CPU);
    long mem = snapshot.requested(node, ResourceIds.MEMORY);
    int pods = snapshot.podCountOn(node);
    int lo = 0;
    int hi = templates.size() / offerings - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      CompiledNode t = templates.get(mid * offerings + offering);
      if (t.allocatable(ResourceIds.CPU) >= cpu && t.allocatable(ResourceIds.MEMORY) >= mem && t.maxPods() >= pods) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return templates.get(lo * offerings + offering).name();
  }
}
