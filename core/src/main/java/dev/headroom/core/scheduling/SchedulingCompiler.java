package dev.headroom.core.scheduling;

import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compiles fabric8 {@link Pod}s and {@link Node}s into the compact forms the {@link ClusterSnapshot}
 * works on, once per object.
 *
 * <p>One compiler owns one {@link ResourceIds} table, the label-map and taint-set interners and the
 * equivalence-class table; every pod and node used in one snapshot must come from the same compiler.
 * Not thread-safe (the core is single-threaded per loop).
 *
 * <p>Unsupported fields are collected into {@link CompiledPod#unsupported()} (as dotted field paths),
 * never silently dropped: DRA {@code spec.resourceClaims}, {@code spec.schedulingGroup},
 * {@code matchLabelKeys}/{@code mismatchLabelKeys} on pod (anti-)affinity terms, unknown selector,
 * toleration and spread operators/policies, and {@code matchFields} keys other than {@code metadata.name}.
 * Preferred (soft) affinity and {@code ScheduleAnyway} spread constraints do not filter and are ignored.
 */
public final class SchedulingCompiler {

  /**
   * Annotation that marks a CapacityBuffer virtual pod (value {@link #CA_FAKE_POD_VALUE}; capacitybuffer spec §7.4), the
   * Cluster Autoscaler's marker, which {@code autoscaler.VirtualPods} writes. The one definition of the markers: the
   * compiler (lowest of the users) reads them, everything above through {@link #isVirtual(Map)}.
   */
  public static final String CA_FAKE_POD_ANNOTATION = "podType";
  /** Value of {@link #CA_FAKE_POD_ANNOTATION} on virtual pods. */
  public static final String CA_FAKE_POD_VALUE = "capacityBufferFakePod";
  /** Karpenter's virtual-pod annotation (value "true"), recognised when reading. */
  public static final String KARPENTER_FAKE_POD_ANNOTATION = "karpenter.sh/capacity-buffer-fake-pod";

  /** True iff these pod annotations carry a virtual-pod marker (the CA's or Karpenter's). */
  public static boolean isVirtual(Map<String, String> annotations) {
    return CA_FAKE_POD_VALUE.equals(annotations.get(CA_FAKE_POD_ANNOTATION))
        || "true".equals(annotations.get(KARPENTER_FAKE_POD_ANNOTATION));
  }
  /** Taint key that marks cordoned nodes; tolerating it lets a pod onto an unschedulable node. */
  public static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

  private final ResourceIds resources = new ResourceIds();
  private final Map<Map<String, String>, Map<String, String>> labelMaps = new HashMap<>();
  private final Map<List<Taint>, Integer> taintGroups = new HashMap<>();
  private final Map<Long, List<ClassEntry>> classes = new HashMap<>();
  private final List<SchedulingKey> classKeys = new ArrayList<>();
  private final Map<String, Map<String, String>> namespaceLabels;

  private record ClassEntry(SchedulingKey key, int id) {}

  /**
   * Compiled pods by spec instance: pods that share one {@link PodSpec} object (the virtual pods of one buffer,
   * pods a generator or informer built from one template) and have equal namespace, labels and flags are
   * compiled once; only their identity (name, UID, controller) differs. The core never mutates specs.
   * Each memo holds at most {@link #SPEC_MEMO_LIMIT} specs and starts over when full: a spec per pod (informer
   * objects, the simulator's pods) never hits. A memo entry holds the compiled shape without its identity, so it
   * keeps no pod alive, only the spec it is keyed by; a long-lived caller ends the memo's scope with
   * {@link #forgetSpecs()} (the autoscaler's compile cache does at every loop: a cluster's informer objects would
   * otherwise keep up to {@value #SPEC_MEMO_LIMIT} specs of pods long deleted, the soak's heap growth of issue #28).
   */
  private final Map<PodSpec, CompiledPod> shapesBySpecInstance = new java.util.IdentityHashMap<>();
  /** As {@link #shapesBySpecInstance}, for pods compiled without their {@code spec.nodeName}. */
  private final Map<PodSpec, CompiledPod> detachedShapesBySpecInstance = new java.util.IdentityHashMap<>();
  /** Most specs a spec-instance memo holds before it starts over. */
  static final int SPEC_MEMO_LIMIT = 4096;

  /** The identity a memo entry carries: none, so the memo keeps no pod alive. */
  private static final CompiledPod.Identity NO_IDENTITY = new CompiledPod.Identity(null, "", "", null, false);

  /**
   * Empties the spec-instance memos: pods compiled from now on share a compiled shape only with pods compiled after
   * this call. Everything else the compiler holds (resource IDs, interned labels, equivalence classes) stays, so
   * classes and vectors compiled before and after remain comparable.
   */
  public void forgetSpecs() {
    shapesBySpecInstance.clear();
    detachedShapesBySpecInstance.clear();
  }

  /** Specs the attached and the detached memo hold (diagnostics, tests). */
  public int specMemoSize() {
    return Math.max(shapesBySpecInstance.size(), detachedShapesBySpecInstance.size());
  }

  /** True when a memo entry refers to a pod (tests: none should). */
  boolean specMemoHoldsPods() {
    return java.util.stream.Stream.concat(shapesBySpecInstance.values().stream(), detachedShapesBySpecInstance.values().stream())
        .anyMatch(c -> c.pod() != null);
  }

  /**
   * Everything the predicates read from a pod; equal keys mean one equivalence class.
   *
   * @param namespace namespace ("default" when unset)
   * @param labels interned labels
   * @param requests effective requests by resource name in milli-units
   * @param node the node-level constraints
   * @param interPod the inter-pod constraints
   * @param unsupported fields the simulation does not implement
   * @param terminating the pod has a deletion timestamp
   */
  record SchedulingKey(
      String namespace,
      Map<String, String> labels,
      Map<String, Long> requests,
      CompiledPod.NodeConstraints node,
      CompiledPod.InterPodConstraints interPod,
      List<String> unsupported,
      boolean terminating) {

    long hash() {
      long h = Signature.of(namespace);
      h = Signature.seq(h, Signature.of(labels));
      h = Signature.seq(h, Signature.of(requests));
      h = Signature.seq(h, Signature.of(node.nodeName()));
      h = Signature.seq(h, Signature.any(node.nodeAffinity()));
      h = Signature.seq(h, Signature.ofSet(node.tolerations()));
      h = Signature.seq(h, Signature.ofList(node.hostPorts()));
      h = Signature.seq(h, Signature.ofList(interPod.affinity()));
      h = Signature.seq(h, Signature.ofList(interPod.antiAffinity()));
      h = Signature.seq(h, Signature.ofList(interPod.spread()));
      h = Signature.seq(h, Signature.ofList(unsupported));
      return Signature.seq(h, terminating ? 1 : 2);
    }
  }

  /** A compiler without namespace labels (a non-empty {@code namespaceSelector} then matches nothing). */
  public SchedulingCompiler() {
    this(Map.of());
  }

  /** A compiler that resolves {@code namespaceSelector}s against these namespace labels. */
  public SchedulingCompiler(Map<String, Map<String, String>> namespaceLabels) {
    this.namespaceLabels = Map.copyOf(namespaceLabels);
  }

  /** The resource-ID table of every vector this compiler produced. */
  public ResourceIds resources() {
    return resources;
  }

  /** Labels of a namespace (empty when unknown). */
  public Map<String, String> namespaceLabels(String namespace) {
    return namespaceLabels.getOrDefault(namespace, Map.of());
  }

  /** Number of equivalence classes seen so far. */
  public int classCount() {
    return classKeys.size();
  }

  /** Compiles a node. */
  public CompiledNode compile(Node node) {
    ObjectMeta meta = node.getMetadata() == null ? new ObjectMeta() : node.getMetadata();
    String name = meta.getName() == null ? "" : meta.getName();
    Map<String, String> labels = intern(meta.getLabels());
    Map<String, Quantity> alloc = null;
    if (node.getStatus() != null) {
      alloc = node.getStatus().getAllocatable();
      if (alloc == null || alloc.isEmpty()) {
        alloc = node.getStatus().getCapacity();
      }
    }
    long maxPods = Long.MAX_VALUE;
    TreeMap<Integer, Long> values = new TreeMap<>();
    if (alloc != null) {
      for (Map.Entry<String, Quantity> e : alloc.entrySet()) {
        long milli = Quantities.milli(e.getValue());
        if (ResourceIds.PODS.equals(e.getKey())) {
          maxPods = milli / 1000;
        } else {
          values.put(resources.idOf(e.getKey()), milli);
        }
      }
    }
    long[] vector = new long[resources.size()];
    values.forEach((id, v) -> vector[id] = v);
    boolean unschedulable = false;
    List<Taint> taints = new ArrayList<>();
    if (node.getSpec() != null) {
      unschedulable = Boolean.TRUE.equals(node.getSpec().getUnschedulable());
      if (node.getSpec().getTaints() != null) {
        for (io.fabric8.kubernetes.api.model.Taint t : node.getSpec().getTaints()) {
          Taint c = new Taint(t.getKey(), t.getValue(), t.getEffect());
          if (c.filters()) {
            taints.add(c);
          }
        }
      }
    }
    List<Taint> taintList = List.copyOf(taints);
    int group = taintGroups.computeIfAbsent(taintList, k -> taintGroups.size());
    return new CompiledNode(node, name, labels, vector, maxPods, unschedulable, taintList, group, null);
  }

  /** Annotation of mirror (static) pods. */
  public static final String MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

  /** The key a compiled pod is known by in a snapshot: its UID, or namespace/name when it has none. */
  public static String uidOf(Pod pod) {
    return uidOf(pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata());
  }

  private static String uidOf(ObjectMeta meta) {
    if (meta.getUid() != null && !meta.getUid().isEmpty()) {
      return meta.getUid();
    }
    String namespace = meta.getNamespace() == null || meta.getNamespace().isEmpty() ? "default" : meta.getNamespace();
    return namespace + "/" + (meta.getName() == null ? "" : meta.getName());
  }

  /** Compiles a pod. */
  public CompiledPod compile(Pod pod) {
    return compile(pod, false);
  }

  /**
   * Compiles a bound pod as if it had no {@code spec.nodeName}: the form in which it is moved to another node
   * (NodeName does not pin it). {@link CompiledPod#pod()} is {@code pod} itself; no copy of the pod is made.
   */
  public CompiledPod compileDetached(Pod pod) {
    return compile(pod, true);
  }

  private CompiledPod compile(Pod pod, boolean detached) {
    ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
    PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
    String namespace = meta.getNamespace() == null || meta.getNamespace().isEmpty() ? "default" : meta.getNamespace();
    String name = meta.getName() == null ? "" : meta.getName();
    String uid = uidOf(meta);
    Map<String, String> labels = intern(meta.getLabels());
    boolean terminating = terminating(meta);
    Map<String, String> ann = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    boolean virtual = isVirtual(ann);
    String controller = null;
    boolean daemonSetOrMirror = ann.containsKey(MIRROR_POD_ANNOTATION);
    if (meta.getOwnerReferences() != null) {
      for (OwnerReference o : meta.getOwnerReferences()) {
        if (Boolean.TRUE.equals(o.getController())) {
          controller = o.getUid();
          daemonSetOrMirror |= "DaemonSet".equals(o.getKind());
          break;
        }
      }
    }
    Map<PodSpec, CompiledPod> shapes = detached ? detachedShapesBySpecInstance : shapesBySpecInstance;
    CompiledPod same = shapes.get(spec);
    CompiledPod.Identity identity = new CompiledPod.Identity(pod, name, uid, controller, daemonSetOrMirror);
    String specNodeName = detached || spec.getNodeName() == null || spec.getNodeName().isEmpty() ? null : spec.getNodeName();
    if (same != null && same.namespace().equals(namespace) && same.labels() == labels && same.isVirtual() == virtual
        && same.isTerminating() == terminating && java.util.Objects.equals(same.nodeName(), specNodeName)) {
      return same.withIdentity(identity);
    }
    CompiledPod compiled = compileShape(identity, spec, specNodeName, namespace, labels, terminating, virtual);
    if (same == null && pod.getSpec() != null) {
      if (shapes.size() >= SPEC_MEMO_LIMIT) {
        shapes.clear();
      }
      shapes.put(spec, compiled.withIdentity(NO_IDENTITY));
    }
    return compiled;
  }

  /** The detached class of an attached one: its key without the nodeName, that key's signature and class. */
  private record DetachedClass(SchedulingKey key, long signature, int classId) {}

  /** Detached classes by the class id of the attached form they were derived from ({@link #detachedOf}). */
  private final Map<Integer, DetachedClass> detachedClasses = new HashMap<>();

  /**
   * What {@link #compileDetached} gives for the pod {@code attached} was compiled from (by this compiler, as the
   * pod is, with its {@code spec.nodeName}), derived from that compiled form instead of the spec: the detached
   * form differs from the attached one in the nodeName of its key alone, so its requests, constraints and
   * priority are the attached form's, and its class follows from the attached class (kept per class, so a
   * class's pods compute it once). {@code SchedulingCompilerTest} checks it against {@link #compileDetached}.
   */
  public CompiledPod detachedOf(CompiledPod attached) {
    DetachedClass d = detachedClasses.get(attached.classId());
    if (d == null) {
      SchedulingKey key = new SchedulingKey(attached.namespace(), attached.labels(), attached.requestMap(),
          new CompiledPod.NodeConstraints(null, attached.nodeAffinity(), attached.tolerations(), attached.hostPorts()),
          new CompiledPod.InterPodConstraints(attached.affinity(), attached.antiAffinity(), attached.spread()),
          attached.unsupported(), attached.isTerminating());
      long signature = key.hash();
      d = new DetachedClass(key, signature, classOf(signature, key));
      detachedClasses.put(attached.classId(), d);
    }
    long[] requests = attached.requestVector();
    if (requests.length != resources.size()) {
      // a fresh compilation sizes the vector by the resources known now
      requests = java.util.Arrays.copyOf(requests, resources.size());
    }
    CompiledPod.Identity identity = new CompiledPod.Identity(attached.pod(), attached.name(), attached.uid(),
        attached.controllerUid(), attached.isDaemonSetOrMirror());
    return new CompiledPod(identity, d.key(), requests, attached.isVirtual(), attached.priority(), d.signature(), d.classId());
  }

  /** True when the object carries a deletion timestamp: a terminating pod, as {@link CompiledPod#isTerminating()} reads it. */
  public static boolean terminating(ObjectMeta meta) {
    return meta != null && meta.getDeletionTimestamp() != null && !meta.getDeletionTimestamp().isEmpty();
  }

  private CompiledPod compileShape(CompiledPod.Identity identity, PodSpec spec, String nodeName, String namespace,
      Map<String, String> labels, boolean terminating, boolean virtual) {
    List<String> unsupported = new ArrayList<>();

    Map<String, Long> requestMap = EffectiveRequests.of(spec);
    for (String r : requestMap.keySet()) {
      if (!ResourceIds.PODS.equals(r)) {
        resources.idOf(r);
      }
    }
    long[] requests = new long[resources.size()];
    requestMap.forEach(
        (r, v) -> {
          if (!ResourceIds.PODS.equals(r)) {
            requests[resources.idOf(r)] = v;
          }
        });

    if (spec.getResourceClaims() != null && !spec.getResourceClaims().isEmpty()) {
      unsupported.add("spec.resourceClaims");
    }
    if (spec.getSchedulingGroup() != null) {
      unsupported.add("spec.schedulingGroup");
    }

    NodeAffinityMatcher nodeAffinity = nodeAffinity(spec, unsupported);
    List<Toleration> tolerations = tolerations(spec, unsupported);
    List<HostPort> ports = hostPorts(spec);
    List<AffinityTerm> affinity = List.of();
    List<AffinityTerm> anti = List.of();
    Affinity a = spec.getAffinity();
    if (a != null && a.getPodAffinity() != null) {
      affinity = terms(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), namespace, "podAffinity", unsupported);
    }
    if (a != null && a.getPodAntiAffinity() != null) {
      anti = terms(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), namespace, "podAntiAffinity", unsupported);
    }
    List<SpreadConstraint> spread = spread(spec, labels, unsupported);
    List<String> unsupportedList = List.copyOf(new LinkedHashSet<>(unsupported));
    SchedulingKey key =
        new SchedulingKey(
            namespace, labels, requestMap, new CompiledPod.NodeConstraints(nodeName, nodeAffinity, tolerations, ports),
            new CompiledPod.InterPodConstraints(affinity, anti, spread), unsupportedList, terminating);
    long signature = key.hash();
    int classId = classOf(signature, key);
    int priority = spec.getPriority() == null ? 0 : spec.getPriority();
    return new CompiledPod(identity, key, requests, virtual, priority, signature, classId);
  }

  private int classOf(long signature, SchedulingKey key) {
    List<ClassEntry> entries = classes.computeIfAbsent(signature, s -> new ArrayList<>(1));
    for (ClassEntry e : entries) {
      if (e.key().equals(key)) {
        return e.id();
      }
    }
    int id = classKeys.size();
    classKeys.add(key);
    entries.add(new ClassEntry(key, id));
    return id;
  }

  private Map<String, String> intern(Map<String, String> labels) {
    if (labels == null || labels.isEmpty()) {
      return Map.of();
    }
    Map<String, String> found = labelMaps.get(labels);
    if (found != null) {
      return found;
    }
    Map<String, String> copy = Map.copyOf(labels);
    labelMaps.put(copy, copy);
    return copy;
  }

  private static NodeAffinityMatcher nodeAffinity(PodSpec spec, List<String> unsupported) {
    Map<String, String> selector = spec.getNodeSelector() == null ? Map.of() : spec.getNodeSelector();
    List<NodeAffinityMatcher.Term> terms = null;
    Affinity a = spec.getAffinity();
    if (a != null && a.getNodeAffinity() != null) {
      NodeSelector required = a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
      if (required != null) {
        terms = new ArrayList<>();
        String path = "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution";
        for (NodeSelectorTerm t : nullSafe(required.getNodeSelectorTerms())) {
          List<NodeAffinityMatcher.Requirement> reqs = new ArrayList<>();
          for (NodeSelectorRequirement r : nullSafe(t.getMatchExpressions())) {
            NodeAffinityMatcher.Op op = nodeOp(r.getOperator());
            if (op == null) {
              unsupported.add(path + ".matchExpressions.operator " + r.getOperator());
              continue;
            }
            reqs.add(new NodeAffinityMatcher.Requirement(r.getKey(), op, Set.copyOf(nullSafe(r.getValues())), false));
          }
          for (NodeSelectorRequirement r : nullSafe(t.getMatchFields())) {
            NodeAffinityMatcher.Op op = nodeOp(r.getOperator());
            if (!"metadata.name".equals(r.getKey()) || op == null) {
              unsupported.add(path + ".matchFields " + r.getKey() + " " + r.getOperator());
              continue;
            }
            reqs.add(new NodeAffinityMatcher.Requirement(r.getKey(), op, Set.copyOf(nullSafe(r.getValues())), true));
          }
          terms.add(new NodeAffinityMatcher.Term(reqs));
        }
      }
    }
    if (selector.isEmpty() && terms == null) {
      return NodeAffinityMatcher.ANY;
    }
    return new NodeAffinityMatcher(selector, terms);
  }

  private static NodeAffinityMatcher.Op nodeOp(String op) {
    if (op == null) {
      return null;
    }
    return switch (op) {
      case "In" -> NodeAffinityMatcher.Op.IN;
      case "NotIn" -> NodeAffinityMatcher.Op.NOT_IN;
      case "Exists" -> NodeAffinityMatcher.Op.EXISTS;
      case "DoesNotExist" -> NodeAffinityMatcher.Op.DOES_NOT_EXIST;
      case "Gt" -> NodeAffinityMatcher.Op.GT;
      case "Lt" -> NodeAffinityMatcher.Op.LT;
      default -> null;
    };
  }

  private static List<Toleration> tolerations(PodSpec spec, List<String> unsupported) {
    List<Toleration> out = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.Toleration t : nullSafe(spec.getTolerations())) {
      String op = t.getOperator() == null ? "" : t.getOperator();
      boolean exists;
      if (op.isEmpty() || op.equals("Equal")) {
        exists = false;
      } else if (op.equals("Exists")) {
        exists = true;
      } else {
        unsupported.add("tolerations.operator " + op);
        continue;
      }
      out.add(new Toleration(t.getKey(), exists, t.getValue(), t.getEffect()));
    }
    return List.copyOf(out);
  }

  private static List<HostPort> hostPorts(PodSpec spec) {
    List<HostPort> out = new ArrayList<>();
    boolean hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());
    List<Container> containers = new ArrayList<>(nullSafe(spec.getContainers()));
    for (Container ic : nullSafe(spec.getInitContainers())) {
      if ("Always".equals(ic.getRestartPolicy())) {
        containers.add(ic);
      }
    }
    for (Container c : containers) {
      for (ContainerPort p : nullSafe(c.getPorts())) {
        Integer hp = p.getHostPort();
        if ((hp == null || hp == 0) && hostNetwork && p.getContainerPort() != null) {
          hp = p.getContainerPort();
        }
        if (hp != null && hp != 0) {
          out.add(new HostPort(p.getHostIP(), p.getProtocol(), hp));
        }
      }
    }
    return List.copyOf(out);
  }

  private List<AffinityTerm> terms(List<PodAffinityTerm> terms, String namespace, String path, List<String> unsupported) {
    List<AffinityTerm> out = new ArrayList<>();
    String p = path + ".requiredDuringSchedulingIgnoredDuringExecution";
    for (PodAffinityTerm t : nullSafe(terms)) {
      if (t.getMatchLabelKeys() != null && !t.getMatchLabelKeys().isEmpty()) {
        unsupported.add(p + ".matchLabelKeys");
      }
      if (t.getMismatchLabelKeys() != null && !t.getMismatchLabelKeys().isEmpty()) {
        unsupported.add(p + ".mismatchLabelKeys");
      }
      LabelSelectorMatcher selector = selector(t.getLabelSelector(), p + ".labelSelector", unsupported);
      LabelSelector nsSel = t.getNamespaceSelector();
      List<String> namespaces = nullSafe(t.getNamespaces());
      boolean all = false;
      LabelSelectorMatcher nsMatcher = null;
      Set<String> nsSet;
      if (nsSel != null && isEmpty(nsSel)) {
        all = true;
        nsSet = Set.copyOf(namespaces);
      } else if (nsSel != null) {
        nsMatcher = selector(nsSel, p + ".namespaceSelector", unsupported);
        nsSet = Set.copyOf(namespaces);
      } else {
        nsSet = namespaces.isEmpty() ? Set.of(namespace) : Set.copyOf(namespaces);
      }
      String key = t.getTopologyKey() == null ? "" : t.getTopologyKey();
      out.add(new AffinityTerm(nsSet, all, nsMatcher, selector, key));
    }
    return List.copyOf(out);
  }

  private static boolean isEmpty(LabelSelector s) {
    return (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
        && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
  }

  private static LabelSelectorMatcher selector(LabelSelector s, String path, List<String> unsupported) {
    if (s == null) {
      return LabelSelectorMatcher.NOTHING;
    }
    List<LabelSelectorMatcher.Requirement> reqs = new ArrayList<>();
    if (s.getMatchLabels() != null) {
      new TreeMap<>(s.getMatchLabels())
          .forEach((k, v) -> reqs.add(new LabelSelectorMatcher.Requirement(k, LabelSelectorMatcher.Op.IN, Set.of(v))));
    }
    for (LabelSelectorRequirement r : nullSafe(s.getMatchExpressions())) {
      LabelSelectorMatcher.Op op =
          r.getOperator() == null
              ? null
              : switch (r.getOperator()) {
                case "In" -> LabelSelectorMatcher.Op.IN;
                case "NotIn" -> LabelSelectorMatcher.Op.NOT_IN;
                case "Exists" -> LabelSelectorMatcher.Op.EXISTS;
                case "DoesNotExist" -> LabelSelectorMatcher.Op.DOES_NOT_EXIST;
                default -> null;
              };
      if (op == null) {
        unsupported.add(path + ".matchExpressions.operator " + r.getOperator());
        continue;
      }
      reqs.add(new LabelSelectorMatcher.Requirement(r.getKey(), op, Set.copyOf(nullSafe(r.getValues()))));
    }
    return reqs.isEmpty() ? LabelSelectorMatcher.EVERYTHING : new LabelSelectorMatcher(reqs, false);
  }

  private static List<SpreadConstraint> spread(PodSpec spec, Map<String, String> labels, List<String> unsupported) {
    List<SpreadConstraint> out = new ArrayList<>();
    String path = "topologySpreadConstraints";
    for (TopologySpreadConstraint c : nullSafe(spec.getTopologySpreadConstraints())) {
      String when = c.getWhenUnsatisfiable() == null ? "DoNotSchedule" : c.getWhenUnsatisfiable();
      if (when.equals("ScheduleAnyway")) {
        continue;
      }
      if (!when.equals("DoNotSchedule")) {
        unsupported.add(path + ".whenUnsatisfiable " + when);
        continue;
      }
      LabelSelectorMatcher sel = selector(c.getLabelSelector(), path + ".labelSelector", unsupported);
      if (c.getMatchLabelKeys() != null && !c.getMatchLabelKeys().isEmpty() && !sel.matchesNothing()) {
        List<LabelSelectorMatcher.Requirement> reqs = new ArrayList<>(sel.requirements());
        for (String k : c.getMatchLabelKeys()) {
          String v = labels.get(k);
          if (v != null) {
            reqs.add(new LabelSelectorMatcher.Requirement(k, LabelSelectorMatcher.Op.IN, Set.of(v)));
          }
        }
        sel = new LabelSelectorMatcher(reqs, false);
      }
      String affinityPolicy = c.getNodeAffinityPolicy() == null ? "Honor" : c.getNodeAffinityPolicy();
      String taintsPolicy = c.getNodeTaintsPolicy() == null ? "Ignore" : c.getNodeTaintsPolicy();
      if (!affinityPolicy.equals("Honor") && !affinityPolicy.equals("Ignore")) {
        unsupported.add(path + ".nodeAffinityPolicy " + affinityPolicy);
        continue;
      }
      if (!taintsPolicy.equals("Honor") && !taintsPolicy.equals("Ignore")) {
        unsupported.add(path + ".nodeTaintsPolicy " + taintsPolicy);
        continue;
      }
      int maxSkew = c.getMaxSkew() == null ? 1 : c.getMaxSkew();
      int minDomains = c.getMinDomains() == null ? 1 : c.getMinDomains();
      String key = c.getTopologyKey() == null ? "" : c.getTopologyKey();
      out.add(new SpreadConstraint(maxSkew, key, sel, minDomains, affinityPolicy.equals("Honor"), taintsPolicy.equals("Honor")));
    }
    return List.copyOf(out);
  }

  private static <T> List<T> nullSafe(List<T> list) {
    return list == null ? List.of() : list;
  }
}
