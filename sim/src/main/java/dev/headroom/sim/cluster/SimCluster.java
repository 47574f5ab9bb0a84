package dev.headroom.sim.cluster;

import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.SchedulingCompiler;
import dev.headroom.sim.engine.EventQueue;
import dev.headroom.sim.engine.EventQueue.Phase;
import dev.headroom.sim.engine.VirtualClock;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The simulated cluster's objects: Nodes and Pods as API objects, with their lifecycle. It keeps a
 * long-lived core {@link ClusterSnapshot} in step with the Ready nodes and their bound pods, which the
 * {@link SchedulerModel} places pods with (the core's predicates). Wait times go to a {@link WaitRecorder}.
 */
public final class SimCluster {

  /** Receives the wait of every real pod when it binds, or when it disappears without ever binding. */
  public interface WaitRecorder {
    /** A real pod's wait, in milliseconds; {@code bound} is false for pods that never bound. */
    void record(SimPod pod, long waitMillis, boolean bound);
  }

  /** Scenario time at which pre-existing pods were created, bound and Ready: one hour before the start. */
  public static final long PREEXISTING_MILLIS = -3_600_000L;

  private final EventQueue events;
  private final VirtualClock clock;
  private final SchedulingCompiler compiler = new SchedulingCompiler();
  /** UIDs of pods marked for deletion and not yet gone. */
  private final java.util.Set<String> terminating = new java.util.HashSet<>();
  private final ClusterSnapshot placement = new ClusterSnapshot(compiler);
  private final WaitRecorder waits;
  private final Map<String, SimNode> nodes = new TreeMap<>();
  private final List<SimNode> deletedNodes = new ArrayList<>();
  private final Map<String, SimPod> pods = new LinkedHashMap<>();
  /** The live pods that are not bound yet, in creation order. */
  private final Map<String, SimPod> pending = new LinkedHashMap<>();
  /** Live pods by namespace, then by label set, each group in creation order (for label-selector lists). */
  private final Map<String, Map<Map<String, String>, Map<String, SimPod>>> podsByLabels = new HashMap<>();
  private final Map<String, Consumer<SimPod>> podGoneHandlers = new TreeMap<>();
  private final Map<String, Consumer<SimPod>> podReadyHandlers = new TreeMap<>();
  private final Map<String, Consumer<SimPod>> podBoundHandlers = new TreeMap<>();
  private final TreeMap<Integer, Integer> boundByPriority = new TreeMap<>();
  private Runnable schedulerTrigger = () -> {};
  private long podSeq;
  private long version;
  private final dev.headroom.core.autoscaler.PodChangeLog podChanges = new dev.headroom.core.autoscaler.PodChangeLog();
  private final java.util.Set<String> liveNames = new java.util.HashSet<>();
  private final Map<String, long[]> ownerVersions = new java.util.HashMap<>();
  private final List<Consumer<SimPod>> podListListeners = new ArrayList<>();
  private final List<Consumer<SimPod>> podChangeListeners = new ArrayList<>();
  /** Template tokens by template object (identity), then namespace, priority and labels. */
  private final Map<PodSpec, Map<List<Object>, String>> templateTokens = new java.util.IdentityHashMap<>();
  private long templateSeq;

  /** A cluster over the given engine. */
  public SimCluster(EventQueue events, WaitRecorder waits) {
    this.events = events;
    this.clock = events.clock();
    this.waits = waits;
  }

  /**
   * A counter that changes whenever anything an observer of the API could see changed: a node added, Ready or
   * deleted, a pod created, bound, Ready, nominated or deleted.
   */
  public long version() {
    return version;
  }

  /** True while a pod marked for deletion is still there (its grace period runs on the clock). */
  public boolean anyTerminating() {
    return !terminating.isEmpty();
  }

  /** Records an observable change made outside this class (pod nominations, buffer statuses). */
  public void changed() {
    version++;
  }

  /** The engine. */
  public EventQueue events() {
    return events;
  }

  /** The clock. */
  public VirtualClock clock() {
    return clock;
  }

  /** The core snapshot mirroring Ready nodes and their bound pods. */
  public ClusterSnapshot placement() {
    return placement;
  }

  /** Called whenever something happened that may let a pending pod bind. */
  public void onSchedulingOpportunity(Runnable trigger) {
    this.schedulerTrigger = trigger;
  }

  /** Registers the controller that reacts when one of its pods disappears (keyed by owner name). */
  public void onPodGone(String owner, Consumer<SimPod> handler) {
    podGoneHandlers.put(owner, handler);
  }

  /** Registers a handler called when one of the owner's pods is bound to a node. */
  public void onPodBound(String owner, Consumer<SimPod> handler) {
    podBoundHandlers.put(owner, handler);
  }

  /** Registers a handler called when one of the owner's pods becomes Ready. */
  public void onPodReady(String owner, Consumer<SimPod> handler) {
    podReadyHandlers.put(owner, handler);
  }

  // ---- nodes ----

  /**
   * Adds a node in state PROVISIONING (the Node object exists, not Ready); {@code resumed} for a resumed standby
   * instance.
   */
  public SimNode addNode(Node node, String group, boolean resumed, Map<String, Long> allocatable) {
    SimNode n = new SimNode(node, group, clock.millis(), resumed, allocatable);
    nodes.put(n.name(), n);
    version++;
    return n;
  }

  /** Marks a node Ready: updates the Node object and lets pods bind to it. */
  public void nodeReady(SimNode n) {
    if (n.state() != SimNode.State.PROVISIONING) {
      return;
    }
    n.ready(clock.millis());
    version++;
    NodeObjects.markReady(n.node());
    placement.addNode(compiler.compile(n.node()));
    schedulerTrigger.run();
  }

  /** Deletes a node: its pods are evicted (their controllers recreate them). */
  public void deleteNode(SimNode n) {
    if (n.state() == SimNode.State.DELETED) {
      return;
    }
    for (String uid : new ArrayList<>(n.pods())) {
      SimPod p = pods.get(uid);
      if (p != null) {
        deletePod(p);
      }
    }
    if (n.ready()) {
      placement.removeNode(placement.nodeIndex(n.name()));
    }
    n.deleted(clock.millis());
    version++;
    nodes.remove(n.name());
    deletedNodes.add(n);
  }

  /** Live (not deleted) nodes by name. */
  public Collection<SimNode> nodes() {
    return Collections.unmodifiableCollection(nodes.values());
  }

  /** A live node by name, or null. */
  public SimNode node(String name) {
    return nodes.get(name);
  }

  /** Nodes deleted so far. */
  public List<SimNode> deletedNodes() {
    return Collections.unmodifiableList(deletedNodes);
  }

  // ---- pods ----

  /**
   * Creates a pending pod from a template.
   *
   * @param ownerKind controller kind of the owner reference ({@code ReplicaSet}, {@code Job})
   * @param ownerName controller name (also the pod name prefix)
   * @param ownerUid controller UID
   */
  public SimPod createPod(SimPod.Origin origin, String owner, String namespace, Map<String, String> labels,
      PodSpec template, int priority, String ownerKind, String ownerName, String ownerUid, String suffix) {
    return createPod(origin, owner, namespace, labels, template, priority, ownerKind, ownerName, ownerUid, suffix, false);
  }

  /**
   * Creates a pod; a {@code preexisting} one stands for a replica that was already running when the scenario
   * starts (see {@link SimPod#preexisting()}).
   */
  public SimPod createPod(SimPod.Origin origin, String owner, String namespace, Map<String, String> labels,
      PodSpec template, int priority, String ownerKind, String ownerName, String ownerUid, String suffix,
      boolean preexisting) {
    long seq = ++podSeq;
    PodSpec spec = PodSpecs.shallowCopy(template);
    spec.setPriority(priority);
    spec.setNodeName(null);
    // the object the builders would make (same fields and collection types), assembled without their copies
    OwnerReference ref = new OwnerReference();
    ref.setApiVersion(ownerKind.equals("Job") ? "batch/v1" : "apps/v1");
    ref.setKind(ownerKind);
    ref.setName(ownerName);
    ref.setUid(ownerUid);
    ref.setController(true);
    ObjectMeta meta = new ObjectMeta();
    meta.setName(ownerName + "-" + suffix);
    meta.setNamespace(namespace);
    meta.setUid(uid(seq));
    meta.setLabels(new LinkedHashMap<>(new TreeMap<>(labels)));
    meta.setOwnerReferences(new ArrayList<>(List.of(ref)));
    meta.setCreationTimestamp(VirtualClock.at(preexisting ? PREEXISTING_MILLIS : clock.millis()).toString());
    PodStatus status = new PodStatus();
    status.setPhase("Pending");
    Pod pod = new Pod();
    pod.setMetadata(meta);
    pod.setSpec(spec);
    pod.setStatus(status);
    SimPod p = new SimPod(seq, pod, origin, owner, priority, preexisting ? PREEXISTING_MILLIS : clock.millis(),
        EffectiveRequests.of(spec), preexisting);
    p.compiled(compiler.compile(pod));
    p.templateToken(templateTokens.computeIfAbsent(template, t -> new HashMap<>())
        .computeIfAbsent(List.of(namespace, priority, meta.getLabels()), k -> "template-" + (++templateSeq)));
    pods.put(p.uid(), p);
    liveNames.add(namespace + "/" + pod.getMetadata().getName());
    pending.put(p.uid(), p);
    podsByLabels.computeIfAbsent(namespace, k -> new LinkedHashMap<>())
        .computeIfAbsent(pod.getMetadata().getLabels(), k -> new LinkedHashMap<>()).put(p.uid(), p);
    p.watch(x -> {
      podChanges.changed(x.pod());
      podChanged(x);
      ownerChanged(x.owner());
      if (x.pod().getMetadata().getDeletionTimestamp() != null && x.state() != SimPod.State.GONE) {
        terminating.add(x.uid());
        podListChanged(x);
      }
    });
    podListChanged(p);
    podChanges.changed(pod);
    podChanged(p);
    ownerChanged(owner);
    version++;
    schedulerTrigger.run();
    return p;
  }

  /** {@code pod-%08d} of the sequence number. */
  private static String uid(long seq) {
    String digits = Long.toString(seq);
    return digits.length() >= 8 ? "pod-" + digits : "pod-" + "00000000".substring(digits.length()) + digits;
  }

  /** Binds a pending pod that the placement simulation has already placed on {@code nodeName}. */
  void bind(SimPod p, String nodeName, long startupMillis) {
    SimNode n = nodes.get(nodeName);
    p.bind(nodeName, clock.millis());
    pending.remove(p.uid());
    version++;
    n.add(p);
    boundByPriority.merge(p.priority(), 1, Integer::sum);
    if (p.real() && !p.preexisting()) {
      waits.record(p, p.boundAt() - p.createdAt(), true);
    }
    Consumer<SimPod> bound = podBoundHandlers.get(p.owner());
    if (bound != null) {
      bound.accept(p);
    }
    events.after(p.preexisting() ? 0 : startupMillis, Phase.LIFECYCLE, () -> {
      if (p.state() == SimPod.State.STARTING && nodeName.equals(p.node())) {
        p.ready(clock.millis());
        version++;
        Consumer<SimPod> handler = podReadyHandlers.get(p.owner());
        if (handler != null) {
          handler.accept(p);
        }
      }
    });
  }

  /** Deletes a pod (scale-in, eviction, preemption or completion) and notifies its controller. */
  public void deletePod(SimPod p) {
    if (p.state() == SimPod.State.GONE) {
      return;
    }
    boolean wasBound = p.node() != null;
    if (wasBound) {
      SimNode n = nodes.get(p.node());
      if (n != null) {
        n.remove(p);
      }
      placement.removePod(p.uid());
      boundByPriority.merge(p.priority(), -1, Integer::sum);
      if (boundByPriority.get(p.priority()) == 0) {
        boundByPriority.remove(p.priority());
      }
    } else if (p.real() && !p.preexisting()) {
      waits.record(p, clock.millis() - p.createdAt(), false);
    }
    p.gone();
    terminating.remove(p.uid());
    version++;
    pods.remove(p.uid());
    liveNames.remove(p.namespace() + "/" + p.pod().getMetadata().getName());
    pending.remove(p.uid());
    unindex(p);
    podListChanged(p);
    podChanges.deleted(p.pod());
    ownerChanged(p.owner());
    Consumer<SimPod> handler = podGoneHandlers.get(p.owner());
    if (handler != null) {
      handler.accept(p);
    }
    if (wasBound) {
      schedulerTrigger.run();
    }
  }

  /** The log of pod changes (creations, in-place changes, deletions), for the autoscaler's pod index. */
  public dev.headroom.core.autoscaler.PodChangeLog podChanges() {
    return podChanges;
  }

  /**
   * A random 5-character name suffix that no live pod {@code prefix-suffix} in the namespace has (a
   * controller's generated name is retried on a clash, as with the API server's AlreadyExists).
   */
  public String freeSuffix(String namespace, String prefix, dev.headroom.sim.engine.SimRandom names) {
    String suffix;
    do {
      suffix = names.suffix(5);
    } while (liveNames.contains(namespace + "/" + prefix + "-" + suffix));
    return suffix;
  }

  /**
   * A counter that changes whenever one of the owner's pods is created, changes state (bound, Ready, marked for
   * preemption) or is deleted.
   */
  public long ownerVersion(String owner) {
    long[] v = ownerVersions.get(owner);
    return v == null ? 0 : v[0];
  }

  private void ownerChanged(String owner) {
    ownerVersions.computeIfAbsent(owner, k -> new long[1])[0]++;
  }

  /**
   * Registers a listener told of every change to which pods {@link #pods(String, Predicate)} lists and whether
   * they carry a deletion timestamp: a pod was created, was deleted (state {@code GONE}), or is marked for
   * deletion (it may be told again of a marked pod). Pods never change labels, names or creation timestamps.
   */
  public void onPodListChange(Consumer<SimPod> listener) {
    podListListeners.add(listener);
  }

  /**
   * Registers a listener told of every pod created and every change of a live pod's object (bound, marked
   * unschedulable, nominated, Ready, marked for deletion), as an informer's add and update events are; the object is
   * changed in place, so a listener that needs the state before keeps it itself.
   */
  public void onPodChange(Consumer<SimPod> listener) {
    podChangeListeners.add(listener);
  }

  private void podChanged(SimPod p) {
    for (Consumer<SimPod> l : podChangeListeners) {
      l.accept(p);
    }
  }

  private void podListChanged(SimPod p) {
    for (Consumer<SimPod> l : podListListeners) {
      l.accept(p);
    }
  }

  /** Live pods in creation order. */
  public Collection<SimPod> pods() {
    return Collections.unmodifiableCollection(pods.values());
  }

  /**
   * Live pods of {@code namespace} whose label set satisfies {@code matches}, in creation order (the order of
   * {@link #pods()}). The predicate is evaluated once per distinct label set, not once per pod.
   */
  public List<SimPod> pods(String namespace, Predicate<Map<String, String>> matches) {
    Map<Map<String, String>, Map<String, SimPod>> groups = podsByLabels.get(namespace);
    if (groups == null) {
      return List.of();
    }
    List<Map<String, SimPod>> hits = new ArrayList<>();
    int size = 0;
    for (Map.Entry<Map<String, String>, Map<String, SimPod>> g : groups.entrySet()) {
      if (matches.test(g.getKey())) {
        hits.add(g.getValue());
        size += g.getValue().size();
      }
    }
    List<SimPod> out = new ArrayList<>(size);
    for (Map<String, SimPod> g : hits) {
      out.addAll(g.values());
    }
    if (hits.size() > 1) {
      // restore the cluster's order across label sets
      out.sort(Comparator.comparingLong(SimPod::seq));
    }
    return out;
  }

  private void unindex(SimPod p) {
    Map<Map<String, String>, Map<String, SimPod>> groups = podsByLabels.get(p.namespace());
    Map<String, String> labels = p.pod().getMetadata().getLabels();
    Map<String, SimPod> group = groups.get(labels);
    group.remove(p.uid());
    if (group.isEmpty()) {
      groups.remove(labels);
    }
  }

  /** Live pods that are not bound yet (state {@code PENDING}), in creation order. */
  public Collection<SimPod> pendingPods() {
    return Collections.unmodifiableCollection(pending.values());
  }

  /** A live pod by UID, or null. */
  public SimPod pod(String uid) {
    return pods.get(uid);
  }

  /** True when some bound pod has a priority below {@code priority} (preemption could help). */
  boolean hasBoundPodBelow(int priority) {
    return !boundByPriority.isEmpty() && boundByPriority.firstKey() < priority;
  }

  /** Pending real pods right now. */
  public int pendingRealPods() {
    int n = 0;
    for (SimPod p : pending.values()) {
      if (p.real()) {
        n++;
      }
    }
    return n;
  }
}
