package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.IterationResult.BufferOutcome;
import dev.headroom.core.autoscaler.IterationResult.PendingPods;
import dev.headroom.core.autoscaler.IterationResult.ScaleUpDecision;
import dev.headroom.core.autoscaler.IterationResult.UnschedulablePod;
import dev.headroom.core.autoscaler.PodListProcessor.PodList;
import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.autoscaler.scaledown.DrainRules;
import dev.headroom.core.autoscaler.scaledown.ScaleDownPlanner;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import dev.headroom.core.nodegroup.GoDuration;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One autoscaler iteration, {@link #runOnce(Instant)}, as pure core code over ports (autoscaler spec §1.1), in the
 * Cluster Autoscaler's order: observe the world (one {@link Observation}), filter out the pending pods that existing
 * and upcoming capacity takes, run the {@link PodListProcessor}s (the buffers' virtual pods), scale up for what is
 * left, scale down, and report (events, buffer conditions). What the loop produces accumulates in an
 * {@link IterationBuilder}; what it keeps for the next loop is in {@link AutoscalerState}. The same code runs in the
 * cluster runtime, in the simulator and in {@code plan}.
 */
public final class Autoscaler {

  private final AutoscalerOptions options;
  private final ClusterView cluster;
  private final NodeGroupProvider provider;
  private final EventSink events;
  private final BufferStatusWriter statusWriter;
  /** The provider and event sink, held back while an all-or-nothing trial runs ({@link GangScaleUp}). */
  private final StagedActuation staged;
  private final AutoscalerState state;
  private final Supplier<SchedulingSimulation> simulations;
  /** {@code --bypassed-scheduler-names}. */
  private final Set<String> bypassedSchedulers;
  private final ScaleUpPlanner planner;

  public Autoscaler(AutoscalerOptions options, ClusterView cluster, NodeGroupProvider provider, EventSink events,
      BufferStatusWriter statusWriter, AutoscalerState state, Supplier<SchedulingSimulation> simulations) {
    this(options, cluster, provider, events, statusWriter, state, simulations, ScaleUpPlanner.of(options));
  }

  /** As the public constructor, with the scale-up decision made by {@code planner} (tests compare planners). */
  Autoscaler(AutoscalerOptions options, ClusterView cluster, NodeGroupProvider provider, EventSink events,
      BufferStatusWriter statusWriter, AutoscalerState state, Supplier<SchedulingSimulation> simulations, ScaleUpPlanner planner) {
    Expanders.parse(options.expander());
    this.planner = planner;
    this.options = options;
    this.cluster = cluster;
    this.staged = new StagedActuation(provider, events);
    this.provider = staged;
    this.events = staged;
    this.statusWriter = statusWriter;
    this.state = state;
    this.simulations = simulations;
    this.bypassedSchedulers = options.bypassedSchedulers();
  }

  public AutoscalerState state() {
    return state;
  }

  /** Where a pending pod ended in this loop. */
  enum Placement { EXISTING, UPCOMING, NEW, NONE }

  /** Runs one iteration at {@code now}. */
  public IterationResult runOnce(Instant now) {
    AutoscalerState.Caches caches = state.caches(this);
    IterationBuilder result = new IterationBuilder(now, options.expander(), events);

    // 1. Observe: nodes, pods, groups, the cluster-state registry, the snapshot with upcoming placeholders.
    Observation world = observe(now, caches, result);
    if (world == null) {
      return result.build(); // not actionable, or the cluster is unhealthy
    }
    // 2. Filter out schedulable: the real pending pods onto existing and upcoming capacity.
    PodList pods = filterOutSchedulable(world, result);
    // 3. Pod-list processors: the buffers' virtual pods after the real ones.
    for (PodListProcessor processor : podListProcessors(caches)) {
      pods = processor.process(world, pods, result);
    }
    // 4. Scale up for what is left, all-or-nothing for pod groups.
    ScaleUp up = scaleUp(world, pods, caches, result);
    // 5. Scale down, unless this loop scaled up or is in scale-up cooldown.
    scaleDown(world, up.outcome(), result);
    // 6. Minimum sizes.
    if (options.enforceNodeGroupMinSize()) {
      enforceMinSize(result);
    }
    // 6b. Standby capacity: the standby buffers' chunks as each group's standby target.
    result.standby(StandbyCapacity.run(options, options.standbyCapacity() ? cluster.buffers() : List.of(), cluster, result.groups(),
        world.templateNodes(), world.sim(), provider, statusWriter, result));
    // 7. Report: pending-pod accounting, scale-up status events, buffer conditions.
    report(world, pods, up, result);
    return result.build();
  }

  /** The pod-list processors of a loop, in the order they run. */
  private List<PodListProcessor> podListProcessors(AutoscalerState.Caches caches) {
    return List.of(new BufferPodInjection(options, cluster, caches));
  }

  // 1. Observe

  /**
   * Reads the world and builds the loop's snapshot (spec §1.1 steps 2-10). Null when the loop stops here: no Ready
   * node and no scale-up from zero, or too many unready nodes (the health gate). Timed-out scale-up requests are
   * taken back on the way (backoff, event, target size).
   */
  private Observation observe(Instant now, AutoscalerState.Caches caches, IterationBuilder result) {
    List<Node> nodes = new ArrayList<>(cluster.nodes());
    // standby nodes (preparing or suspended) are not running capacity: the loop does not see them
    nodes.removeIf(provider::isStandby);
    nodes.sort(Comparator.comparing(n -> n.getMetadata().getName()));
    caches.refreshPods(cluster);
    PendingDemand.Split demand = PendingDemand.split(caches.pods.pending(), bypassedSchedulers);
    result.notDemand(demand.notDemand());
    // pending pods and (about as many as last loop) virtual pods get a placement
    result.expectPlacements(demand.demand().size() + caches.lastVirtualPods() + 64);
    Map<Node, NodeFacts> facts = caches.nodeFacts.of(nodes);
    Set<String> readyNodes = caches.nodeFacts.readyNames();
    if (readyNodes.isEmpty() && !options.scaleUpFromZero()) {
      return null;
    }
    provider.refresh();
    Map<String, NodeGroup> groups = new LinkedHashMap<>();
    for (NodeGroup g : provider.nodeGroups()) {
      groups.put(g.id(), g);
    }
    Map<String, GroupOptions> groupOptions = Collections.unmodifiableMap(GroupOptions.of(options, groups.values()));
    Map<String, String> groupOfNode = groupsOfNodes(nodes, facts, groups, caches);
    ClusterStateRegistry registry = new ClusterStateRegistry(options, state, groups, groupOptions, nodes, groupOfNode,
        readyNodes, now);
    result.nodeStatuses(registry.statuses());
    expireTimedOutScaleUps(groups, groupOptions, registry, now, result);
    fixNodeGroupSizes(groups, registry, result);
    state.backoff().removeStale(now);
    int unready = registry.unreadyCount();
    if (unready > options.okTotalUnreadyCount() && unready > options.maxTotalUnreadyPercentage() / 100.0 * nodes.size()) {
      result.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.CLUSTER_UNHEALTHY, Events.CLUSTER_UNHEALTHY_MSG));
      state.unneededSince().clear();
      return null;
    }
    result.groups().putAll(groups);

    // the snapshot: nodes not started in a group whose upcoming nodes are counted are left out (placeholders
    // stand for them), and so are the bound pods of left-out nodes and expendable pods
    SchedulingSimulation sim = simulations.get();
    Set<String> notStarted = registry.notStartedNodes();
    Map<String, Node> nodeByName = caches.nodeFacts.byName();
    Set<String> leftOut = new HashSet<>();
    for (String name : notStarted) {
      if (nodeByName.containsKey(name) && registry.upcomingCounted(groupOfNode.get(name))) {
        leftOut.add(name);
      }
    }
    List<Node> loaded = leftOut.isEmpty() ? nodes : without(nodes, leftOut, facts);
    sim.load(loaded, caches.pods, b -> loadable(b, nodeByName, leftOut), caches.takeUnloaded());
    Map<String, Node> templates = new HashMap<>();
    Map<String, Node> templateNodes = new HashMap<>();
    for (NodeGroup g : groups.values()) {
      Node source = templateSource(g, nodes, facts, groupOfNode);
      templates.put(g.id(), source);
      templateNodes.put(g.id(), caches.templateNode(g.id(), source));
    }
    Set<String> placeholders = new HashSet<>();
    for (NodeGroup g : groups.values()) {
      int upcoming = registry.upcoming(g.id());
      for (int i = 1; i <= upcoming; i++) {
        String name = "upcoming-" + g.id() + "-" + i;
        sim.addNode(caches.placeholder(templates.get(g.id()), name));
        placeholders.add(name);
      }
    }
    return new Observation(now, Collections.unmodifiableList(nodes), facts, nodeByName, readyNodes,
        Collections.unmodifiableMap(groups), groupOptions, groupOfNode, notStarted, Collections.unmodifiableSet(leftOut),
        caches.nodeFacts.destinationNames(), Collections.unmodifiableMap(templates), Collections.unmodifiableMap(templateNodes),
        Collections.unmodifiableSet(placeholders), notExpendable(demand.demand()), sim);
  }

  /**
   * Scale-up requests past their group's max provision time: backoff and event. The nodes they promised that have
   * not come up have been missing since the request, so they are recorded as the group's incorrect size
   * from that time, for {@link #fixNodeGroupSizes} to take back in this loop.
   */
  private void expireTimedOutScaleUps(Map<String, NodeGroup> groups, Map<String, GroupOptions> groupOptions,
      ClusterStateRegistry registry, Instant now, IterationBuilder result) {
    for (ScaleUpRequest timedOut : registry.expireRequests()) {
      NodeGroup g = groups.get(timedOut.group());
      result.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.SCALE_UP_TIMED_OUT,
          String.format(Events.SCALE_UP_TIMED_OUT_MSG, timedOut.group(), GoDuration.format(groupOptions.get(g.id()).maxNodeProvisionTime()))));
      state.backoff().fail(timedOut.group(), "timeout", now);
      int missing = registry.upcomingRaw(g.id());
      if (missing > 0) {
        state.incorrectSizes().put(g.id(), new AutoscalerState.IncorrectSize(g.targetSize(), missing, timedOut.time()));
      }
    }
  }

  /**
   * The upstream Cluster Autoscaler's {@code fixNodeGroupSize}: a group whose target size has stood above its Ready
   * and unready nodes for longer than its max provision time, with no active scale-up request, gets its target
   * lowered by the nodes that did not come up, so a later request does not count them as upcoming. When the provider
   * refuses, a warning event says so and the next loop tries again.
   */
  private void fixNodeGroupSizes(Map<String, NodeGroup> groups, ClusterStateRegistry registry, IterationBuilder result) {
    for (String id : registry.updateIncorrectSizes()) {
      NodeGroup g = groups.get(id);
      int missing = registry.upcomingRaw(id);
      try {
        provider.decreaseTargetSize(id, -missing);
        groups.put(id, g.withTargetSize(g.targetSize() - missing));
        state.incorrectSizes().remove(id);
      } catch (NodeGroupProvider.ProviderException e) {
        result.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.FIX_NODE_GROUP_SIZE_FAILED,
            String.format(Events.FIX_NODE_GROUP_SIZE_FAILED_MSG, id, g.targetSize(), g.targetSize() - missing, missing, e.getMessage())));
      }
    }
  }

  /** The node group of each node, as the provider says now. */
  private Map<String, String> groupsOfNodes(List<Node> nodes, Map<Node, NodeFacts> facts, Map<String, NodeGroup> groups,
      AutoscalerState.Caches caches) {
    String[] names = new String[nodes.size()];
    String[] owners = new String[nodes.size()];
    for (int i = 0; i < names.length; i++) {
      Node n = nodes.get(i);
      names[i] = facts.get(n).name();
      owners[i] = provider.nodeGroupOf(n).filter(groups::containsKey).orElse(null);
    }
    return caches.groupOfNode(names, owners);
  }

  private static List<Node> without(List<Node> nodes, Set<String> leftOut, Map<Node, NodeFacts> facts) {
    List<Node> loaded = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      if (!leftOut.contains(facts.get(n).name())) {
        loaded.add(n);
      }
    }
    return loaded;
  }

  /** A bound pod goes into the loop's snapshot unless it is expendable or its node is missing or left out. */
  private boolean loadable(SchedulingSimulation.BoundPod b, Map<String, Node> nodes, Set<String> leftOut) {
    return nodes.containsKey(b.nodeName()) && !leftOut.contains(b.nodeName())
        && Nodes.priority(b.pod()) >= options.expendablePodsPriorityCutoff();
  }

  /**
   * A group's template source: its first Ready node, else the group's own template. The loop tests pods against its
   * sanitised copy {@code template-<group>} with a {@code kubernetes.io/hostname} of its own, as upstream gives every
   * template node (so hostname spread constraints and hostname affinity see an empty domain of their own).
   */
  private static Node templateSource(NodeGroup g, List<Node> nodes, Map<Node, NodeFacts> facts, Map<String, String> groupOfNode) {
    for (Node n : nodes) {
      NodeFacts f = facts.get(n);
      if (f.ready() && g.id().equals(groupOfNode.get(f.name()))) {
        return n;
      }
    }
    return g.template();
  }

  /** The pending pods that are not expendable, priority descending (stable). */
  private List<Pod> notExpendable(List<Pod> pending) {
    List<Pod> real = new ArrayList<>();
    for (Pod p : pending) {
      if (Nodes.priority(p) >= options.expendablePodsPriorityCutoff()) {
        real.add(p);
      }
    }
    real.sort(Comparator.comparingInt((Pod p) -> -Nodes.priority(p)));
    return real;
  }

  // 2. Filter out schedulable

  /**
   * Packs the real pending pods onto existing and upcoming nodes (placed pods stay in the snapshot); of the pods left,
   * DaemonSet pods and pods younger than {@code newPodScaleUpDelay} are not scaled for.
   */
  private PodList filterOutSchedulable(Observation world, IterationBuilder result) {
    List<Pod> left = new ArrayList<>();
    Predicate<String> destination = world::destination;
    for (Pod p : world.pending()) {
      book(world, result, p, world.sim().schedule(p, destination).orElse(null), left);
    }
    left.removeIf(DrainRules::isDaemonSetPod);
    left.removeIf(p -> tooNew(p, world.now()));
    return PodList.real(world.pending(), left);
  }

  /** Records where a pod was placed (an upcoming placeholder or an existing node), or that it was left over. */
  static void book(Observation world, IterationBuilder result, Pod p, String node, List<Pod> left) {
    if (node != null) {
      result.place(p, world.placeholders().contains(node) ? Placement.UPCOMING : Placement.EXISTING);
    } else {
      left.add(p);
    }
  }

  private boolean tooNew(Pod p, Instant now) {
    if (options.newPodScaleUpDelay().isZero()) {
      return false;
    }
    return Nodes.created(p).map(c -> c.plus(options.newPodScaleUpDelay()).isAfter(now)).orElse(false);
  }

  // 4. Scale up

  /** What the scale-up step decided, and the gang buffers it took out (namespace/name: the group's message). */
  private record ScaleUp(ScaleUpOutcome outcome, Map<String, String> blockedGangBuffers) {}

  /**
   * The scale-up for the pods left, with the pods of a group ({@link PodGroups}: a PodGroup or a gang buffer) scaled
   * for as a unit ({@link GangScaleUp}); without groups this is {@link #scaleUp(Observation, IterationBuilder, List,
   * List, int)} alone. Afterwards every pending and virtual pod has a placement.
   */
  private ScaleUp scaleUp(Observation world, PodList pods, AutoscalerState.Caches caches, IterationBuilder result) {
    int nodeCount = world.nodeCount();
    PodGroups declared = cluster.podGroups();
    GangScaleUp.Members members = GangScaleUp.members(declared, world.pending(), pods.injection());
    ScaleUp up;
    if (members.members().isEmpty()) {
      up = new ScaleUp(scaleUp(world, result, pods.unschedulable(), pods.unschedulableVirtual(), nodeCount), Map.of());
      result.scaledUp(up.outcome(), List.of());
    } else {
      GangScaleUp.Result r = GangScaleUp.run(pods.unschedulable(), pods.unschedulableVirtual(), members,
          GangScaleUp.running(declared, caches.pods.all()), (rp, vp) -> scaleUp(world, result, rp, vp, nodeCount),
          gangContext(world, result, nodeCount));
      GangScaleUp.events(r, pods.injection()).forEach(result::emit);
      up = new ScaleUp(r.outcome(), GangScaleUp.blockedBuffers(r));
      result.scaledUp(up.outcome(), r.groups());
    }
    for (Pod p : pods.unschedulableVirtual()) {
      result.placeNowhereUnlessPlaced(p);
    }
    for (Pod p : pods.pending()) {
      result.placeNowhereUnlessPlaced(p);
    }
    return up;
  }

  /** Result of the scale-up phase. */
  record ScaleUpOutcome(
      ScaleUpResult result,
      List<ScaleUpDecision> decisions,
      Map<Pod, ScaleUpDecision> triggeredBy,
      List<Pod> triggeredInOrder,
      Map<Pod, String> reasons,
      String limitReason) {

    String reasonFor(Pod p) {
      if (limitReason != null) {
        return limitReason;
      }
      return reasons.getOrDefault(p, "");
    }

    String infosText() {
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < decisions.size(); i++) {
        ScaleUpDecision d = decisions.get(i);
        if (i > 0) {
          sb.append(' ');
        }
        sb.append('{').append(d.nodeGroup()).append(' ').append(d.currentSize()).append("->").append(d.newTargetSize())
            .append(" (max: ").append(d.maxSize()).append(")}");
      }
      return sb.append(']').toString();
    }
  }

  /** One scale-up step over the real and virtual pods given (the step {@link GangScaleUp} runs as trials too). */
  private ScaleUpOutcome scaleUp(Observation world, IterationBuilder result, List<Pod> real, List<Pod> virtual, int currentNodeCount) {
    Map<Pod, String> reasons = new IdentityHashMap<>();
    if (real.isEmpty() && virtual.isEmpty()) {
      return new ScaleUpOutcome(ScaleUpResult.ScaleUpNotNeeded, List.of(), Map.of(), List.of(), reasons, null);
    }
    if (options.maxNodesTotal() > 0 && world.readyNodes().size() >= options.maxNodesTotal()) {
      result.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.MAX_NODES_TOTAL_REACHED,
          String.format(Events.MAX_NODES_TOTAL_REACHED_MSG, options.maxNodesTotal())));
      return new ScaleUpOutcome(ScaleUpResult.ScaleUpLimitedByMaxNodesTotal, List.of(), Map.of(), List.of(), reasons, Events.MAX_TOTAL_NODES_REASON);
    }
    Instant oldest = null;
    for (Pod p : real) {
      Instant c = Nodes.created(p).orElse(Instant.MIN);
      if (oldest == null || c.isBefore(oldest)) {
        oldest = c;
      }
    }
    if (bypassedSchedulers.isEmpty() && oldest != null && !real.isEmpty() && oldest.plus(options.newPodCooldown()).isAfter(world.now())
        && oldest != Instant.MIN) {
      return new ScaleUpOutcome(ScaleUpResult.ScaleUpInCooldown, List.of(), Map.of(), List.of(), reasons, null);
    }
    ScaleUpRun run = new ScaleUpRun(world, result, real, virtual, currentNodeCount);
    return run.run();
  }

  /**
   * One scale-up phase: the planner's options ({@link PerGroupEstimates} by default, {@link TieredScaleUp} with
   * {@code provisioning-pass}) as the loop executes them ({@link ScaleUpPlanner#executed}), then the provider call for
   * each, capped by {@code maxNodesTotal} and the group's maximum size; the group sizes, placements and events go to
   * the loop's {@link IterationBuilder}.
   */
  private final class ScaleUpRun {
    final Observation world;
    final IterationBuilder iteration;
    // Per-pod reason counters: reason text -> count of groups.
    final Map<Pod, Map<String, Integer>> perPod = new IdentityHashMap<>();
    final List<Pod> all;
    final List<ScaleUpDecision> decisions = new ArrayList<>();
    final Map<Pod, ScaleUpDecision> triggered;
    final List<Pod> triggeredInOrder = new ArrayList<>();
    boolean anyError;
    int nodeCount;

    ScaleUpRun(Observation world, IterationBuilder iteration, List<Pod> real, List<Pod> virtual, int currentNodeCount) {
      this.world = world;
      this.iteration = iteration;
      this.all = new ArrayList<>(real);
      all.addAll(virtual);
      this.triggered = new IdentityHashMap<>(all.size());
      this.nodeCount = currentNodeCount;
    }

    ScaleUpOutcome run() {
      Expanders expanders = Expanders.create(options.expander(), List.copyOf(iteration.groups().values()), options.expanderPriorities(),
          new Random(options.randomSeed() ^ world.now().getEpochSecond()));
      Instant now = world.now();
      ScaleUpPlanner.Input input = new ScaleUpPlanner.Input(world.sim(), List.copyOf(iteration.groups().values()),
          world.templateNodes(), g -> skipReason(g, now), List.copyOf(all), nodeCount, options, expanders, perPod);
      List<ExpansionOption> plan = ScaleUpPlanner.executed(input, planner.plan(input));
      for (ExpansionOption o : plan) {
        if (!execute(o)) {
          break;
        }
      }
      Map<Pod, String> reasons = new IdentityHashMap<>();
      for (Map.Entry<Pod, Map<String, Integer>> e : perPod.entrySet()) {
        reasons.put(e.getKey(), formatReasons(e.getValue()));
      }
      ScaleUpResult result;
      if (!decisions.isEmpty()) {
        result = ScaleUpResult.ScaleUpSuccessful;
      } else if (anyError) {
        result = ScaleUpResult.ScaleUpError;
      } else {
        result = ScaleUpResult.ScaleUpNoOptionsAvailable;
      }
      // No group to consider leaves no per-group reason to count: say why instead of an empty text.
      String noGroups = iteration.groups().isEmpty() ? Events.NO_NODE_GROUPS_REASON : null;
      return new ScaleUpOutcome(result, List.copyOf(decisions), triggered, triggeredInOrder, reasons, noGroups);
    }

    /** Scales the option's group up; false when no further option may be executed (node total reached). */
    private boolean execute(ExpansionOption o) {
      NodeGroup g = iteration.groups().get(o.group().id());
      int delta = o.nodeCount();
      if (options.maxNodesTotal() > 0 && delta > options.maxNodesTotal() - nodeCount) {
        delta = options.maxNodesTotal() - nodeCount;
        iteration.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.MAX_NODES_TOTAL_REACHED,
            String.format(Events.MAX_NODES_TOTAL_REACHED_MSG, options.maxNodesTotal())));
        if (delta < 1) {
          return false;
        }
      }
      delta = Math.min(delta, g.maxSize() - g.targetSize());
      if (delta < 1) {
        return true;
      }
      int newSize = g.targetSize() + delta;
      iteration.emit(new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, Events.SCALED_UP_GROUP,
          String.format(Events.SCALED_UP_GROUP_BEFORE, g.id(), newSize, g.targetSize(), g.maxSize())));
      try {
        provider.increaseSize(g.id(), delta);
      } catch (NodeGroupProvider.ProviderException e) {
        anyError = true;
        iteration.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.FAILED_TO_SCALE_UP_GROUP,
            String.format(Events.FAILED_TO_SCALE_UP_GROUP_MSG, g.id(), e.getMessage())));
        state.backoff().fail(g.id(), "cloudProviderError", world.now());
        for (Pod p : o.pods()) {
          perPod.computeIfAbsent(p, x -> new TreeMap<>()).merge("scale-up execution failed", 1, Integer::sum);
        }
        return true;
      }
      state.registerScaleUp(g.id(), delta, world.now(), world.groupOptions().get(g.id()).maxNodeProvisionTime());
      state.scaledUp(world.now());
      iteration.emit(new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, Events.SCALED_UP_GROUP,
          String.format(Events.SCALED_UP_GROUP_AFTER, g.id(), newSize, g.targetSize(), g.maxSize())));
      record(o, g, delta, newSize);
      return true;
    }

    /** Books a successful scale-up: the decision, the group's new size, the pods it helps. */
    private void record(ExpansionOption o, NodeGroup g, int delta, int newSize) {
      int realCount = 0;
      int virtualCount = 0;
      for (Pod p : o.pods()) {
        if (VirtualPods.isVirtual(p)) {
          virtualCount++;
        } else {
          realCount++;
        }
      }
      ScaleUpDecision d = new ScaleUpDecision(g.id(), delta, g.targetSize(), newSize, g.maxSize(), realCount, virtualCount);
      decisions.add(d);
      iteration.groups().put(g.id(), g.withTargetSize(newSize));
      nodeCount += delta;
      Set<Pod> helped = Collections.newSetFromMap(new IdentityHashMap<>(o.pods().size()));
      helped.addAll(o.pods());
      for (Pod p : o.pods()) {
        triggered.put(p, d);
        triggeredInOrder.add(p);
        iteration.place(p, Placement.NEW);
      }
      all.removeIf(helped::contains);
    }
  }

  /** The iteration's side of {@link GangScaleUp}: trials that leave no trace, placements, and the limit diagnosis. */
  private GangScaleUp.Context gangContext(Observation world, IterationBuilder result, int nodeCount) {
    return new GangScaleUp.Context() {
      @Override
      public <T> T trial(Supplier<T> body) {
        IterationBuilder.Mark mark = result.mark();
        AutoscalerState.Memory memory = state.memory();
        try {
          return staged.staged(body);
        } finally {
          result.rollBack(mark);
          state.restore(memory);
        }
      }

      @Override
      public Placement placement(Pod p) {
        return result.placement(p);
      }

      @Override
      public String limit(ScaleUpOutcome out, List<Pod> unplaced) {
        return GangScaleUp.limit(options, result.groups().values(), world.templates(), world.sim(), g -> state.backoff().isBackedOff(g, world.now()),
            out, unplaced, nodeCount);
      }
    };
  }

  /** §3.2 group filtering. */
  private String skipReason(NodeGroup g, Instant now) {
    if (state.backoff().isBackedOff(g.id(), now)) {
      return "in backoff after failed scale-up";
    }
    if (g.targetSize() >= g.maxSize()) {
      return "max node group size reached";
    }
    return null;
  }

  /** {@code "<count> <reason>"} entries joined by {@code ", "}, count descending then text. */
  static String formatReasons(Map<String, Integer> counts) {
    List<Map.Entry<String, Integer>> list = new ArrayList<>(counts.entrySet());
    list.sort(Comparator.comparing((Map.Entry<String, Integer> e) -> -e.getValue()).thenComparing(Map.Entry::getKey));
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Integer> e : list) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(e.getValue()).append(' ').append(e.getKey());
    }
    return sb.toString();
  }

  // 5. Scale down

  private void scaleDown(Observation world, ScaleUpOutcome up, IterationBuilder result) {
    boolean scaleUpHappened = up.result() == ScaleUpResult.ScaleUpSuccessful;
    if (!options.scaleDownEnabled() || up.result() == ScaleUpResult.ScaleUpInCooldown || scaleUpHappened) {
      return;
    }
    Instant now = world.now();
    ScaleDownPlanner planner = new ScaleDownPlanner(options, state, provider, result::emit);
    ScaleDownPlanner.Plan plan = planner.plan(new ScaleDownPlanner.Input(now, world.sim(), world.nodes(), world.groupOptions(),
        world.groupOfNode(), world.facts(), world.destinationNodes(), world.placeholders(), world.notStarted(),
        cluster.podDisruptionBudgets()));
    result.scaledDown(plan, planner.actuate(now, plan, world.groups(), world.groupOptions(), world.nodeByName()));
  }

  // 6. Minimum sizes

  private void enforceMinSize(IterationBuilder result) {
    for (NodeGroup g : result.groups().values()) {
      if (g.targetSize() < g.minSize()) {
        try {
          provider.increaseSize(g.id(), g.minSize() - g.targetSize());
        } catch (NodeGroupProvider.ProviderException e) {
          result.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.FAILED_TO_SCALE_UP_GROUP,
              String.format(Events.FAILED_TO_SCALE_UP_GROUP_MSG, g.id(), e.getMessage())));
        }
      }
    }
  }

  // 7. Report

  private void report(Observation world, PodList pods, ScaleUp up, IterationBuilder result) {
    List<Pod> unhelped = new ArrayList<>();
    for (Pod p : pods.unschedulable()) {
      if (result.placement(p) != Placement.NEW) {
        unhelped.add(p);
      }
    }
    List<UnschedulablePod> unschedulable = new ArrayList<>();
    for (Pod p : unhelped) {
      unschedulable.add(new UnschedulablePod(p.getMetadata().getNamespace(), p.getMetadata().getName(), up.outcome().reasonFor(p)));
    }
    ScaleUpStatusProcessor.process(up.outcome(), unhelped, pods.unschedulableVirtual(), pods.injection(), result::emit);
    result.reported(pendingPods(pods.pending(), result), unschedulable,
        bufferOutcomes(world, pods.injection(), up.blockedGangBuffers(), result));
  }

  private static PendingPods pendingPods(List<Pod> real, IterationBuilder result) {
    int onExisting = 0;
    int onUpcoming = 0;
    int onNew = 0;
    int none = 0;
    for (Pod p : real) {
      switch (result.placement(p)) {
        case EXISTING -> onExisting++;
        case UPCOMING -> onUpcoming++;
        case NEW -> onNew++;
        default -> none++;
      }
    }
    return new PendingPods(real.size(), onExisting, onUpcoming, onNew, none);
  }

  private List<BufferOutcome> bufferOutcomes(Observation world, BufferInjector.Injection injection,
      Map<String, String> blockedGangBuffers, IterationBuilder result) {
    List<BufferOutcome> out = new ArrayList<>();
    List<Node> existing = new ArrayList<>();
    for (Node n : world.nodes()) {
      String name = world.facts().get(n).name();
      if (world.existingDestination(name)) {
        existing.add(n);
      }
    }
    // one pass over the nodes per buffer shape
    Map<Map<String, Long>, SchedulingSimulation.ChunkRoom> rooms = new HashMap<>();
    for (BufferInjector.Entry e : injection.entries()) {
      SchedulingSimulation.ChunkRoom room = e.pods().isEmpty() ? SchedulingSimulation.ChunkRoom.NONE
          : rooms.computeIfAbsent(world.sim().requests(e.pods().get(0)), k -> world.sim().chunkRoom(e.pods().get(0), existing));
      out.add(bufferOutcome(world, e, room, blockedGangBuffers, result));
    }
    return out;
  }

  /** Where a buffer's chunks went in this loop, its conditions, and the status write when they changed. */
  private BufferOutcome bufferOutcome(Observation world, BufferInjector.Entry e, SchedulingSimulation.ChunkRoom room,
      Map<String, String> blockedGangBuffers, IterationBuilder result) {
    CapacityBuffer b = e.buffer();
    long gen = b.getMetadata().getGeneration() == null ? 0 : b.getMetadata().getGeneration();
    int existing = 0;
    int upcomingOrNew = 0;
    int upcomingOnly = 0;
    int newOnly = 0;
    int failed = 0;
    for (Pod p : e.pods()) {
      Placement at = result.placement(p);
      switch (at == null ? Placement.NONE : at) {
        case EXISTING -> existing++;
        case UPCOMING -> { upcomingOrNew++; upcomingOnly++; }
        case NEW -> { upcomingOrNew++; newOnly++; }
        default -> failed++;
      }
    }
    Condition capacity = !e.injected() ? CapacityAvailability.notEvaluated(gen)
        : CapacityAvailability.evaluate(e.pods().size(), existing, upcomingOrNew, failed, !fitsSomeEmptyNode(world, e.pods().get(0)),
            null, gen);
    String gang = blockedGangBuffers.get(b.getMetadata().getNamespace() + "/" + b.getMetadata().getName());
    if (gang != null && e.injected() && !BufferConditions.REASON_INFEASIBLE.equals(capacity.getReason())) {
      capacity = CapacityAvailability.gangDoesNotFit(gang, gen);
    }
    List<Condition> conditions = StatusConditions.copy(b.getStatus().getConditions());
    if (conditions == null) {
      conditions = new ArrayList<>();
    }
    boolean changed = StatusConditions.set(conditions, e.provisioning(), world.now());
    changed |= StatusConditions.set(conditions, capacity, world.now());
    if (changed) {
      statusWriter.writeConditions(b, conditions);
    }
    return new BufferOutcome(b.getMetadata().getNamespace(), b.getMetadata().getName(), e.pods().size(), existing,
        upcomingOnly, newOnly, failed, List.copyOf(conditions), changed, room);
  }

  /** True when {@code chunk} fits an empty Ready node of the cluster or an empty node of some group's template. */
  private static boolean fitsSomeEmptyNode(Observation world, Pod chunk) {
    for (Node n : world.nodes()) {
      if (world.readyNodes().contains(n.getMetadata().getName()) && world.sim().fitsEmptyNode(chunk, n)) {
        return true;
      }
    }
    for (Node t : world.templateNodes().values()) {
      if (world.sim().fitsEmptyNode(chunk, t)) {
        return true;
      }
    }
    return false;
  }
}
