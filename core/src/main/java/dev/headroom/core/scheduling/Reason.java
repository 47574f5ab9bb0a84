package dev.headroom.core.scheduling;

/**
 * Why a pod does not fit a node: one row of the predicate table (autoscaler spec §2.3), with the exact
 * scheduler wording and whether the failure can be remembered for the pod's equivalence class.
 *
 * <p>{@link Durability} is the heart of the class memo ("never re-check a node a class already failed"):
 * <ul>
 *   <li>{@link Durability#STATIC} failures depend only on the node and the pod (labels, taints, name,
 *       unschedulable flag, missing topology labels); they hold for as long as the node exists.
 *   <li>{@link Durability#MONOTONE} failures can only get worse while pods are <em>added</em> to the
 *       snapshot: requested resources, pod count and used host ports only grow on the node; anti-affinity
 *       counts (the pod's own terms and the existing pods' terms) only grow anywhere. They hold until a pod
 *       is removed from the snapshot (any removal drops every monotone memo entry).
 *   <li>{@link Durability#VOLATILE} failures may turn into passes when pods are added: required pod
 *       affinity (a matching pod may arrive in the domain) and topology-spread skew (the minimum over the
 *       domains may rise). They are never memoised.
 * </ul>
 */
public enum Reason {
  /** Row 1, NodeUnschedulable. */
  NODE_UNSCHEDULABLE("node(s) were unschedulable", Durability.STATIC),
  /** Row 2, NodeName. */
  NODE_NAME("node(s) didn't match the requested node name", Durability.STATIC),
  /** Row 3, TaintToleration; the message names the first untolerated taint. */
  UNTOLERATED_TAINT("node(s) had untolerated taint {%s: %s}", Durability.STATIC),
  /** Row 4, NodeAffinity (nodeSelector and required node affinity). */
  NODE_AFFINITY("node(s) didn't match Pod's node affinity/selector", Durability.STATIC),
  /** Row 5, NodePorts. */
  NODE_PORTS("node(s) didn't have free ports for the requested pod ports", Durability.MONOTONE),
  /** Row 6, NodeResourcesFit, pod count. */
  TOO_MANY_PODS("Too many pods", Durability.MONOTONE),
  /** Row 6, NodeResourcesFit, one resource; the message names the resource. */
  INSUFFICIENT_RESOURCE("Insufficient %s", Durability.MONOTONE),
  /** Row 7, InterPodAffinity: the node lacks a topology key of a required affinity term. */
  POD_AFFINITY_MISSING_KEY("node(s) didn't match pod affinity rules", Durability.STATIC),
  /** Row 7, InterPodAffinity: no matching pod in the node's domain. */
  POD_AFFINITY("node(s) didn't match pod affinity rules", Durability.VOLATILE),
  /** Row 7, InterPodAffinity: a pod matching one of the pod's anti-affinity terms is in the domain. */
  POD_ANTI_AFFINITY("node(s) didn't match pod anti-affinity rules", Durability.MONOTONE),
  /** Row 7, InterPodAffinity: an existing pod's anti-affinity term rejects the incoming pod. */
  EXISTING_ANTI_AFFINITY("node(s) didn't satisfy existing pods anti-affinity rules", Durability.MONOTONE),
  /** Row 8, PodTopologySpread: the skew would exceed maxSkew. */
  TOPOLOGY_SPREAD("node(s) didn't match pod topology spread constraints", Durability.VOLATILE),
  /** Row 8, PodTopologySpread: the node lacks one of the constraints' topology keys. */
  TOPOLOGY_SPREAD_MISSING_LABEL(
      "node(s) didn't match pod topology spread constraints (missing required label)", Durability.STATIC),
  /** The pod uses a field the simulation does not implement; it never fits anywhere. */
  UNSUPPORTED("unsupported: %s", Durability.STATIC);

  /** How long a failure stays true; see the type comment. */
  public enum Durability {
    /** Holds while the node exists. */
    STATIC,
    /** Holds until a pod is removed from the snapshot. */
    MONOTONE,
    /** May change whenever a pod is added. */
    VOLATILE
  }

  private final String template;
  private final Durability durability;

  Reason(String template, Durability durability) {
    this.template = template;
    this.durability = durability;
  }

  /** The message template ({@code %s} placeholders for taint key/value, resource name or field). */
  public String template() {
    return template;
  }

  /** How long a failure with this reason stays true. */
  public Durability durability() {
    return durability;
  }

  /** The message with its placeholders filled. */
  public String message(Object... args) {
    return args.length == 0 ? template : String.format(template, args);
  }
}
