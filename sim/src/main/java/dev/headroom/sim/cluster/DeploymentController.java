package dev.headroom.sim.cluster;

import dev.headroom.sim.engine.EventQueue.Phase;
import dev.headroom.sim.engine.SimRandom;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Deployment with one ReplicaSet, as kube-controller-manager runs it: keeps the number of live pods at
 * {@code spec.replicas}, recreating deleted ones and removing surplus ones in the ReplicaSet's order
 * (pending first, then starting, then the newest running). Its API object (with {@code status.replicas}) is
 * what the buffer controller reads through its cluster view.
 */
public final class DeploymentController {

  private final SimCluster cluster;
  private final SimRandom names;
  private final SimPod.Origin origin;
  private final String name;
  private final String namespace;
  private final int priority;
  private final PodSpec podSpec;
  private final Map<String, String> labels;
  private final String replicaSetName;
  private final String replicaSetUid;
  private final Deployment deployment;
  private final List<SimPod> live = new ArrayList<>();
  private int desired;
  private int ready;
  private boolean queued;

  /** A Deployment with {@code replicas} initial replicas; call {@link #reconcile()} to create its pods. */
  public DeploymentController(SimCluster cluster, SimRandom names, SimPod.Origin origin, String name, String namespace,
      int priority, PodSpec podSpec, int replicas) {
    this.cluster = cluster;
    this.names = names;
    this.origin = origin;
    this.name = name;
    this.namespace = namespace;
    this.priority = priority;
    this.podSpec = podSpec;
    this.desired = replicas;
    this.labels = new TreeMap<>(Map.of("app", name));
    String hash = names.suffix(10);
    this.replicaSetName = name + "-" + hash;
    this.replicaSetUid = "rs-" + namespace + "-" + name;
    this.deployment = new DeploymentBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).withUid("deploy-" + namespace + "-" + name)
        .withGeneration(1L).endMetadata()
        .withNewSpec().withReplicas(replicas).withNewSelector().withMatchLabels(labels).endSelector()
        .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata().withSpec(podSpec).endTemplate()
        .endSpec()
        .withNewStatus().withReplicas(0).withObservedGeneration(1L).endStatus()
        .build();
    cluster.onPodGone(name, p -> {
      live.remove(p);
      if (p.readyAt() != -1) { // it had become Ready (pre-existing pods are Ready before time zero)
        ready--;
      }
      queueReconcile();
    });
    cluster.onPodReady(name, p -> ready++);
  }

  /** The Deployment name. */
  public String name() {
    return name;
  }

  /** The namespace. */
  public String namespace() {
    return namespace;
  }

  /** The API object as the buffer controller reads it. */
  public Deployment deployment() {
    return deployment;
  }

  /** Pod labels (and the selector). */
  public Map<String, String> labels() {
    return labels;
  }

  /** {@code spec.replicas}. */
  public int desired() {
    return desired;
  }

  /** Live pods. */
  public List<SimPod> pods() {
    return live;
  }

  /** Changes whenever {@link #pods()} or the state of one of them changes. */
  public long podsVersion() {
    return cluster.ownerVersion(name);
  }

  /** Number of Ready (serving) pods, counted as they become Ready and disappear. */
  public int readyReplicas() {
    return ready;
  }

  /** Sets {@code spec.replicas} (the workload autoscaler's write) and reconciles. */
  public void scale(int replicas) {
    if (replicas != desired) {
      desired = replicas;
      deployment.getSpec().setReplicas(replicas);
      deployment.getMetadata().setGeneration(deployment.getMetadata().getGeneration() + 1);
      reconcile();
    }
  }

  private void queueReconcile() {
    if (!queued) {
      queued = true;
      cluster.events().after(0, Phase.CONTROLLER, () -> {
        queued = false;
        reconcile();
      });
    }
  }

  /**
   * Creates the initial replicas as pods that were already running before the scenario starts: they bind
   * on the first scheduling pass and are Ready at once.
   */
  public void bootstrap() {
    while (live.size() < desired) {
      live.add(cluster.createPod(origin, name, namespace, labels, podSpec, priority, "ReplicaSet", replicaSetName,
          replicaSetUid, cluster.freeSuffix(namespace, replicaSetName, names), true));
    }
    deployment.getStatus().setReplicas(live.size());
  }

  /** Creates missing pods and deletes surplus ones. */
  public void reconcile() {
    int count = 0;
    for (SimPod p : live) {
      if (!p.victim()) {
        count++;
      }
    }
    while (count < desired) {
      SimPod p = cluster.createPod(origin, name, namespace, labels, podSpec, priority, "ReplicaSet", replicaSetName,
          replicaSetUid, cluster.freeSuffix(namespace, replicaSetName, names));
      live.add(p);
      count++;
    }
    if (count > desired) {
      List<SimPod> order = new ArrayList<>(live);
      order.removeIf(SimPod::victim);
      order.sort(Comparator.comparingInt((SimPod p) -> switch (p.state()) {
        case PENDING -> 0;
        case STARTING -> 1;
        default -> 2;
      }).thenComparing(Comparator.comparingLong(SimPod::createdAt).reversed()).thenComparing(SimPod::uid));
      for (int i = 0; i < count - desired; i++) {
        SimPod p = order.get(i);
        live.remove(p);
        cluster.deletePod(p);
      }
    }
    deployment.getStatus().setReplicas(live.size());
    deployment.getStatus().setObservedGeneration(deployment.getMetadata().getGeneration());
  }
}
