package dev.headroom.core.autoscaler;

import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.CompiledNode;
import dev.headroom.core.scheduling.CompiledPod;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Compiled pods and nodes kept across autoscaler loops, so a loop compiles only what is new or changed
 * since the previous one. One cache per autoscaler (not thread-safe); each {@link SnapshotSimulation} built
 * from it opens a {@link Session} for its loop.
 *
 * <p>Entries are keyed by object identity and re-validated on every use against the state the compiled form
 * was built from: the pod's spec and metadata objects, its {@code spec.nodeName}, {@code deletionTimestamp},
 * resourceVersion, name, namespace and UID, and its label, annotation and owner-reference containers (by
 * reference); a node's resourceVersion (an unchanged non-empty one is enough), or else its name, labels,
 * taints, {@code unschedulable}, allocatable and capacity (quantities by reference). Pod spec fields other than {@code nodeName} and the contents of a pod's label/annotation maps must
 * not be changed in place without bumping resourceVersion: informers replace objects on change, and the
 * simulator builds a new spec for every pod and changes only the scalar fields above.
 *
 * <p>Entries not used for {@link #EVICT_AFTER_LOOPS} loops are dropped at the next sweep (every {@link #SWEEP_EVERY_LOOPS}
 * loops); the base snapshot kept for the next loop holds its compiled pods itself. The compiler (whose
 * interning and class tables only grow) is replaced with an empty one when it compiled far more objects than
 * are live, in the cache and in the base.
 */
public final class CompileCache {

  /** Loops an unused entry survives at least. */
  static final int EVICT_AFTER_LOOPS = 2;
  /** How often (in loops) stale entries are swept out; between sweeps they only cost memory. */
  static final int SWEEP_EVERY_LOOPS = 32;
  private static final int MIN_RESET_THRESHOLD = 4096;

  /** Which compiled form of an object an entry holds. */
  enum Kind {
    /** The object as it is. */
    AS_IS,
    /** A bound pod compiled without its {@code nodeName}. */
    DETACHED,
    /** A node's emptied, sanitized copy. */
    EMPTIED
  }

  private SchedulingCompiler compiler = new SchedulingCompiler();
  private int compiledSinceReset;
  private long loop;
  private final List<Map<Object, Entry<CompiledPod>>> pods = new ArrayList<>();
  private final List<Map<Object, Entry<CompiledNode>>> nodes = new ArrayList<>();
  /** Compiled forms of lists of pods nobody changes (virtual pods), by list object. */
  private final Map<List<Pod>, Entry<CompiledPod[]>> podLists = new IdentityHashMap<>();
  private Session current;
  private Base base;
  private long baseReuses;
  private long nodeChangesInPlace;

  /** Loads that took over the previous loop's snapshot instead of building one (diagnostics, tests). */
  long baseReuses() {
    return baseReuses;
  }

  /** Loads that took over the previous loop's snapshot and changed its nodes in place (diagnostics, tests). */
  long nodeChangesInPlace() {
    return nodeChangesInPlace;
  }

  /**
   * The snapshot a session loaded (nodes and their bound pods) and kept for the next loop: its compiler and
   * the compiled nodes it was loaded with, in order.
   */
  record Base(SchedulingCompiler compiler, List<CompiledNode> nodes, ClusterSnapshot snapshot) {}

  public CompileCache() {
    for (Kind k : Kind.values()) {
      pods.add(new IdentityHashMap<>());
      nodes.add(new IdentityHashMap<>());
    }
  }

  /** Starts a loop's session: evicts stale entries and, when it has grown too much, replaces the compiler. */
  Session begin() {
    loop++;
    if (loop % SWEEP_EVERY_LOOPS == 0) {
      sweep();
    }
    // across loops this cache (by pod identity) serves; the compiler's spec memo serves one loop's pods that share
    // a spec, and kept longer it would hold the specs of pods deleted since
    compiler.forgetSpecs();
    current = new Session(compiler);
    return current;
  }

  /** Drops entries unused for {@link #EVICT_AFTER_LOOPS} loops; replaces the compiler when it has grown too much. */
  private void sweep() {
    int live = 0;
    long oldest = loop - EVICT_AFTER_LOOPS;
    for (int i = 0; i < pods.size(); i++) {
      pods.get(i).values().removeIf(e -> e.lastUsed < oldest);
      nodes.get(i).values().removeIf(e -> e.lastUsed < oldest);
      live += pods.get(i).size() + nodes.get(i).size();
    }
    podLists.values().removeIf(e -> e.lastUsed < oldest);
    // the kept base snapshot holds compiled pods of its own (reused without a look-up here)
    if (base != null) {
      live += base.snapshot().podCount();
    }
    if (compiledSinceReset > Math.max(MIN_RESET_THRESHOLD, 4 * live)) {
      compiler = new SchedulingCompiler();
      base = null;
      compiledSinceReset = 0;
      for (int i = 0; i < pods.size(); i++) {
        pods.get(i).clear();
        nodes.get(i).clear();
      }
      podLists.clear();
    }
  }

  /** The compiled objects of one loop. */
  final class Session {
    private final SchedulingCompiler sessionCompiler;

    Session(SchedulingCompiler compiler) {
      this.sessionCompiler = compiler;
    }

    SchedulingCompiler compiler() {
      return sessionCompiler;
    }

    /** Entries may be read and written only by the cache's current session (an older one compiles afresh). */
    private boolean live() {
      return current == this;
    }

    /** The compiled form of {@code pod} of this kind, as {@code compile} gives it. */
    CompiledPod pod(Kind kind, Pod pod, Function<Pod, CompiledPod> compile) {
      if (!live()) {
        return compile.apply(pod);
      }
      Map<Object, Entry<CompiledPod>> map = pods.get(kind.ordinal());
      Entry<CompiledPod> e = map.get(pod);
      // an object is not changed during a loop: one validation per loop suffices
      if (e != null && (e.lastUsed == loop || ((PodStamp) e.stamp).matches(pod))) {
        e.lastUsed = loop;
        return e.value;
      }
      CompiledPod c = compile.apply(pod);
      compiledSinceReset++;
      map.put(pod, new Entry<>(PodStamp.of(pod), c, loop));
      return c;
    }

    /**
     * The compiled form of {@code pod} of this kind when the cache holds a current one (counted as a use, as
     * {@link #pod} counts it), else null; compiles nothing.
     */
    CompiledPod cachedPod(Kind kind, Pod pod) {
      if (!live()) {
        return null;
      }
      Entry<CompiledPod> e = pods.get(kind.ordinal()).get(pod);
      if (e != null && (e.lastUsed == loop || ((PodStamp) e.stamp).matches(pod))) {
        e.lastUsed = loop;
        return e.value;
      }
      return null;
    }

    /**
     * The compiled forms remembered for this very list, when it still holds the pods they were compiled from
     * (checked by identity, element by element); else null. For pods nobody changes once made: their own state is
     * not checked again.
     */
    CompiledPod[] cachedList(List<Pod> list) {
      if (!live()) {
        return null;
      }
      Entry<CompiledPod[]> e = podLists.get(list);
      if (e == null || e.value.length != list.size()) {
        return null;
      }
      CompiledPod[] c = e.value;
      for (int k = 0; k < c.length; k++) {
        if (c[k].pod() != list.get(k)) {
          return null;
        }
      }
      e.lastUsed = loop;
      return c;
    }

    /** Remembers {@code compiled}, element {@code k} the compiled form of {@code list.get(k)}. */
    void rememberList(List<Pod> list, CompiledPod[] compiled) {
      if (live()) {
        podLists.put(list, new Entry<>(null, compiled, loop));
      }
    }

    /**
     * The base the previous session kept, when this session may take it over (it is the next loop of the same
     * compiler); null otherwise.
     */
    Base previousBase() {
      return live() && base != null && base.compiler() == sessionCompiler ? base : null;
    }

    /** Counts a load that took over the previous base. */
    void reusedBase() {
      baseReuses++;
    }

    /** Counts a load that took over the previous base with changed nodes. */
    void changedNodesInPlace() {
      nodeChangesInPlace++;
    }

    /** Keeps {@code snapshot}, loaded with {@code nodes}, for the next session. */
    void keepBase(List<CompiledNode> loadedNodes, ClusterSnapshot snapshot) {
      if (live()) {
        base = new Base(sessionCompiler, loadedNodes, snapshot);
      }
    }

    /** The compiled form of {@code node} of this kind, as {@code compile} gives it. */
    CompiledNode node(Kind kind, Node node, Function<Node, CompiledNode> compile) {
      if (!live()) {
        return compile.apply(node);
      }
      Map<Object, Entry<CompiledNode>> map = nodes.get(kind.ordinal());
      Entry<CompiledNode> e = map.get(node);
      if (e != null && (e.lastUsed == loop || ((NodeStamp) e.stamp).matches(node))) {
        e.lastUsed = loop;
        return e.value;
      }
      CompiledNode c = compile.apply(node);
      compiledSinceReset++;
      map.put(node, new Entry<>(NodeStamp.of(node), c, loop));
      return c;
    }
  }

  /** A cached compiled form with the state of its source object when it was compiled. */
  private static final class Entry<T> {
    final Object stamp;
    final T value;
    long lastUsed;

    Entry(Object stamp, T value, long lastUsed) {
      this.stamp = stamp;
      this.value = value;
      this.lastUsed = lastUsed;
    }
  }

  /** The pod state a compiled pod depends on (containers by reference, scalars by value). */
  private record PodStamp(Object spec, Object meta, String nodeName, String deletion, String resourceVersion, String name,
      String namespace, String uid, Object labels, Object annotations, Object owners) {

    static PodStamp of(Pod p) {
      ObjectMeta m = p.getMetadata();
      String nodeName = p.getSpec() == null ? null : p.getSpec().getNodeName();
      if (m == null) {
        return new PodStamp(p.getSpec(), null, nodeName, null, null, null, null, null, null, null, null);
      }
      return new PodStamp(p.getSpec(), m, nodeName, m.getDeletionTimestamp(), m.getResourceVersion(), m.getName(),
          m.getNamespace(), m.getUid(), m.getLabels(), m.getAnnotations(), m.getOwnerReferences());
    }

    /** True when {@code p} is in the state this stamp was taken from (no allocation). */
    boolean matches(Pod p) {
      if (p.getSpec() != spec) {
        return false;
      }
      ObjectMeta m = p.getMetadata();
      if (m != meta) {
        return false;
      }
      String nn = spec == null ? null : p.getSpec().getNodeName();
      if (!Objects.equals(nodeName, nn)) {
        return false;
      }
      if (m == null) {
        return true;
      }
      return m.getLabels() == labels && m.getAnnotations() == annotations && m.getOwnerReferences() == owners
          && Objects.equals(deletion, m.getDeletionTimestamp()) && Objects.equals(resourceVersion, m.getResourceVersion())
          && Objects.equals(name, m.getName()) && Objects.equals(namespace, m.getNamespace()) && Objects.equals(uid, m.getUid());
    }
  }

  /**
   * The node state a compiled node depends on. A node with the same non-empty resourceVersion (and name) is
   * the same node: an API server writes a new version with every change, and the simulator does too.
   * Otherwise labels and taints are compared by value (they may have been edited in place), allocatable and
   * capacity entries by quantity reference (comparing quantities by value parses them).
   */
  private record NodeStamp(String resourceVersion, String name, Map<String, String> labels, List<Taint> taints, Boolean unschedulable,
      Map<String, Quantity> allocatable, Map<String, Quantity> capacity) {

    static NodeStamp of(Node n) {
      ObjectMeta m = n.getMetadata();
      List<Taint> taints = n.getSpec() == null || n.getSpec().getTaints() == null ? null : new ArrayList<>(n.getSpec().getTaints());
      Boolean unschedulable = n.getSpec() == null ? null : n.getSpec().getUnschedulable();
      Map<String, Quantity> alloc = n.getStatus() == null || n.getStatus().getAllocatable() == null ? null : new HashMap<>(n.getStatus().getAllocatable());
      Map<String, Quantity> cap = n.getStatus() == null || n.getStatus().getCapacity() == null ? null : new HashMap<>(n.getStatus().getCapacity());
      Map<String, String> labels = m == null || m.getLabels() == null ? null : new HashMap<>(m.getLabels());
      return new NodeStamp(m == null ? null : m.getResourceVersion(), m == null ? null : m.getName(), labels, taints, unschedulable,
          alloc, cap);
    }

    boolean matches(Node n) {
      ObjectMeta m = n.getMetadata();
      if (resourceVersion != null && !resourceVersion.isEmpty() && m != null && resourceVersion.equals(m.getResourceVersion())
          && Objects.equals(name, m.getName())) {
        // an API server writes a new resourceVersion with every change: same version, same node
        return true;
      }
      return Objects.equals(resourceVersion, m == null ? null : m.getResourceVersion())
          && Objects.equals(name, m == null ? null : m.getName())
          && Objects.equals(labels, m == null ? null : m.getLabels())
          && Objects.equals(taints, n.getSpec() == null ? null : n.getSpec().getTaints())
          && Objects.equals(unschedulable, n.getSpec() == null ? null : n.getSpec().getUnschedulable())
          && sameQuantities(allocatable, n.getStatus() == null ? null : n.getStatus().getAllocatable())
          && sameQuantities(capacity, n.getStatus() == null ? null : n.getStatus().getCapacity());
    }

    private static boolean sameQuantities(Map<String, Quantity> stamp, Map<String, Quantity> now) {
      if (stamp == null || now == null) {
        return stamp == now;
      }
      if (stamp.size() != now.size()) {
        return false;
      }
      for (Map.Entry<String, Quantity> e : now.entrySet()) {
        if (stamp.get(e.getKey()) != e.getValue()) {
          return false;
        }
      }
      return true;
    }
  }
}
