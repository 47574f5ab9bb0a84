package dev.headroom.sim.cluster;

import dev.headroom.core.scheduling.CompiledPod;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * A pod of the simulated cluster: the API object the core sees plus the simulator's lifecycle bookkeeping.
 * Wait time is measured from creation to binding.
 */
public final class SimPod {

  /** What created the pod. */
  public enum Origin {
    /** A replica of a scenario workload. */
    WORKLOAD,
    /** A pod of a batch job. */
    JOB,
    /** A balloon (low-priority pause) pod of the balloon strategy. */
    BALLOON
  }

  /** Lifecycle states. */
  public enum State {
    /** Created, not bound. */
    PENDING,
    /** Bound, starting (not Ready yet). */
    STARTING,
    /** Ready and serving. */
    RUNNING,
    /** Deleted (evicted, preempted, scaled in or finished). */
    GONE
  }

  private final long seq;
  private final Pod pod;
  private final Origin origin;
  private final String owner;
  private final int priority;
  private final long createdAt;
  private final Map<String, Long> requests;
  private CompiledPod compiled;
  private State state = State.PENDING;
  private String node;
  private long boundAt = -1;
  private long readyAt = -1;
  private boolean preemptor;
  private boolean victim;
  private String nominatedNode;
  private boolean triedScheduling;
  private boolean preexisting;
  private Object adapterView;

  /** Told of every change to the pod object (the cluster's change log). */
  private java.util.function.Consumer<SimPod> changes = p -> {};

  void watch(java.util.function.Consumer<SimPod> listener) {
    this.changes = listener;
  }

  SimPod(long seq, Pod pod, Origin origin, String owner, int priority, long createdAt, Map<String, Long> requests,
      boolean preexisting) {
    this.seq = seq;
    this.preexisting = preexisting;
    this.pod = pod;
    this.origin = origin;
    this.owner = owner;
    this.priority = priority;
    this.createdAt = createdAt;
    this.requests = requests;
  }

  private String templateToken;

  /**
   * Equal for pods made from one template object with the same priority and labels: their labels, annotations
   * and spec (but {@code nodeName}) are equal and never change (see the mutators), so a buffer's template extracted
   * from one of them fits them all.
   */
  public String templateToken() {
    return templateToken;
  }

  void templateToken(String token) {
    this.templateToken = token;
  }

  /** Creation sequence number in the cluster (1, 2, ...): the order of {@link SimCluster#pods()}. */
  public long seq() {
    return seq;
  }

  /** The API object (mutated in place as the pod moves through its lifecycle). */
  public Pod pod() {
    return pod;
  }

  /** The pod compiled once for the core's predicates. */
  public CompiledPod compiled() {
    return compiled;
  }

  void compiled(CompiledPod c) {
    this.compiled = c;
  }

  /** The pod's UID. */
  public String uid() {
    return pod.getMetadata().getUid();
  }

  /** The pod's name. */
  public String name() {
    return pod.getMetadata().getName();
  }

  /** The pod's namespace. */
  public String namespace() {
    return pod.getMetadata().getNamespace();
  }

  /** What created the pod. */
  public Origin origin() {
    return origin;
  }

  /** True for pods that count in pod-wait statistics (everything except balloon pods). */
  public boolean real() {
    return origin != Origin.BALLOON;
  }

  /** Name of the owning workload, job or balloon deployment. */
  public String owner() {
    return owner;
  }

  /** Pod priority. */
  public int priority() {
    return priority;
  }

  /** Creation time (ms). */
  public long createdAt() {
    return createdAt;
  }

  /** Effective requests (milli-units), computed once by the core. */
  public Map<String, Long> requests() {
    return requests;
  }

  /** Lifecycle state. */
  public State state() {
    return state;
  }

  /** Bound node, or null. */
  public String node() {
    return node;
  }

  /** Binding time (ms), or -1. */
  public long boundAt() {
    return boundAt;
  }

  /** Ready time (ms), or -1. */
  public long readyAt() {
    return readyAt;
  }

  /** True when this pod had to preempt lower-priority pods to be bound. */
  public boolean preemptor() {
    return preemptor;
  }

  /** True while this pod is a preemption victim being terminated. */
  public boolean victim() {
    return victim;
  }

  /** The node nominated for this pod by preemption, or null. */
  public String nominatedNode() {
    return nominatedNode;
  }

  /**
   * True for pods that exist before the scenario starts (a workload's initial replicas): they bind and are
   * Ready at time zero, as if they had been running for an hour, and do not count in wait statistics.
   */
  public boolean preexisting() {
    return preexisting;
  }

  void preexisting(boolean b) {
    preexisting = b;
  }

  /**
   * What the adapter observing this pod (the workload autoscaler of its Deployment) cached about it, or null;
   * the adapter checks that it still matches the pod's state before reusing it.
   */
  public Object adapterView() {
    return adapterView;
  }

  /** Caches an adapter's view of this pod (see {@link #adapterView()}). */
  public void adapterView(Object view) {
    this.adapterView = view;
  }

  /** True once the scheduler tried and failed to place the pod (it is then marked unschedulable). */
  public boolean triedScheduling() {
    return triedScheduling;
  }

  void bind(String nodeName, long now) {
    state = State.STARTING;
    node = nodeName;
    boundAt = preexisting ? SimCluster.PREEXISTING_MILLIS : now;
    nominatedNode = null;
    pod.getSpec().setNodeName(nodeName);
    pod.getStatus().setNominatedNodeName(null);
    pod.getStatus().setPhase("Pending");
    PodConditions.setScheduled(pod, true, null);
    changes.accept(this);
  }

  void ready(long now) {
    state = State.RUNNING;
    readyAt = preexisting ? SimCluster.PREEXISTING_MILLIS : now;
    pod.getStatus().setPhase("Running");
    PodConditions.setReady(pod, true);
    changes.accept(this);
  }

  void gone() {
    state = State.GONE;
  }

  void markVictim(String deletionTimestamp) {
    victim = true;
    pod.getMetadata().setDeletionTimestamp(deletionTimestamp);
    changes.accept(this);
  }

  void nominate(String nodeName) {
    preemptor = true;
    nominatedNode = nodeName;
    pod.getStatus().setNominatedNodeName(nodeName);
    changes.accept(this);
  }

  void clearNomination() {
    nominatedNode = null;
    pod.getStatus().setNominatedNodeName(null);
    changes.accept(this);
  }

  void markUnschedulable(String message) {
    if (!triedScheduling) {
      triedScheduling = true;
      PodConditions.setScheduled(pod, false, message);
      changes.accept(this);
    }
  }
}
