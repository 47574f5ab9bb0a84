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
  private final long signature;
  private final int classId;

  CompiledPod(
      Pod pod,
      String namespace,
      String name,
      String uid,
      Map<String, String> labels,
      Map<String, Long> requestMap,
      long[] requests,
      String nodeName,
      NodeAffinityMatcher nodeAffinity,
      List<Toleration> tolerations,
      List<HostPort> hostPorts,
      List<AffinityTerm> affinity,
      List<AffinityTerm> antiAffinity,
      List<SpreadConstraint> spread,
      List<String> unsupported,
      boolean virtual,
      boolean terminating,
      int priority,
      String controllerUid,
      long signature,
      int classId) {
    this.pod = pod;
    this.namespace = namespace;
    this.name = name;
    this.uid = uid;
    this.labels = labels;
    this.requestMap = requestMap;
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
    this.nodeName = nodeName;
    this.nodeAffinity = nodeAffinity;
    this.tolerations = tolerations;
    this.hostPorts = hostPorts;
    this.affinity = affinity;
    this.antiAffinity = antiAffinity;
    this.spread = spread;
    this.unsupported = unsupported;
    this.virtual = virtual;
    this.terminating = terminating;
    this.priority = priority;
    this.controllerUid = controllerUid;
    this.signature = signature;
    this.classId = classId;
  }

  /** DaemonSet-controlled or mirror pod (set by the compiler from the owner reference and annotations). */
  private boolean daemonSetOrMirror;

  /** True for a DaemonSet-controlled or mirror (static) pod. */
  public boolean isDaemonSetOrMirror() {
    return daemonSetOrMirror;
  }

  CompiledPod daemonSetOrMirror(boolean b) {
    this.daemonSetOrMirror = b;
    return this;
  }

  /** The same compiled shape for another pod of identical scheduling inputs (only identity differs). */
  private CompiledPod(CompiledPod shape, Pod pod, String name, String uid, String controllerUid) {
    this.pod = pod;
    this.namespace = shape.namespace;
    this.name = name;
    this.uid = uid;
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
    this.controllerUid = controllerUid;
    this.signature = shape.signature;
    this.classId = shape.classId;
  }

  /** A pod that shares this one's compiled scheduling inputs (spec, namespace, labels, flags). */
  CompiledPod withIdentity(Pod pod, String name, String uid, String controllerUid) {
    return new CompiledPod(this, pod, name, uid, controllerUid);
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
