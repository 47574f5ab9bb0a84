package dev.headroom.core.autoscaler.scaledown;

import dev.headroom.core.autoscaler.VirtualPods;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pod-level drain rules, in upstream order (autoscaler spec §4.4): the first decisive rule wins.
 * Controller-existence and min-replica checks (rule 3) need workload lookups and are not evaluated here.
 */
public final class DrainRules {

  public static final String MIRROR_ANNOTATION = dev.headroom.core.scheduling.SchedulingCompiler.MIRROR_POD_ANNOTATION;
  public static final String SAFE_TO_EVICT = VirtualPods.SAFE_TO_EVICT;
  public static final String SAFE_TO_EVICT_LOCAL_VOLUMES = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes";
  public static final String KUBE_SYSTEM = "kube-system";
  private static final Set<String> REPLICATED_KINDS = Set.of("ReplicationController", "Job", "ReplicaSet", "StatefulSet");

  private final boolean skipNodesWithSystemPods;
  private final boolean skipNodesWithLocalStorage;
  private final boolean skipNodesWithCustomControllerPods;

  public DrainRules(boolean skipNodesWithSystemPods, boolean skipNodesWithLocalStorage, boolean skipNodesWithCustomControllerPods) {
    this.skipNodesWithSystemPods = skipNodesWithSystemPods;
    this.skipNodesWithLocalStorage = skipNodesWithLocalStorage;
    this.skipNodesWithCustomControllerPods = skipNodesWithCustomControllerPods;
  }

  /**
   * Classifies one pod.
   *
   * @param pdbs PDBs with their remaining disruptions ({@link PdbBudget})
   */
  public Drainability classify(Pod pod, List<PdbBudget> pdbs, Instant now) {
    Map<String, String> ann = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
    if (ann.containsKey(MIRROR_ANNOTATION)) {
      return Drainability.SKIP;
    }
    if (terminatingPastGrace(pod, now)) {
      return Drainability.SKIP;
    }
    OwnerReference controller = controllerOf(pod);
    if (controller != null && "DaemonSet".equals(controller.getKind())) {
      return Drainability.DAEMON_SET;
    }
    String safe = ann.get(SAFE_TO_EVICT);
    if ("true".equals(safe)) {
      return Drainability.MOVABLE;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return Drainability.MOVABLE;
    }
    if ("on-completion".equals(safe)) {
      return new Drainability.Blocked(BlockingReason.BlockedByOnCompletionPod);
    }
    if (controller == null || (skipNodesWithCustomControllerPods && !REPLICATED_KINDS.contains(controller.getKind()))) {
      return new Drainability.Blocked(BlockingReason.NotReplicated);
    }
    String ns = pod.getMetadata().getNamespace();
    if (skipNodesWithSystemPods && KUBE_SYSTEM.equals(ns) && pdbs.stream().noneMatch(b -> b.matches(pod))) {
      return new Drainability.Blocked(BlockingReason.UnmovableKubeSystemPod);
    }
    if ("false".equals(safe)) {
      return new Drainability.Blocked(BlockingReason.NotSafeToEvictAnnotation);
    }
    if (skipNodesWithLocalStorage && hasUnlistedLocalStorage(pod, ann)) {
      return new Drainability.Blocked(BlockingReason.LocalStorageRequested);
    }
    for (PdbBudget b : pdbs) {
      if (b.matches(pod) && b.remaining() < 1) {
        return new Drainability.Blocked(BlockingReason.NotEnoughPdb);
      }
    }
    return Drainability.MOVABLE;
  }

  /** The pod's controller owner reference, or null. */
  public static OwnerReference controllerOf(Pod pod) {
    List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs == null) {
      return null;
    }
    for (OwnerReference r : refs) {
      if (Boolean.TRUE.equals(r.getController())) {
        return r;
      }
    }
    return null;
  }

  /** True for DaemonSet-controlled pods. */
  public static boolean isDaemonSetPod(Pod pod) {
    OwnerReference c = controllerOf(pod);
    return c != null && "DaemonSet".equals(c.getKind());
  }

  /** True for DaemonSet-controlled and mirror pods (left out of utilisation when DaemonSets are ignored). */
  public static boolean isDaemonSetOrMirrorPod(Pod pod) {
    return isDaemonSetPod(pod) || isMirrorPod(pod);
  }

  /** True for mirror (static) pods. */
  public static boolean isMirrorPod(Pod pod) {
    return pod.getMetadata().getAnnotations() != null && pod.getMetadata().getAnnotations().containsKey(MIRROR_ANNOTATION);
  }

  private static boolean terminatingPastGrace(Pod pod, Instant now) {
    String ts = pod.getMetadata().getDeletionTimestamp();
    if (ts == null) {
      return false;
    }
    long grace = pod.getSpec() != null && pod.getSpec().getTerminationGracePeriodSeconds() != null ? pod.getSpec().getTerminationGracePeriodSeconds() : 30;
    try {
      return OffsetDateTime.parse(ts).toInstant().plusSeconds(grace).isBefore(now);
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean hasUnlistedLocalStorage(Pod pod, Map<String, String> ann) {
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return false;
    }
    Set<String> allowed = new HashSet<>();
    String listed = ann.get(SAFE_TO_EVICT_LOCAL_VOLUMES);
    if (listed != null) {
      Arrays.stream(listed.split(",")).map(String::trim).forEach(allowed::add);
    }
    for (Volume v : pod.getSpec().getVolumes()) {
      boolean local = v.getHostPath() != null || (v.getEmptyDir() != null && !"Memory".equals(v.getEmptyDir().getMedium()));
      if (local && !allowed.contains(v.getName())) {
        return true;
      }
    }
    return false;
  }

  /** A PDB and the disruptions it still allows in this loop. */
  public static final class PdbBudget {
    private final PodDisruptionBudget pdb;
    private int remaining;

    public PdbBudget(PodDisruptionBudget pdb) {
      this.pdb = pdb;
      Integer allowed = pdb.getStatus() == null ? null : pdb.getStatus().getDisruptionsAllowed();
      this.remaining = allowed == null ? 0 : allowed;
    }

    public int remaining() {
      return remaining;
    }

    /** Consumes one disruption. */
    public void consume() {
      remaining--;
    }

    /** True when the PDB covers the pod (same namespace, selector matches). */
    public boolean matches(Pod pod) {
      if (!java.util.Objects.equals(pdb.getMetadata().getNamespace(), pod.getMetadata().getNamespace())) {
        return false;
      }
      LabelSelector sel = pdb.getSpec() == null ? null : pdb.getSpec().getSelector();
      if (sel == null) {
        return false;
      }
      return selectorMatches(sel, pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels());
    }
  }

  /** Set-based label selector matching ({@code matchLabels} AND {@code matchExpressions}). */
  public static boolean selectorMatches(LabelSelector sel, Map<String, String> labels) {
    if (sel.getMatchLabels() != null) {
      for (Map.Entry<String, String> e : sel.getMatchLabels().entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    if (sel.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : sel.getMatchExpressions()) {
        String v = labels.get(r.getKey());
        List<String> vals = r.getValues() == null ? List.of() : r.getValues();
        boolean ok = switch (r.getOperator()) {
          case "In" -> v != null && vals.contains(v);
          case "NotIn" -> v == null || !vals.contains(v);
          case "Exists" -> v != null;
          case "DoesNotExist" -> v == null;
          default -> false;
        };
        if (!ok) {
          return false;
        }
      }
    }
    return true;
  }
}
