package dev.headroom.sim.cluster;

import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.resources.Quantities;
import dev.headroom.sim.engine.EventQueue.Phase;
import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.engine.VirtualClock;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The simulator's node provider (autoscaler spec §6.2 step 8): the KWOK-style state machine in memory. A
 * requested node exists at once, not Ready, and becomes Ready after the group's provisioning delay (± jitter);
 * it costs its group's price from request to deletion. A group may have a warm pool of stopped instances
 * that resume faster and cost a fraction of the price while stopped.
 */
public final class SimProvider implements NodeGroupProvider {

  /** A warm pool attached to a group. */
  public record WarmPoolSpec(int size, double stoppedPriceFraction, Duration resumeDelay) {}

  private static final class Group {
    final NodeGroup spec;
    final Map<String, Long> allocatable = new TreeMap<>();
    int target;
    WarmPoolSpec pool;
    final Deque<Long> stopped = new ArrayDeque<>();
    /** Nodes named so far: names carry a zero-padded serial, so they sort in the order nodes were created. */
    int named;
    /** Nodes of the group in the cluster now. */
    int live;

    Group(NodeGroup spec) {
      this.spec = spec;
      this.target = spec.targetSize();
      for (Map.Entry<String, Quantity> e : spec.template().getStatus().getAllocatable().entrySet()) {
        allocatable.put(e.getKey(), Quantities.milli(e.getValue()));
      }
    }
  }

  private final SimCluster cluster;
  private final SimRandom random;
  private final long jitterMillis;
  private final CostLedger ledger;
  private final Map<String, Group> groups = new LinkedHashMap<>();
  /** The group of each node object this provider made and has not deleted (the autoscaler asks every loop). */
  private final Map<Node, String> groupOfNode = new java.util.IdentityHashMap<>();
  private int liveNodes;
  private int peakNodes;
  private final Map<String, Integer> peakPerGroup = new TreeMap<>();

  /** A provider for the scenario's groups; {@code targetSize} nodes of each are Ready at time zero. */
  public SimProvider(SimCluster cluster, List<NodeGroup> specs, SimRandom random, Duration jitter, CostLedger ledger) {
    this.cluster = cluster;
    this.random = random;
    this.jitterMillis = jitter.toMillis();
    this.ledger = ledger;
    for (NodeGroup g : specs) {
      groups.put(g.id(), new Group(g));
    }
  }

  /** Attaches a warm pool to a group; the pool's instances are stopped and initialised at time zero. */
  public void attachWarmPool(String group, WarmPoolSpec pool) {
    Group g = groups.get(group);
    g.pool = pool;
    for (int i = 0; i < pool.size(); i++) {
      g.stopped.add(cluster.clock().millis());
    }
  }

  /** Creates the initial nodes, Ready at once. */
  public void bootstrap() {
    for (Group g : groups.values()) {
      for (int i = 0; i < g.spec.targetSize(); i++) {
        SimNode n = newNode(g, false);
        cluster.nodeReady(n);
      }
    }
  }

  @Override
  public List<NodeGroup> nodeGroups() {
    List<NodeGroup> out = new ArrayList<>(groups.size());
    for (Group g : groups.values()) {
      out.add(g.spec.withTargetSize(g.target));
    }
    return out;
  }

  @Override
  public Optional<String> nodeGroupOf(Node node) {
    String id = groupOfNode.get(node);
    if (id == null) {
      // not an object this provider made: its group label says
      Map<String, String> labels = node.getMetadata().getLabels();
      id = labels == null ? null : labels.get(NodeGroupLabels.NODE_GROUP);
    }
    return id != null && groups.containsKey(id) ? Optional.of(id) : Optional.empty();
  }

  @Override
  public void increaseSize(String groupId, int delta) {
    Group g = group(groupId);
    if (delta <= 0) {
      throw new ProviderException("size increase must be positive, not " + delta);
    }
    if (g.target + delta > g.spec.maxSize()) {
      throw new ProviderException("size increase too large: desired " + (g.target + delta) + " max " + g.spec.maxSize());
    }
    for (int i = 0; i < delta; i++) {
      boolean warm = false;
      if (g.pool != null && !g.stopped.isEmpty() && g.stopped.peekFirst() <= cluster.clock().millis()) {
        long since = g.stopped.pollFirst();
        ledger.stopped(since, cluster.clock().millis(), g.spec.pricePerHour(), g.pool.stoppedPriceFraction());
        warm = true;
      }
      SimNode n = newNode(g, warm);
      g.target++;
      long delay = warm ? g.pool.resumeDelay().toMillis()
          : Math.max(0, g.spec.provisioningDelay().toMillis() + random.jitter(jitterMillis));
      cluster.events().after(delay, Phase.LIFECYCLE, () -> {
        if (n.state() == SimNode.State.PROVISIONING) {
          cluster.nodeReady(n);
        }
      });
      if (warm) {
        refill(g);
      }
    }
  }

  private void refill(Group g) {
    // the pool launches a replacement instance, which is usable once it has initialised and stopped
    long delay = Math.max(0, g.spec.provisioningDelay().toMillis() + random.jitter(jitterMillis));
    long launched = cluster.clock().millis();
    long usableAt = launched + delay;
    g.stopped.addLast(usableAt);
    ledger.stopped(launched, usableAt, g.spec.pricePerHour(), g.pool.stoppedPriceFraction());
  }

  @Override
  public void deleteNodes(String groupId, List<Node> toDelete) {
    Group g = group(groupId);
    if (g.target <= g.spec.minSize()) {
      throw new ProviderException("min size reached, nodes will not be deleted");
    }
    if (g.target - toDelete.size() < g.spec.minSize()) {
      throw new ProviderException("deleting " + toDelete.size() + " nodes would go below min size " + g.spec.minSize());
    }
    List<SimNode> resolved = new ArrayList<>();
    for (Node n : toDelete) {
      SimNode sn = cluster.node(n.getMetadata().getName());
      if (sn == null || !sn.group().equals(groupId)) {
        throw new ProviderException("node " + n.getMetadata().getName() + " does not belong to group " + groupId);
      }
      resolved.add(sn);
    }
    for (SimNode sn : resolved) {
      remove(g, sn);
    }
  }

  @Override
  public void decreaseTargetSize(String groupId, int delta) {
    Group g = group(groupId);
    if (delta >= 0) {
      throw new ProviderException("size decrease must be negative, not " + delta);
    }
    List<SimNode> provisioning = new ArrayList<>();
    for (SimNode n : cluster.nodes()) {
      if (n.group().equals(groupId) && n.state() == SimNode.State.PROVISIONING) {
        provisioning.add(n);
      }
    }
    if (provisioning.size() < -delta) {
      throw new ProviderException("attempt to delete existing nodes: target " + g.target + " delta " + delta
          + " unregistered " + provisioning.size());
    }
    provisioning.sort(Comparator.comparingLong(SimNode::requestedAt).reversed().thenComparing(SimNode::name));
    for (int i = 0; i < -delta; i++) {
      remove(g, provisioning.get(i));
    }
  }

  private void remove(Group g, SimNode n) {
    cluster.deleteNode(n);
    groupOfNode.remove(n.node());
    g.live--;
    ledger.running(n.requestedAt(), n.deletedAt(), g.spec.pricePerHour());
    g.target--;
    liveNodes--;
  }

  private SimNode newNode(Group g, boolean warm) {
    String name;
    do {
      name = g.spec.id() + "-" + String.format("%05d", ++g.named);
    } while (cluster.node(name) != null);
    Node node = NodeObjects.create(g.spec.template(), g.spec.id(), name, VirtualClock.at(cluster.clock().millis()), false);
    SimNode n = cluster.addNode(node, g.spec.id(), warm, g.allocatable);
    groupOfNode.put(node, g.spec.id());
    g.live++;
    liveNodes++;
    peakNodes = Math.max(peakNodes, liveNodes);
    peakPerGroup.merge(g.spec.id(), g.live, Math::max);
    return n;
  }

  /** Closes the cost of every node and pool instance still alive at {@code endMillis}. */
  public void closeLedger(long endMillis) {
    for (SimNode n : cluster.nodes()) {
      ledger.running(n.requestedAt(), endMillis, groups.get(n.group()).spec.pricePerHour());
    }
    for (Group g : groups.values()) {
      if (g.pool != null) {
        for (long since : g.stopped) {
          ledger.stopped(Math.min(since, endMillis), endMillis, g.spec.pricePerHour(), g.pool.stoppedPriceFraction());
        }
      }
    }
  }

  /** The largest number of nodes alive at once (provisioning included). */
  public int peakNodes() {
    return peakNodes;
  }

  /** Per group, the largest number of nodes alive at once. */
  public Map<String, Integer> peakPerGroup() {
    return peakPerGroup;
  }

  /** Current target size of a group. */
  public int targetSize(String group) {
    return group(group).target;
  }

  /** Stopped instances currently in a group's warm pool. */
  public int stoppedInstances(String group) {
    Group g = group(group);
    return g.stopped.size();
  }

  private Group group(String id) {
    Group g = groups.get(id);
    if (g == null) {
      throw new ProviderException("no node group " + id);
    }
    return g;
  }
}
