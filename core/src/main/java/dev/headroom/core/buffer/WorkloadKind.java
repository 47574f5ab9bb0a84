package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Optional;

/**
 * The five built-in workload kinds whose pod template the scalable-object path can read (spec §3.4).
 *
 * <p>[H-FIX] {@code ReplicationController} resolves with {@code apiGroup} {@code ""} and {@code core};
 * {@code apiGroup ""} is <em>not</em> defaulted to {@code apps} for the apps kinds.
 */
public enum WorkloadKind {
  DEPLOYMENT("apps", "Deployment", "deployments", Deployment.class),
  REPLICA_SET("apps", "ReplicaSet", "replicasets", ReplicaSet.class),
  STATEFUL_SET("apps", "StatefulSet", "statefulsets", StatefulSet.class),
  REPLICATION_CONTROLLER("", "ReplicationController", "replicationcontrollers", ReplicationController.class),
  JOB("batch", "Job", "jobs", Job.class);

  private final String group;
  private final String kind;
  private final String plural;
  private final Class<? extends HasMetadata> type;

  WorkloadKind(String group, String kind, String plural, Class<? extends HasMetadata> type) {
    this.group = group;
    this.kind = kind;
    this.plural = plural;
    this.type = type;
  }

  /** The API group ({@code ""} for the core group). */
  public String group() { return group; }

  /** The kind, e.g. {@code Deployment}. */
  public String kind() { return kind; }

  /** The resource plural, e.g. {@code deployments}. */
  public String plural() { return plural; }

  /** The fabric8 model class. */
  public Class<? extends HasMetadata> type() { return type; }

  /** The kind for a buffer's {@code scalableRef} {@code (apiGroup, kind)}, if built in. */
  public static Optional<WorkloadKind> resolve(String apiGroup, String kind) {
    String g = normaliseGroup(apiGroup);
    for (WorkloadKind k : values()) {
      if (k.group.equals(g) && k.kind.equals(kind)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** The kind of a fabric8 object, if it is one of the five. */
  public static Optional<WorkloadKind> of(HasMetadata object) {
    for (WorkloadKind k : values()) {
      if (k.type.isInstance(object)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** {@code null} and {@code "core"} become {@code ""}: the core group's real name. */
  public static String normaliseGroup(String apiGroup) {
    return apiGroup == null || apiGroup.equals("core") ? "" : apiGroup;
  }

  /** The not-found text of an object of this kind, e.g. {@code deployments.apps "x" not found}. */
  public String notFound(String name) {
    return NotFound.message(plural, group, name);
  }

  /**
   * The not-found text of a client-go lister for this kind, e.g. {@code deployment.apps "x" not found}: listers name
   * the resource by the lower-case kind ({@code errors.NewNotFound(apps.Resource("deployment"), name)}), and the
   * Cluster Autoscaler reads workloads through them, so this is the text its status carries after
   * {@code failed to get <Kind>: } (the {@code /scale} GET's error is the API server's, {@link #notFound}).
   */
  public String listerNotFound(String name) {
    return NotFound.message(kind.toLowerCase(java.util.Locale.ROOT), group, name);
  }

  /** {@code .spec.template}, or null when absent. */
  public PodTemplateSpec template(HasMetadata object) {
    return switch (this) {
      case DEPLOYMENT -> ((Deployment) object).getSpec() == null ? null : ((Deployment) object).getSpec().getTemplate();
      case REPLICA_SET -> ((ReplicaSet) object).getSpec() == null ? null : ((ReplicaSet) object).getSpec().getTemplate();
      case STATEFUL_SET -> ((StatefulSet) object).getSpec() == null ? null : ((StatefulSet) object).getSpec().getTemplate();
      case REPLICATION_CONTROLLER -> ((ReplicationController) object).getSpec() == null ? null : ((ReplicationController) object).getSpec().getTemplate();
      case JOB -> ((Job) object).getSpec() == null ? null : ((Job) object).getSpec().getTemplate();
    };
  }

  /** The fallback base: {@code .spec.replicas}, or {@code .spec.parallelism} for a Job; null when unset. */
  public Integer baseReplicas(HasMetadata object) {
    return switch (this) {
      case DEPLOYMENT -> ((Deployment) object).getSpec() == null ? null : ((Deployment) object).getSpec().getReplicas();
      case REPLICA_SET -> ((ReplicaSet) object).getSpec() == null ? null : ((ReplicaSet) object).getSpec().getReplicas();
      case STATEFUL_SET -> ((StatefulSet) object).getSpec() == null ? null : ((StatefulSet) object).getSpec().getReplicas();
      case REPLICATION_CONTROLLER -> ((ReplicationController) object).getSpec() == null ? null : ((ReplicationController) object).getSpec().getReplicas();
      case JOB -> ((Job) object).getSpec() == null ? null : ((Job) object).getSpec().getParallelism();
    };
  }

  /**
   * The {@code /scale} view the API server would serve for this object: {@code status.replicas} (0 when
   * absent) and the spec selector in string form. Empty for a Job, which has no {@code /scale}.
   */
  public Optional<ScaleView> scaleOf(HasMetadata object) {
    return switch (this) {
      case DEPLOYMENT -> {
        Deployment d = (Deployment) object;
        yield Optional.of(new ScaleView(
            d.getStatus() == null || d.getStatus().getReplicas() == null ? 0 : d.getStatus().getReplicas(),
            d.getSpec() == null ? "" : SelectorExpression.of(d.getSpec().getSelector()).toString()));
      }
      case REPLICA_SET -> {
        ReplicaSet r = (ReplicaSet) object;
        yield Optional.of(new ScaleView(
            r.getStatus() == null || r.getStatus().getReplicas() == null ? 0 : r.getStatus().getReplicas(),
            r.getSpec() == null ? "" : SelectorExpression.of(r.getSpec().getSelector()).toString()));
      }
      case STATEFUL_SET -> {
        StatefulSet s = (StatefulSet) object;
        yield Optional.of(new ScaleView(
            s.getStatus() == null || s.getStatus().getReplicas() == null ? 0 : s.getStatus().getReplicas(),
            s.getSpec() == null ? "" : SelectorExpression.of(s.getSpec().getSelector()).toString()));
      }
      case REPLICATION_CONTROLLER -> {
        ReplicationController rc = (ReplicationController) object;
        LabelSelector selector = new LabelSelector(null, rc.getSpec() == null ? null : rc.getSpec().getSelector());
        yield Optional.of(new ScaleView(
            rc.getStatus() == null || rc.getStatus().getReplicas() == null ? 0 : rc.getStatus().getReplicas(),
            SelectorExpression.of(selector).toString()));
      }
      case JOB -> Optional.empty();
    };
  }
}
