package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.IterationResult.BufferOutcome;
import dev.headroom.core.autoscaler.IterationResult.PendingPods;
import dev.headroom.core.autoscaler.IterationResult.ScaleUpDecision;
import dev.headroom.core.autoscaler.IterationResult.UnschedulablePod;
import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.Expanders;
import dev.headroom.core.autoscaler.scaledown.ScaleDownPlanner;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One autoscaler iteration, {@link #runOnce(Instant)}, as pure core code over ports (autoscaler spec §1.1):
 * read the world, build the snapshot with upcoming nodes, inject virtual pods after the real pending pods,
 * pack them onto existing and upcoming capacity, scale up for what is left, plan scale-down, and write
 * buffer conditions and events. The same code runs in the cluster runtime, in the simulator and in
 * {@code plan}.
 */
public final class Autoscaler {

  /** Pods younger than this skip the loop ({@code allPodsAreNew}). */
  static final Duration NEW_POD_COOLDOWN = Duration.ofSeconds(2);
  /** Beyond this many pod changes between two snapshot loads, the next load starts from scratch. */
  private static final int MAX_UNLOADED_CHANGES = 100_000;

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
  /** Virtual pods kept from the previous loop. */
  private final VirtualPodCache virtualPods = new VirtualPodCache();
  /** The pods as the previous loops read them. */
  private final PodIndex pods = new PodIndex();
  private final NodeFacts.Cache nodeFacts = new NodeFacts.Cache();
  private int lastVirtualPods;
  private Map<String, String> lastGroupOfNode = Map.of();
  /** Placeholder node copies by name, kept across loops (bounded). */
  private final Map<String, Placeholder> placeholderCopies = new HashMap<>();
  private static final int MAX_PLACEHOLDER_COPIES = 4096;
  /** Sanitised template nodes by group id, kept across loops (bounded). */
  private final Map<String, Placeholder> templateCopies = new HashMap<>();
  /** UIDs of pods changed since the last snapshot load; null when unknown (load everything). */
  private Set<String> unloaded;

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

  /** Per-loop working data. */
  private final class Loop {
    final Instant now;
    final List<EventRecord> emitted = new ArrayList<>();
    final Map<String, NodeGroup> groups = new LinkedHashMap<>();
    /** The node group of each node (read-only). */
    Map<String, String> groupOfNode = Map.of();
    /** Each group's template source: its first Ready node, else the group's own template (placeholders copy it). */
    final Map<String, Node> templates = new HashMap<>();
    /** Each group's template node as scale-up tests pods against it: sanitised, with a hostname of its own (§3.9). */
    final Map<String, Node> templateNodes = new HashMap<>();
    /** Names of the Ready nodes (read-only). */
    Set<String> readyNodes = Set.of();
    final Set<String> placeholders = new HashSet<>();
    /** Names of the nodes that may receive pods before the placeholders: loaded, Ready, not deleted, not cordoned. */
    Set<String> destinationNodes = Set.of();
    /** Nodes not loaded into the snapshot (not started, counted as upcoming instead). */
    Set<String> leftOut = Set.of();
    /** The registry's classification of every registered node (empty until the registry is built). */
    List<IterationResult.NodeStatus> nodeStatuses = List.of();

    /** True when pods may be placed on node {@code name} in this loop (a destination node or a placeholder). */
    boolean destination(String name) {
      return placeholders.contains(name) || destinationNodes.contains(name) && !leftOut.contains(name);
    }
    /** The nodes read at the start of the loop, by name. */
    List<Node> nodes = List.of();
    /** What the loop reads of each node object. */
    Map<Node, NodeFacts> facts = Map.of();
    Map<Pod, Placement> placement = new IdentityHashMap<>();
    SchedulingSimulation sim;
    /** Unbound pods that are not demand (gated, not yet tried by their scheduler). */
    PendingDemand.NotDemand notDemand = PendingDemand.NotDemand.NONE;
    /** The all-or-nothing groups of this loop. */
    List<IterationResult.PodGroupOutcome> podGroups = List.of();
    /** Gang buffers taken out of the scale-up, by namespace/name: the group's message. */
    Map<String, String> blockedGangBuffers = Map.of();

    Loop(Instant now) {
      this.now = now;
    }

    void emit(EventRecord e) {
      emitted.add(e);
      events.emit(e);
    }

    Map<String, Long> req(Pod p) {
      return sim.requests(p);
    }
  }

  /** Runs one iteration at {@code now}. */
  public IterationResult runOnce(Instant now) {
    Loop loop = new Loop(now);
    Random random = new Random(options.randomSeed() * 31 + state.nextLoop());

    // 2. Read the world.
    List<Node> nodes = new ArrayList<>(cluster.nodes());
    nodes.sort(Comparator.comparing(n -> n.getMetadata().getName()));
    loop.nodes = nodes;
    Set<String> changed = pods.refresh(cluster);
    if (changed == null) {
      unloaded = null;
    } else if (unloaded != null) {
      unloaded.addAll(changed);
      if (unloaded.size() > MAX_UNLOADED_CHANGES) {
        unloaded = null;
      }
    }
    PendingDemand.Split demand = PendingDemand.split(pods.pending(), bypassedSchedulers);
    List<Pod> pending = demand.demand();
    loop.notDemand = demand.notDemand();
    // pending pods and (about as many as last loop) virtual pods get a placement
    loop.placement = new IdentityHashMap<>(pending.size() + lastVirtualPods + 64);
    loop.facts = nodeFacts.of(nodes);
    loop.readyNodes = nodeFacts.readyNames();
    BufferInjector.Injection injection = BufferInjector.Injection.EMPTY;
    // 3. Actionable check.
    if (loop.readyNodes.isEmpty() && !options.scaleUpFromZero()) {
      return finish(loop, ScaleUpResult.ScaleUpNotTried, List.of(), List.of(), new PendingPods(0, 0, 0, 0, 0), List.of(), null, List.of());
    }
    // 4. Provider refresh.
    provider.refresh();
    for (NodeGroup g : provider.nodeGroups()) {
      loop.groups.put(g.id(), g);
    }
    loop.groupOfNode = groupsOfNodes(nodes, loop);
    // 7. Cluster-state registry update.
    ClusterStateRegistry registry = new ClusterStateRegistry(options, state, loop.groups, nodes, loop.groupOfNode,
        loop.readyNodes, now);
    loop.nodeStatuses = registry.statuses();
    expireTimedOutScaleUps(loop, registry, now);
    state.backoff().removeStale(now);
    // 9. Health gate.
    int unready = registry.unreadyCount();
    if (unready > options.okTotalUnreadyCount() && unready > options.maxTotalUnreadyPercentage() / 100.0 * nodes.size()) {
      loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.CLUSTER_UNHEALTHY, Events.CLUSTER_UNHEALTHY_MSG));
      state.unneededSince().clear();
      return finish(loop, ScaleUpResult.ScaleUpNotTried, List.of(), List.of(), new PendingPods(0, 0, 0, 0, 0), List.of(), null, List.of());
    }

    // 5./6. Snapshot and templates.
    SchedulingSimulation sim = simulations.get();
    loop.sim = sim;
    Set<String> notStarted = registry.notStartedNodes();
    Map<String, Node> nodeByName = nodeFacts.byName();
    Set<String> leftOut = leftOut(loop, registry, notStarted, nodeByName);
    List<Node> loaded = leftOut.isEmpty() ? nodes : without(nodes, leftOut, loop);
    loop.leftOut = leftOut;
    loop.destinationNodes = nodeFacts.destinationNames();
    // bound pods of the snapshot: expendable pods and pods of nodes left out are not loaded
    sim.load(loaded, pods, b -> loadable(b, nodeByName, leftOut), unloaded);
    unloaded = new java.util.LinkedHashSet<>();
    templates(loop, nodes);
    // 10. Upcoming placeholders.
    addPlaceholders(loop, registry);

    // 11. Pod-list processing: real pods (priority descending, stable), then virtual pods.
    List<Pod> real = notExpendable(pending);
    List<CapacityBuffer> buffers = options.bufferPodInjectionEnabled() ? cluster.buffers() : List.of();
    virtualPods.nextLoop();
    injection = BufferInjector.of(options, virtualPods).inject(buffers, cluster);
    List<Pod> virtual = injection.pods();
    lastVirtualPods = virtual.size();
    List<Pod> remainingReal = filterOutSchedulable(loop, real);
    List<Pod> remainingVirtual = filterOutSchedulableVirtual(loop, injection);
    remainingReal.removeIf(dev.headroom.core.autoscaler.scaledown.DrainRules::isDaemonSetPod);
    remainingReal.removeIf(p -> tooNew(p, now));

    // 12.-13. Scale-up.
    ScaleUpOutcome up = allOrNothing(loop, real, injection, remainingReal, remainingVirtual, nodes.size() + loop.placeholders.size());
    List<Pod> unhelpedReal = new ArrayList<>();
    for (Pod p : remainingReal) {
      if (loop.placement.get(p) != Placement.NEW) {
        unhelpedReal.add(p);
      }
    }
    for (Pod p : remainingVirtual) {
      loop.placement.putIfAbsent(p, Placement.NONE);
    }
    for (Pod p : real) {
      loop.placement.putIfAbsent(p, Placement.NONE);
    }

    // 14. Scale-down.
    List<IterationResult.ScaleDownDecision> scaleDown = List.of();
    ScaleDownPlanner.Plan sdPlan = null;
    boolean scaleUpHappened = up.result() == ScaleUpResult.ScaleUpSuccessful;
    if (options.scaleDownEnabled() && up.result() != ScaleUpResult.ScaleUpInCooldown && !scaleUpHappened) {
      ScaleDownPlanner planner = new ScaleDownPlanner(options, state, provider, loop::emit);
      sdPlan = planner.plan(new ScaleDownPlanner.Input(now, sim, nodes, loop.groups, loop.groupOfNode, loop.facts,
          nodeFacts.destinationNames(), loop.placeholders, notStarted, cluster.podDisruptionBudgets()));
      scaleDown = planner.actuate(now, sdPlan, loop.groups, nodeByName);
    }
    // 15. Min-size enforcement.
    if (options.enforceNodeGroupMinSize()) {
      enforceMinSize(loop);
    }

    // 16. Accounting, status processing, buffer conditions.
    PendingPods pendingPods = pendingPods(loop, real);
    List<UnschedulablePod> unschedulable = new ArrayList<>();
    for (Pod p : unhelpedReal) {
      unschedulable.add(new UnschedulablePod(p.getMetadata().getNamespace(), p.getMetadata().getName(), up.reasonFor(p)));
    }
    ScaleUpStatusProcessor.process(up, unhelpedReal, remainingVirtual, injection, loop::emit);
    List<BufferOutcome> outcomes = bufferOutcomes(loop, injection);
    return finish(loop, up.result(), up.decisions(), scaleDown, pendingPods, unschedulable, sdPlan, outcomes);
  }

  // The steps below are methods of their own so that runOnce stays a small unit for the JIT (and a recompilation
  // after a rare branch is first taken recompiles a small method, not the whole iteration).

  /** Scale-up requests past their group's max provision time: backoff, event, target size back down. */
  private void expireTimedOutScaleUps(Loop loop, ClusterStateRegistry registry, Instant now) {
    for (ScaleUpRequest timedOut : registry.expireRequests()) {
      NodeGroup g = loop.groups.get(timedOut.group());
      loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.SCALE_UP_TIMED_OUT,
          String.format(Events.SCALE_UP_TIMED_OUT_MSG, timedOut.group(), dev.headroom.core.nodegroup.GoDuration.format(provisionTime(g)))));
      state.backoff().fail(timedOut.group(), "timeout", now);
      int missing = registry.upcomingRaw(timedOut.group());
      if (missing > 0) {
        try {
          provider.decreaseTargetSize(timedOut.group(), -missing);
          loop.groups.put(g.id(), g.withTargetSize(g.targetSize() - missing));
        } catch (NodeGroupProvider.ProviderException e) {
          // the next loop retries through the same timeout path
        }
      }
    }
  }

  /** Nodes not started in a group whose upcoming nodes are counted: left out, placeholders stand for them. */
  private static Set<String> leftOut(Loop loop, ClusterStateRegistry registry, Set<String> notStarted, Map<String, Node> nodeByName) {
    Set<String> leftOut = new HashSet<>();
    for (String name : notStarted) {
      if (nodeByName.containsKey(name) && registry.upcomingCounted(loop.groupOfNode.get(name))) {
        leftOut.add(name);
      }
    }
    return leftOut;
  }

  private static List<Node> without(List<Node> nodes, Set<String> leftOut, Loop loop) {
    List<Node> loaded = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      if (!leftOut.contains(loop.facts.get(n).name())) {
        loaded.add(n);
      }
    }
    return loaded;
  }

  /**
   * Each group's template: its first Ready node, else the group's own template; and its sanitised copy
   * {@code template-<group>} with a {@code kubernetes.io/hostname} of its own, as upstream gives every template node
   * (so hostname spread constraints and hostname affinity see an empty domain of their own).
   */
  private void templates(Loop loop, List<Node> nodes) {
    for (NodeGroup g : loop.groups.values()) {
      Node sample = null;
      for (Node n : nodes) {
        NodeFacts f = loop.facts.get(n);
        if (f.ready() && g.id().equals(loop.groupOfNode.get(f.name()))) {
          sample = n;
          break;
        }
      }
      Node source = sample != null ? sample : g.template();
      loop.templates.put(g.id(), source);
      loop.templateNodes.put(g.id(), templateNode(g.id(), source));
    }
  }

  /**
   * The sanitised template node of group {@code id} copied from {@code source}, kept across loops while the source
   * is the same object at the same resourceVersion (so it is not copied and compiled again every loop).
   */
  private Node templateNode(String id, Node source) {
    String rv = source.getMetadata() == null ? null : source.getMetadata().getResourceVersion();
    Placeholder kept = templateCopies.get(id);
    if (kept != null && kept.template() == source && java.util.Objects.equals(rv, kept.resourceVersion())) {
      return kept.node();
    }
    Node copy = Nodes.sanitizedCopy(source, "template-" + id);
    if (templateCopies.size() > MAX_PLACEHOLDER_COPIES) {
      templateCopies.clear();
    }
    templateCopies.put(id, new Placeholder(source, rv, copy));
    return copy;
  }

  private void addPlaceholders(Loop loop, ClusterStateRegistry registry) {
    for (NodeGroup g : loop.groups.values()) {
      int upcoming = registry.upcoming(g.id());
      for (int i = 1; i <= upcoming; i++) {
        String name = "upcoming-" + g.id() + "-" + i;
        loop.sim.addNode(placeholder(loop.templates.get(g.id()), name));
        loop.placeholders.add(name);
      }
    }
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

  private void enforceMinSize(Loop loop) {
    for (NodeGroup g : loop.groups.values()) {
      if (g.targetSize() < g.minSize()) {
        try {
          provider.increaseSize(g.id(), g.minSize() - g.targetSize());
        } catch (NodeGroupProvider.ProviderException e) {
          loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.FAILED_TO_SCALE_UP_GROUP,
              String.format(Events.FAILED_TO_SCALE_UP_GROUP_MSG, g.id(), e.getMessage())));
        }
      }
    }
  }

  private static PendingPods pendingPods(Loop loop, List<Pod> real) {
    int onExisting = 0;
    int onUpcoming = 0;
    int onNew = 0;
    int none = 0;
    for (Pod p : real) {
      switch (loop.placement.get(p)) {
        case EXISTING -> onExisting++;
        case UPCOMING -> onUpcoming++;
        case NEW -> onNew++;
        default -> none++;
      }
    }
    return new PendingPods(real.size(), onExisting, onUpcoming, onNew, none);
  }

  /** The group's own {@code maxNodeProvisionTime} when it sets one, else the global option. */
  private Duration provisionTime(NodeGroup g) {
    Duration own = g == null ? null : g.options().maxNodeProvisionTime();
    return own != null ? own : options.maxNodeProvisionTime();
  }

  /**
   * The node group of each node, as the provider says now. The previous loop's map is returned when every entry
   * is the same (most loops), so it is not built again.
   */
  private Map<String, String> groupsOfNodes(List<Node> nodes, Loop loop) {
    String[] names = new String[nodes.size()];
    String[] groups = new String[nodes.size()];
    int mapped = 0;
    boolean same = true;
    for (int i = 0; i < names.length; i++) {
      Node n = nodes.get(i);
      names[i] = loop.facts.get(n).name();
      String g = provider.nodeGroupOf(n).filter(loop.groups::containsKey).orElse(null);
      groups[i] = g;
      if (g != null) {
        mapped++;
        same &= g.equals(lastGroupOfNode.get(names[i]));
      }
    }
    if (same && mapped == lastGroupOfNode.size()) {
      return lastGroupOfNode;
    }
    Map<String, String> out = new HashMap<>(names.length * 2);
    for (int i = 0; i < names.length; i++) {
      if (groups[i] != null) {
        out.put(names[i], groups[i]);
      }
    }
    lastGroupOfNode = java.util.Collections.unmodifiableMap(out);
    return lastGroupOfNode;
  }

  /** A bound pod goes into the loop's snapshot unless it is expendable or its node is missing or left out. */
  private boolean loadable(SchedulingSimulation.BoundPod b, Map<String, Node> nodes, Set<String> leftOut) {
    return nodes.containsKey(b.nodeName()) && !leftOut.contains(b.nodeName())
        && Nodes.priority(b.pod()) >= options.expendablePodsPriorityCutoff();
  }

  /**
   * The placeholder node {@code name} copied from {@code template}. A copy is kept for the next loops while the
   * template is the same object at the same non-empty resourceVersion (so it is not copied and compiled again
   * while its node boots); a template without a version is copied every time.
   */
  private Node placeholder(Node template, String name) {
    String rv = template.getMetadata() == null ? null : template.getMetadata().getResourceVersion();
    Placeholder kept = placeholderCopies.get(name);
    if (kept != null && kept.template() == template && rv != null && !rv.isEmpty() && rv.equals(kept.resourceVersion())) {
      return kept.node();
    }
    Node copy = Nodes.sanitizedCopy(template, name);
    if (rv != null && !rv.isEmpty()) {
      if (placeholderCopies.size() > MAX_PLACEHOLDER_COPIES) {
        placeholderCopies.clear();
      }
      placeholderCopies.put(name, new Placeholder(template, rv, copy));
    }
    return copy;
  }

  private record Placeholder(Node template, String resourceVersion, Node node) {}

  private boolean tooNew(Pod p, Instant now) {
    if (options.newPodScaleUpDelay().isZero()) {
      return false;
    }
    return Nodes.created(p).map(c -> c.plus(options.newPodScaleUpDelay()).isAfter(now)).orElse(false);
  }

  /** Step 11d: packs pods onto existing and upcoming nodes; placed pods stay in the snapshot. */
  private List<Pod> filterOutSchedulable(Loop loop, List<Pod> pods) {
    List<Pod> left = new ArrayList<>();
    Predicate<String> destination = loop::destination;
    for (Pod p : pods) {
      book(loop, p, loop.sim.schedule(p, destination).orElse(null), left);
    }
    return left;
  }

  /** Records where a pod was placed (an upcoming placeholder or an existing node), or that it was left over. */
  private static void book(Loop loop, Pod p, String node, List<Pod> left) {
    if (node != null) {
      loop.placement.put(p, loop.placeholders.contains(node) ? Placement.UPCOMING : Placement.EXISTING);
    } else {
      left.add(p);
    }
  }

  /**
   * As {@link #filterOutSchedulable} for the virtual pods, buffer by buffer in injection order (the order of
   * {@link BufferInjector.Injection#pods()}): a buffer's chunks are one list the simulation may know from
   * earlier loops.
   */
  private List<Pod> filterOutSchedulableVirtual(Loop loop, BufferInjector.Injection injection) {
    List<Pod> left = new ArrayList<>();
    Predicate<String> destination = loop::destination;
    for (BufferInjector.Entry e : injection.entries()) {
      List<Pod> pods = e.pods();
      if (pods.isEmpty()) {
        continue;
      }
      List<String> nodes = loop.sim.scheduleAll(pods, destination);
      for (int k = 0; k < pods.size(); k++) {
        book(loop, pods.get(k), nodes.get(k), left);
      }
    }
    return left;
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

  private ScaleUpOutcome scaleUp(Loop loop, List<Pod> real, List<Pod> virtual, int currentNodeCount) {
    Map<Pod, String> reasons = new IdentityHashMap<>();
    if (real.isEmpty() && virtual.isEmpty()) {
      return new ScaleUpOutcome(ScaleUpResult.ScaleUpNotNeeded, List.of(), Map.of(), List.of(), reasons, null);
    }
    if (options.maxNodesTotal() > 0 && loop.readyNodes.size() >= options.maxNodesTotal()) {
      loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.MAX_NODES_TOTAL_REACHED,
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
    if (oldest != null && !real.isEmpty() && oldest.plus(NEW_POD_COOLDOWN).isAfter(loop.now) && oldest != Instant.MIN) {
      return new ScaleUpOutcome(ScaleUpResult.ScaleUpInCooldown, List.of(), Map.of(), List.of(), reasons, null);
    }
    ScaleUpRun run = new ScaleUpRun(loop, real, virtual, currentNodeCount);
    return run.run();
  }

  /**
   * One scale-up phase: the planner's options ({@link PerGroupEstimates} by default, {@link TieredScaleUp} with
   * {@code provisioning-pass}) as the loop executes them ({@link ScaleUpPlanner#executed}), then the provider call for
   * each, capped by {@code maxNodesTotal} and the group's maximum size. Its steps are methods of their own, so the
   * JIT compiles small units.
   */
  private final class ScaleUpRun {
    final Loop loop;
    // Per-pod reason counters: reason text -> count of groups.
    final Map<Pod, Map<String, Integer>> perPod = new IdentityHashMap<>();
    final List<Pod> all;
    final List<ScaleUpDecision> decisions = new ArrayList<>();
    final Map<Pod, ScaleUpDecision> triggered;
    final List<Pod> triggeredInOrder = new ArrayList<>();
    boolean anyError;
    int nodeCount;

    ScaleUpRun(Loop loop, List<Pod> real, List<Pod> virtual, int currentNodeCount) {
      this.loop = loop;
      this.all = new ArrayList<>(real);
      all.addAll(virtual);
      this.triggered = new IdentityHashMap<>(all.size());
      this.nodeCount = currentNodeCount;
    }

    ScaleUpOutcome run() {
      Expanders expanders = Expanders.create(options.expander(), List.copyOf(loop.groups.values()), options.expanderPriorities(),
          new Random(options.randomSeed() ^ loop.now.getEpochSecond()));
      Instant now = loop.now;
      ScaleUpPlanner.Input input = new ScaleUpPlanner.Input(loop.sim, List.copyOf(loop.groups.values()),
          loop.templateNodes, g -> skipReason(g, now), List.copyOf(all), nodeCount, options, expanders, perPod);
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
      String noGroups = loop.groups.isEmpty() ? Events.NO_NODE_GROUPS_REASON : null;
      return new ScaleUpOutcome(result, List.copyOf(decisions), triggered, triggeredInOrder, reasons, noGroups);
    }

    /** Scales the option's group up; false when no further option may be executed (node total reached). */
    private boolean execute(ExpansionOption o) {
      NodeGroup g = loop.groups.get(o.group().id());
      int delta = o.nodeCount();
      if (options.maxNodesTotal() > 0 && delta > options.maxNodesTotal() - nodeCount) {
        delta = options.maxNodesTotal() - nodeCount;
        loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.MAX_NODES_TOTAL_REACHED,
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
      loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, Events.SCALED_UP_GROUP,
          String.format(Events.SCALED_UP_GROUP_BEFORE, g.id(), newSize, g.targetSize(), g.maxSize())));
      try {
        provider.increaseSize(g.id(), delta);
      } catch (NodeGroupProvider.ProviderException e) {
        anyError = true;
        loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.FAILED_TO_SCALE_UP_GROUP,
            String.format(Events.FAILED_TO_SCALE_UP_GROUP_MSG, g.id(), e.getMessage())));
        state.backoff().fail(g.id(), "cloudProviderError", loop.now);
        for (Pod p : o.pods()) {
          perPod.computeIfAbsent(p, x -> new TreeMap<>()).merge("scale-up execution failed", 1, Integer::sum);
        }
        return true;
      }
      state.registerScaleUp(g.id(), delta, loop.now, provisionTime(g));
      state.scaledUp(loop.now);
      loop.emit(new EventRecord(ObjectRef.STATUS, EventRecord.NORMAL, Events.SCALED_UP_GROUP,
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
      loop.groups.put(g.id(), g.withTargetSize(newSize));
      nodeCount += delta;
      Set<Pod> helped = java.util.Collections.newSetFromMap(new IdentityHashMap<>(o.pods().size()));
      helped.addAll(o.pods());
      for (Pod p : o.pods()) {
        triggered.put(p, d);
        triggeredInOrder.add(p);
        loop.placement.put(p, Placement.NEW);
      }
      all.removeIf(helped::contains);
    }
  }

  /**
   * Step 13 all-or-nothing: the scale-up for the pending pods, with the pods of a group ({@link PodGroups}: a PodGroup or
   * a gang buffer) scaled for as a unit ({@link GangScaleUp}). Without groups this is the scale-up step alone.
   */
  private ScaleUpOutcome allOrNothing(Loop loop, List<Pod> real, BufferInjector.Injection injection, List<Pod> remainingReal,
      List<Pod> remainingVirtual, int nodeCount) {
    PodGroups declared = cluster.podGroups();
    GangScaleUp.Members members = GangScaleUp.members(declared, real, injection);
    if (members.members().isEmpty()) {
      return scaleUp(loop, remainingReal, remainingVirtual, nodeCount);
    }
    GangScaleUp.Result r = GangScaleUp.run(remainingReal, remainingVirtual, members, GangScaleUp.running(declared, pods.all()),
        (rp, vp) -> scaleUp(loop, rp, vp, nodeCount), gangContext(loop, nodeCount));
    loop.podGroups = r.groups();
    loop.blockedGangBuffers = GangScaleUp.blockedBuffers(r);
    GangScaleUp.events(r, injection).forEach(loop::emit);
    return r.outcome();
  }

  /** The iteration's side of {@link GangScaleUp}: trials that leave no trace, placements, and the limit diagnosis. */
  private GangScaleUp.Context gangContext(Loop loop, int nodeCount) {
    return new GangScaleUp.Context() {
      @Override
      public <T> T trial(Supplier<T> body) {
        Map<String, NodeGroup> groups = new LinkedHashMap<>(loop.groups);
        Map<Pod, Placement> placement = loop.placement;
        loop.placement = new IdentityHashMap<>(placement);
        int emitted = loop.emitted.size();
        AutoscalerState.Memory memory = state.memory();
        try {
          return staged.staged(body);
        } finally {
          loop.groups.clear();
          loop.groups.putAll(groups);
          loop.placement = placement;
          loop.emitted.subList(emitted, loop.emitted.size()).clear();
          state.restore(memory);
        }
      }

      @Override
      public Placement placement(Pod p) {
        return loop.placement.get(p);
      }

      @Override
      public String limit(ScaleUpOutcome out, List<Pod> unplaced) {
        return GangScaleUp.limit(options, loop.groups.values(), loop.templates, loop.sim, g -> state.backoff().isBackedOff(g, loop.now),
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

  private List<BufferOutcome> bufferOutcomes(Loop loop, BufferInjector.Injection injection) {
    List<BufferOutcome> out = new ArrayList<>();
    List<Node> existing = new ArrayList<>();
    for (Node n : loop.nodes) {
      String name = loop.facts.get(n).name();
      if (loop.destinationNodes.contains(name) && !loop.leftOut.contains(name)) {
        existing.add(n);
      }
    }
    // one pass over the nodes per buffer shape
    Map<Map<String, Long>, SchedulingSimulation.ChunkRoom> rooms = new HashMap<>();
    for (BufferInjector.Entry e : injection.entries()) {
      SchedulingSimulation.ChunkRoom room = e.pods().isEmpty() ? SchedulingSimulation.ChunkRoom.NONE
          : rooms.computeIfAbsent(loop.req(e.pods().get(0)), k -> loop.sim.chunkRoom(e.pods().get(0), existing));
      out.add(bufferOutcome(loop, e, room));
    }
    return out;
  }

  /** Where a buffer's chunks went in this loop, its conditions, and the status write when they changed. */
  private BufferOutcome bufferOutcome(Loop loop, BufferInjector.Entry e, SchedulingSimulation.ChunkRoom room) {
    CapacityBuffer b = e.buffer();
    long gen = b.getMetadata().getGeneration() == null ? 0 : b.getMetadata().getGeneration();
    int existing = 0;
    int upcomingOrNew = 0;
    int upcomingOnly = 0;
    int newOnly = 0;
    int failed = 0;
    for (Pod p : e.pods()) {
      switch (loop.placement.getOrDefault(p, Placement.NONE)) {
        case EXISTING -> existing++;
        case UPCOMING -> { upcomingOrNew++; upcomingOnly++; }
        case NEW -> { upcomingOrNew++; newOnly++; }
        default -> failed++;
      }
    }
    Condition capacity = !e.injected() ? CapacityAvailability.notEvaluated(gen)
        : CapacityAvailability.evaluate(e.pods().size(), existing, upcomingOrNew, failed, !fitsSomeEmptyNode(loop, e.pods().get(0)),
            null, gen);
    String gang = loop.blockedGangBuffers.get(b.getMetadata().getNamespace() + "/" + b.getMetadata().getName());
    if (gang != null && e.injected() && !BufferConditions.REASON_INFEASIBLE.equals(capacity.getReason())) {
      capacity = CapacityAvailability.gangDoesNotFit(gang, gen);
    }
    List<Condition> conditions = StatusConditions.copy(b.getStatus().getConditions());
    if (conditions == null) {
      conditions = new ArrayList<>();
    }
    boolean changed = StatusConditions.set(conditions, e.provisioning(), loop.now);
    changed |= StatusConditions.set(conditions, capacity, loop.now);
    if (changed) {
      statusWriter.writeConditions(b, conditions);
    }
    return new BufferOutcome(b.getMetadata().getNamespace(), b.getMetadata().getName(), e.pods().size(), existing,
        upcomingOnly, newOnly, failed, List.copyOf(conditions), changed, room);
  }

  /** True when {@code chunk} fits an empty Ready node of the cluster or an empty node of some group's template. */
  private static boolean fitsSomeEmptyNode(Loop loop, Pod chunk) {
    for (Node n : loop.nodes) {
      if (loop.readyNodes.contains(n.getMetadata().getName()) && loop.sim.fitsEmptyNode(chunk, n)) {
        return true;
      }
    }
    for (Node t : loop.templateNodes.values()) {
      if (loop.sim.fitsEmptyNode(chunk, t)) {
        return true;
      }
    }
    return false;
  }

  private IterationResult finish(Loop loop, ScaleUpResult result, List<ScaleUpDecision> up,
      List<IterationResult.ScaleDownDecision> down, PendingPods pending, List<UnschedulablePod> unschedulable,
      ScaleDownPlanner.Plan plan, List<BufferOutcome> buffers) {
    return new IterationResult(loop.now, options.expander(), result, List.copyOf(up), List.copyOf(down), pending,
        List.copyOf(buffers), List.copyOf(unschedulable),
        plan == null ? List.of() : plan.unneeded(), plan == null ? List.of() : plan.unremovable(), List.copyOf(loop.emitted),
        loop.nodeStatuses, loop.notDemand, loop.podGroups);
  }
}
