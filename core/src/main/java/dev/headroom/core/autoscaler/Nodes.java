package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Node and pod facts the iteration reads, and template sanitising (autoscaler spec §3.9). */
public final class Nodes {

  public static final String TO_BE_DELETED_TAINT = "ToBeDeletedByClusterAutoscaler";
  public static final String DELETION_CANDIDATE_TAINT = "DeletionCandidateOfClusterAutoscaler";
  public static final String SCALE_DOWN_DISABLED = "cluster-autoscaler.kubernetes.io/scale-down-disabled";
  public static final String HEADROOM_SCALE_DOWN_DISABLED = "headroom.dev/scale-down-disabled";
  /** Annotation {@code plan} reads to seed a node's unneeded-since timer (RFC 3339). */
  public static final String UNNEEDED_SINCE = "headroom.dev/unneeded-since";
  /** Annotation marking when a provider requested a node (RFC 3339). */
  public static final String REQUESTED_AT = "headroom.dev/requested-at";
  /**
   * Annotation of a standby node (docs/standby-capacity.md), set by the node provider: {@link #STANDBY_PREPARING}
   * (created, initialising, to be suspended), {@link #STANDBY_SUSPENDED} (unschedulable and not Ready; a scale-up
   * resumes it) or {@link #STANDBY_RESUMING} (resumed: counted in its group's size, turns Ready after the group's
   * {@code standby.resumeDelay}). The first two are standby nodes ({@link #isStandby}); a resumed node is an upcoming one.
   */
  public static final String STANDBY = "headroom.dev/standby";
  public static final String STANDBY_PREPARING = "preparing";
  public static final String STANDBY_SUSPENDED = "suspended";
  public static final String STANDBY_RESUMING = "resuming";
  /** When a provider resumed a standby node (RFC 3339), on a {@link #STANDBY_RESUMING} node: its start-up begins then. */
  public static final String RESUME_REQUESTED_AT = "headroom.dev/resume-requested-at";
  /** Taint a standby node carries while preparing or suspended (key {@link #STANDBY}, value the state, NoSchedule). */
  public static final String STANDBY_TAINT = STANDBY;

  /** True when {@code n} is a standby node by its {@link #STANDBY} annotation (preparing or suspended). */
  public static boolean isStandby(Node n) {
    java.util.Map<String, String> a = n.getMetadata() == null ? null : n.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(STANDBY);
    return STANDBY_PREPARING.equals(v) || STANDBY_SUSPENDED.equals(v);
  }

  private static final Set<String> CONDITION_TAINTS = Set.of(
      "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable", "node.kubernetes.io/unschedulable",
      "node.kubernetes.io/memory-pressure", "node.kubernetes.io/disk-pressure", "node.kubernetes.io/network-unavailable",
      "node.kubernetes.io/pid-pressure", "node.kubernetes.io/out-of-service", "node.cloudprovider.kubernetes.io/uninitialized");
  private static final List<String> IGNORED_TAINT_PREFIXES = List.of(
      "startup-taint.cluster-autoscaler.kubernetes.io/", "status-taint.cluster-autoscaler.kubernetes.io/",
      "ignore-taint.cluster-autoscaler.kubernetes.io/");

  private Nodes() {}

  /** Node condition Ready=True. */
  public static boolean isReady(Node n) {
    if (n.getStatus() == null || n.getStatus().getConditions() == null) {
      return false;
    }
    for (NodeCondition c : n.getStatus().getConditions()) {
      if ("Ready".equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }

  /** Node carries the to-be-deleted taint. */
  public static boolean isBeingDeleted(Node n) {
    if (n.getSpec() == null || n.getSpec().getTaints() == null) {
      return false;
    }
    for (io.fabric8.kubernetes.api.model.Taint t : n.getSpec().getTaints()) {
      if (TO_BE_DELETED_TAINT.equals(t.getKey())) {
        return true;
      }
    }
    return false;
  }

  /** {@code spec.unschedulable}. */
  public static boolean isCordoned(Node n) {
    return n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
  }

  /** Scale-down disabled by annotation (CA's or Headroom's alias). */
  public static boolean scaleDownDisabled(Node n) {
    Map<String, String> a = n.getMetadata().getAnnotations();
    return a != null && ("true".equals(a.get(SCALE_DOWN_DISABLED)) || "true".equals(a.get(HEADROOM_SCALE_DOWN_DISABLED)));
  }

  /** Parses an RFC 3339 timestamp, empty when absent or malformed. */
  public static Optional<Instant> time(String ts) {
    if (ts == null || ts.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(ts).toInstant());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The node's creation time. */
  public static Optional<Instant> created(Node n) {
    return time(n.getMetadata().getCreationTimestamp());
  }

  /**
   * When the node's start-up began, the time its {@code maxNodeStartupTime} counts from: its creation, or for a
   * resumed standby node ({@link #STANDBY_RESUMING} with {@link #RESUME_REQUESTED_AT}) the resume, since a node kept
   * suspended for longer than the start-up time is not late because of it.
   */
  public static Optional<Instant> startedAt(Node n) {
    java.util.Map<String, String> a = n.getMetadata() == null ? null : n.getMetadata().getAnnotations();
    if (a != null && STANDBY_RESUMING.equals(a.get(STANDBY))) {
      Optional<Instant> resumed = time(a.get(RESUME_REQUESTED_AT));
      if (resumed.isPresent()) {
        return resumed;
      }
    }
    return created(n);
  }

  /** The pod's creation time. */
  public static Optional<Instant> created(Pod p) {
    return time(p.getMetadata().getCreationTimestamp());
  }

  /** Effective priority of a pod ({@code spec.priority}, 0 when unset). */
  public static int priority(Pod p) {
    return p.getSpec() == null || p.getSpec().getPriority() == null ? 0 : p.getSpec().getPriority();
  }

  /**
   * A sanitised copy of a template or sample node under a new name: {@code kubernetes.io/hostname} = name,
   * autoscaler, node-condition and startup taints dropped, Ready.
   */
  public static Node sanitizedCopy(Node source, String name) {
    Node n = new io.fabric8.kubernetes.api.model.NodeBuilder(source).build();
    if (n.getMetadata() == null) {
      n.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    }
    n.getMetadata().setName(name);
    n.getMetadata().setUid(null);
    n.getMetadata().setResourceVersion(null);
    n.getMetadata().setCreationTimestamp(null);
    Map<String, String> labels = new LinkedHashMap<>(n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels());
    labels.put(NodeGroupLabels.HOSTNAME, name);
    n.getMetadata().setLabels(labels);
    if (n.getSpec() == null) {
      n.setSpec(new io.fabric8.kubernetes.api.model.NodeSpec());
    }
    n.getSpec().setProviderID(null);
    n.getSpec().setUnschedulable(null);
    List<Taint> taints = new ArrayList<>();
    if (n.getSpec().getTaints() != null) {
      for (Taint t : n.getSpec().getTaints()) {
        String k = t.getKey();
        if (TO_BE_DELETED_TAINT.equals(k) || DELETION_CANDIDATE_TAINT.equals(k) || CONDITION_TAINTS.contains(k)
            || IGNORED_TAINT_PREFIXES.stream().anyMatch(k::startsWith)) {
          continue;
        }
        taints.add(t);
      }
    }
    n.getSpec().setTaints(taints);
    if (n.getStatus() == null) {
      n.setStatus(new io.fabric8.kubernetes.api.model.NodeStatus());
    }
    if (n.getStatus().getAllocatable() == null || n.getStatus().getAllocatable().isEmpty()) {
      n.getStatus().setAllocatable(n.getStatus().getCapacity());
    }
    NodeCondition ready = new NodeCondition();
    ready.setType("Ready");
    ready.setStatus("True");
    n.getStatus().setConditions(new ArrayList<>(List.of(ready)));
    return n;
  }
}
