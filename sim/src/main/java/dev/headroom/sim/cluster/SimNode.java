package dev.headroom.sim.cluster;

import io.fabric8.kubernetes.api.model.Node;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** A node of the simulated cluster: the API object plus lifecycle, bound pods and request totals. */
public final class SimNode {

  /** Lifecycle states. */
  public enum State {
    /** Requested: the Node exists with {@code Ready=False} and the not-ready taint. */
    PROVISIONING,
    /** Ready: pods can bind. */
    READY,
    /** Deleted through the provider. */
    DELETED
  }

  private final Node node;
  private final String group;
  private final long requestedAt;
  private final boolean resumed;
  private final long allocCpu;
  private final long allocMem;
  private final Set<String> pods = new LinkedHashSet<>();
  private State state = State.PROVISIONING;
  private long readyAt = -1;
  private long deletedAt = -1;
  private long realCpu;
  private long realMem;

  SimNode(Node node, String group, long requestedAt, boolean resumed, Map<String, Long> allocatable) {
    this.node = node;
    this.group = group;
    this.requestedAt = requestedAt;
    this.resumed = resumed;
    this.allocCpu = allocatable.getOrDefault("cpu", 0L);
    this.allocMem = allocatable.getOrDefault("memory", 0L);
  }

  /** The Node API object. */
  public Node node() {
    return node;
  }

  /** Node name. */
  public String name() {
    return node.getMetadata().getName();
  }

  /** Node group id. */
  public String group() {
    return group;
  }

  /** Lifecycle state. */
  public State state() {
    return state;
  }

  /** True when pods may bind. */
  public boolean ready() {
    return state == State.READY;
  }

  /** Request time (ms). */
  public long requestedAt() {
    return requestedAt;
  }

  /** Ready time (ms) or -1. */
  public long readyAt() {
    return readyAt;
  }

  /** Deletion time (ms) or -1. */
  public long deletedAt() {
    return deletedAt;
  }

  /** True when the node is a resumed standby instance (Ready after its group's {@code standby.resumeDelay}). */
  public boolean resumed() {
    return resumed;
  }

  /** UIDs of pods bound to the node. */
  public Set<String> pods() {
    return pods;
  }

  /**
   * Requested utilisation by real (non-balloon) pods: the larger of the cpu and memory fractions of allocatable.
   */
  public double realUtilization() {
    double c = allocCpu > 0 ? (double) realCpu / allocCpu : 0;
    double m = allocMem > 0 ? (double) realMem / allocMem : 0;
    return Math.max(c, m);
  }

  void ready(long now) {
    state = State.READY;
    readyAt = now;
  }

  void deleted(long now) {
    state = State.DELETED;
    deletedAt = now;
  }

  void add(SimPod p) {
    pods.add(p.uid());
    if (p.real()) {
      realCpu += p.requests().getOrDefault("cpu", 0L);
      realMem += p.requests().getOrDefault("memory", 0L);
    }
  }

  void remove(SimPod p) {
    if (pods.remove(p.uid()) && p.real()) {
      realCpu -= p.requests().getOrDefault("cpu", 0L);
      realMem -= p.requests().getOrDefault("memory", 0L);
    }
  }
}
