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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The simulator's node provider (autoscaler spec §6.2 step 8): the KWOK-style state machine in memory. A
 * requested node exists at once, not Ready, and becomes Ready after the group's provisioning delay (± jitter);
 * it costs its group's price from request to deletion.
 *
 * <p><b>Standby capacity</b> (the port's standby methods, {@link NodeGroupProvider}'s contract): a group with
 * {@code spec.standby} keeps the number of standby instances the autoscaler sets ({@link #setStandbyTarget}). A
 * standby instance is launched, initialises for the group's provisioning delay (± the same jitter, drawn from a stream
 * of its own so that standby launches never shift the jitter of running nodes) and is then suspended; an instance
 * launched while the clock is at zero (the run's setup, when the bootstrap nodes are Ready at once) is suspended at
 * once; in a simulation the autoscaler's first loop runs one scan interval in, so its pool initialises as any other.
 * Standby instances are not Node objects of the simulated cluster (the scheduler, the autoscaler's loop and the node
 * counts never see them) and cost the group's standby price from launch until they are resumed or dropped.
 * {@link #increaseSize} resumes suspended instances first, oldest-suspended first: each becomes a node at once
 * (counted in the target size) that turns Ready after {@code standby.resumeDelay}, and the pool launches a
 * replacement; only the rest of the delta are new nodes. A lower target drops instances still initialising first,
 * newest first, then suspended ones, newest first.
 */
public final class SimProvider implements NodeGroupProvider {

  /** A standby instance: launched at {@code launchedAt}, suspended (resumable) from {@code usableAt}. */
  private record Instance(long launchedAt, long usableAt) {}

  private static final class Group {
    final NodeGroup spec;
    final Map<String, Long> allocatable = new TreeMap<>();
    int target;
    /** Standby instances the autoscaler asked for. */
    int standbyTarget;
    /** The standby instances, in launch order. */
    final List<Instance> standby = new ArrayList<>();
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
  private final SimRandom standbyRandom;
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
    this.standbyRandom = random.stream("standby");
    this.jitterMillis = jitter.toMillis();
    this.ledger = ledger;
    for (NodeGroup g : specs) {
      groups.put(g.id(), new Group(g));
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
    long now = cluster.clock().millis();
    for (int i = 0; i < delta; i++) {
      Instance resumed = takeSuspended(g, now);
      if (resumed != null) {
        ledger.standby(resumed.launchedAt(), now, g.spec.standby().pricePerHour());
      }
      SimNode n = newNode(g, resumed != null);
      g.target++;
      long delay = resumed != null ? g.spec.standby().resumeDelay().toMillis()
          : Math.max(0, g.spec.provisioningDelay().toMillis() + random.jitter(jitterMillis));
      cluster.events().after(delay, Phase.LIFECYCLE, () -> {
        if (n.state() == SimNode.State.PROVISIONING) {
          cluster.nodeReady(n);
        }
      });
      if (resumed != null) {
        // the pool launches a replacement
        fillStandby(g, now);
      }
    }
  }

  /** The suspended instance that was suspended first (launch order among equals), removed from the pool; or null. */
  private static Instance takeSuspended(Group g, long now) {
    int best = -1;
    for (int i = 0; i < g.standby.size(); i++) {
      Instance x = g.standby.get(i);
      if (x.usableAt() <= now && (best < 0 || x.usableAt() < g.standby.get(best).usableAt())) {
        best = i;
      }
    }
    return best < 0 ? null : g.standby.remove(best);
  }

  @Override
  public Optional<String> standbyUnsupported() {
    return Optional.empty();
  }

  /** False: standby instances are not Node objects of the simulated cluster (a resumed one is an ordinary node). */
  @Override
  public boolean isStandby(Node node) {
    return false;
  }

  @Override
  public StandbyPool standbyPool(String groupId) {
    Group g = group(groupId);
    long now = cluster.clock().millis();
    int suspended = 0;
    for (Instance x : g.standby) {
      if (x.usableAt() <= now) {
        suspended++;
      }
    }
    return new StandbyPool(g.standbyTarget, suspended, g.standby.size() - suspended);
  }

  @Override
  public void setStandbyTarget(String groupId, int target) {
    Group g = group(groupId);
    if (g.spec.standby() == null) {
      throw new ProviderException("node group " + groupId + " has no spec.standby: it keeps no standby nodes");
    }
    if (target < 0) {
      throw new ProviderException("standby target must not be negative, not " + target);
    }
    long now = cluster.clock().millis();
    g.standbyTarget = target;
    fillStandby(g, now);
    while (g.standby.size() > target) {
      // initialising instances first, then suspended ones; newest first within each
      int victim = g.standby.size() - 1;
      for (int i = g.standby.size() - 1; i >= 0; i--) {
        if (g.standby.get(i).usableAt() > now) {
          victim = i;
          break;
        }
      }
      Instance x = g.standby.remove(victim);
      ledger.standby(x.launchedAt(), now, g.spec.standby().pricePerHour());
    }
  }

  /** Launches standby instances up to the group's standby target. */
  private void fillStandby(Group g, long now) {
    while (g.standby.size() < g.standbyTarget) {
      // initialised once the group's provisioning delay has passed; at time zero at once, as the bootstrap nodes
      long usableAt = now == 0 ? 0 : now + Math.max(0, g.spec.provisioningDelay().toMillis() + standbyRandom.jitter(jitterMillis));
      g.standby.add(new Instance(now, usableAt));
    }
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

  private SimNode newNode(Group g, boolean resumed) {
    String name;
    do {
      name = g.spec.id() + "-" + String.format("%05d", ++g.named);
    } while (cluster.node(name) != null);
    Node node = NodeObjects.create(g.spec.template(), g.spec.id(), name, VirtualClock.at(cluster.clock().millis()), false);
    SimNode n = cluster.addNode(node, g.spec.id(), resumed, g.allocatable);
    groupOfNode.put(node, g.spec.id());
    g.live++;
    liveNodes++;
    peakNodes = Math.max(peakNodes, liveNodes);
    peakPerGroup.merge(g.spec.id(), g.live, Math::max);
    return n;
  }

  /** Closes the cost of every node and standby instance still alive at {@code endMillis}. */
  public void closeLedger(long endMillis) {
    for (SimNode n : cluster.nodes()) {
      ledger.running(n.requestedAt(), endMillis, groups.get(n.group()).spec.pricePerHour());
    }
    for (Group g : groups.values()) {
      for (Instance x : g.standby) {
        ledger.standby(x.launchedAt(), endMillis, g.spec.standby().pricePerHour());
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

  /** Standby instances of every group now (initialising and suspended). */
  public int standbyInstances() {
    int n = 0;
    for (Group g : groups.values()) {
      n += g.standby.size();
    }
    return n;
  }

  private Group group(String id) {
    Group g = groups.get(id);
    if (g == null) {
      throw new ProviderException("no node group " + id);
    }
    return g;
  }
}
