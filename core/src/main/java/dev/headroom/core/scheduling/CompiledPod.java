package dev.headroom.core.scheduling;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * A pod compiled once for scheduling simulation by {@link SchedulingCompiler#compile(Pod)}: effective
 * requests as a dense milli-unit vector over the compiler's {@link ResourceIds}, interned labels and every
 * filtering constraint parsed. The original fabric8 object stays reachable through {@link #pod()} for
 * reporting.
 *
 * <p>{@link #classId()} identifies the pod's <em>scheduling equivalence class</em>: two pods of one compiler
 * get the same ID exactly when every input of the predicates is equal (namespace, labels, requests,
 * nodeName, node selector/affinity, tolerations, host ports, affinity terms, spread constraints,
 * unsupported fields, terminating flag). {@link #signature()} is the 64-bit hash of those inputs; the
 * compiler confirms equality on collision, so equal IDs never come from a hash collision alone.
 */
public final class CompiledPod {

  /**
   * Who the pod is: the only inputs in which pods of one compiled shape differ ({@link #withIdentity}).
   *
   * @param pod the original fabric8 pod
   * @param name pod name
   * @param uid UID, or namespace/name when the pod has none
   * @param controllerUid UID of the controlling owner reference, or null
   * @param daemonSetOrMirror DaemonSet-controlled (owner reference) or mirror (annotation) pod
   */
  record Identity(Pod pod, String name, String uid, String controllerUid, boolean daemonSetOrMirror) {}

  /**
   * What the pod asks of one node on its own: NodeName, NodeAffinity, TaintToleration and NodePorts read these.
   *
   * @param nodeName {@code spec.nodeName}, or null
   * @param nodeAffinity node selector and required node affinity
   * @param tolerations tolerations
   * @param hostPorts requested host ports (containers, and restartable init containers)
   */
  record NodeConstraints(String nodeName, NodeAffinityMatcher nodeAffinity, List<Toleration> tolerations,
      List<HostPort> hostPorts) {}

  /**
   * What the pod asks of the pods around it: InterPodAffinity and PodTopologySpread read these.
   *
   * @param affinity required pod-affinity terms
   * @param antiAffinity required pod-anti-affinity terms
   * @param spread DoNotSchedule topology spread constraints
   */
  record InterPodConstraints(List<AffinityTerm> affinity, List<AffinityTerm> antiAffinity, List<SpreadConstraint> spread) {}

  // Flat final fields: the filters read them for every pod and node they test.
  private final Pod pod;
  private final String namespace;
  private final String name;
  private final String uid;
  private final Map<String, String> labels;
  private final Map<String, Long> requestMap;
  private final long[] requests;
  private final int[] requestIds;
  private final String nodeName;
  private final NodeAffinityMatcher nodeAffinity;
  private final List<Toleration> tolerations;
  private final List<HostPort> hostPorts;
  private final List<AffinityTerm> affinity;
  private final List<AffinityTerm> antiAffinity;
  private final List<SpreadConstraint> spread;
  private final List<String> unsupported;
  private final boolean virtual;
  private final boolean terminating;
  private final int priority;
  private final String controllerUid;
  private final boolean daemonSetOrMirror;
  private final long signature;
  private final int classId;

  /**
   * A compiled pod.
   *
   * @param identity who the pod is
   * @param inputs everything the predicates read (the equivalence-class key)
   * @param requests {@code inputs.requests()} as a dense vector over the compiler's {@link ResourceIds}
   * @param virtual a CapacityBuffer virtual pod
   * @param priority {@code spec.priority} (0 when unset)
   * @param signature {@code inputs.hash()}
   * @param classId the equivalence class of {@code inputs}
   */
  CompiledPod(Identity identity, SchedulingCompiler.SchedulingKey inputs, long[] requests, boolean virtual, int priority,
      long signature, int classId) {
    this.pod = identity.pod();
    this.name = identity.name();
    this.uid = identity.uid();
    this.controllerUid = identity.controllerUid();
    this.daemonSetOrMirror = identity.daemonSetOrMirror();
    this.namespace = inputs.namespace();
    this.labels = inputs.labels();
    this.requestMap = inputs.requests();
    this.requests = requests;
    int n = 0;
    for (long r : requests) {
      if (r > 0) {
        n++;
      }
    }
    this.requestIds = new int[n];
    n = 0;
    for (int i = 0; i < requests.length; i++) {
      if (requests[i] > 0) {
        requestIds[n++] = i;
      }
    }
    NodeConstraints node = inputs.node();
    this.nodeName = node.nodeName();
    this.nodeAffinity = node.nodeAffinity();
    this.tolerations = node.tolerations();
    this.hostPorts = node.hostPorts();
    InterPodConstraints interPod = inputs.interPod();
    this.affinity = interPod.affinity();
    this.antiAffinity = interPod.antiAffinity();
    this.spread = interPod.spread();
    this.unsupported = inputs.unsupported();
    this.terminating = inputs.terminating();
    this.virtual = virtual;
    this.priority = priority;
    this.signature = signature;
    this.classId = classId;
  }

  /** True for a DaemonSet-controlled or mirror (static) pod. */
  public boolean isDaemonSetOrMirror() {
    return daemonSetOrMirror;
  }

  /** The same compiled shape for another pod of identical scheduling inputs (only identity differs). */
  private CompiledPod(CompiledPod shape, Identity identity) {
    this.pod = identity.pod();
    this.name = identity.name();
    this.uid = identity.uid();
    this.controllerUid = identity.controllerUid();
    this.daemonSetOrMirror = identity.daemonSetOrMirror();
    this.namespace = shape.namespace;
    this.labels = shape.labels;
    this.requestMap = shape.requestMap;
    this.requests = shape.requests;
    this.requestIds = shape.requestIds;
    this.nodeName = shape.nodeName;
    this.nodeAffinity = shape.nodeAffinity;
    this.tolerations = shape.tolerations;
    this.hostPorts = shape.hostPorts;
    this.affinity = shape.affinity;
    this.antiAffinity = shape.antiAffinity;
    this.spread = shape.spread;
    this.unsupported = shape.unsupported;
    this.virtual = shape.virtual;
    this.terminating = shape.terminating;
    this.priority = shape.priority;
    this.signature = shape.signature;
    this.classId = shape.classId;
  }

  /** A pod that shares this one's compiled scheduling inputs (spec, namespace, labels, flags). */
  CompiledPod withIdentity(Identity identity) {
    return new CompiledPod(this, identity);
  }

  /** The original fabric8 pod. */
  public Pod pod() {
    return pod;
  }

  /** Namespace ("default" when unset). */
  public String namespace() {
    return namespace;
  }

  /** Pod name. */
  public String name() {
    return name;
  }

  /** UID, or namespace/name when the pod has none. */
  public String uid() {
    return uid;
  }

  /** Interned, unmodifiable labels. */
  public Map<String, String> labels() {
    return labels;
  }

  /** Effective requests by resource name in milli-units ({@code EffectiveRequests.of}). */
  public Map<String, Long> requestMap() {
    return requestMap;
  }

  /** Effective request of resource {@code id} in milli-units (0 when absent). Do not modify the array. */
  public long request(int id) {
    return id < requests.length ? requests[id] : 0;
  }

  /** Dense request vector by resource ID (shared; never modify). */
  long[] requestVector() {
    return requests;
  }

  /** IDs of the resources with a positive request (shared; never modify). */
  int[] requestIds() {
    return requestIds;
  }

  /** {@code spec.nodeName}, or null. */
  public String nodeName() {
    return nodeName;
  }

  /** Node selector and required node affinity. */
  public NodeAffinityMatcher nodeAffinity() {
    return nodeAffinity;
  }

  /** Tolerations. */
  public List<Toleration> tolerations() {
    return tolerations;
  }

  /** Requested host ports (containers, and restartable init containers). */
  public List<HostPort> hostPorts() {
    return hostPorts;
  }

  /** Required pod-affinity terms. */
  public List<AffinityTerm> affinity() {
    return affinity;
  }

  /** Required pod-anti-affinity terms. */
  public List<AffinityTerm> antiAffinity() {
    return antiAffinity;
  }

  /** DoNotSchedule topology spread constraints. */
  public List<SpreadConstraint> spread() {
    return spread;
  }

  /** Fields the simulation does not implement; non-empty makes the pod unschedulable everywhere. */
  public List<String> unsupported() {
    return unsupported;
  }

  /** True when no unsupported field was found. */
  public boolean isSupported() {
    return unsupported.isEmpty();
  }

  /** True for a CapacityBuffer virtual pod (CA or Karpenter marker annotation). */
  public boolean isVirtual() {
    return virtual;
  }

  /** True when the pod has a deletion timestamp (excluded from spread counts). */
  public boolean isTerminating() {
    return terminating;
  }

  /** {@code spec.priority} (0 when unset). */
  public int priority() {
    return priority;
  }

  /** UID of the controlling owner reference, or null. */
  public String controllerUid() {
    return controllerUid;
  }

  /** 64-bit hash of every predicate input. */
  public long signature() {
    return signature;
  }

  /** Scheduling equivalence class (dense, in first-seen order per compiler). */
  public int classId() {
    return classId;
  }

  /** True when the pod has required (anti-)affinity or spread constraints. */
  public boolean hasInterPodConstraints() {
    return !affinity.isEmpty() || !antiAffinity.isEmpty() || !spread.isEmpty();
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
