package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.health.ApiHealth;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The cluster-wide informers the autoscaler reads from: Nodes, Pods, PodDisruptionBudgets, CapacityBuffers,
 * PodTemplates and, when their CRDs are served, PodGroups ({@link PodGroupInformers}). They run on every replica so caches are warm when leadership is won.
 */
public final class AutoscalerInformers implements AutoCloseable {
  private final SharedIndexInformer<Node> nodes;
  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<PodDisruptionBudget> pdbs;
  private final SharedIndexInformer<CapacityBuffer> buffers;
  private final SharedIndexInformer<PodTemplate> templates;
  private final PodChangeFeed podChanges = new PodChangeFeed();
  private final PodGroupInformers podGroups;

  public AutoscalerInformers(KubernetesClient client) {
    this(client, null);
  }

  /** As above; with {@code health} the informers keep retrying on API errors and report them there. */
  public AutoscalerInformers(KubernetesClient client, ApiHealth health) {
    this(client, health, dev.headroom.controller.health.CrdWait.Backoff.DEFAULT);
  }

  /** As above, with the backoff of the PodGroup CRD lookups. */
  public AutoscalerInformers(KubernetesClient client, ApiHealth health, dev.headroom.controller.health.CrdWait.Backoff podGroupBackoff) {
    this.podGroups = new PodGroupInformers(client, health, podGroupBackoff);
    this.nodes = tracked(health, Node.class, client.nodes().runnableInformer(0));
    this.pods = tracked(health, Pod.class, client.pods().inAnyNamespace().runnableInformer(0));
    this.pods.addEventHandler(podChanges);
    this.pdbs = tracked(health, PodDisruptionBudget.class, client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0));
    this.buffers = tracked(health, CapacityBuffer.class, client.resources(CapacityBuffer.class).inAnyNamespace().runnableInformer(0));
    this.templates = tracked(health, PodTemplate.class, client.resources(PodTemplate.class).inAnyNamespace().runnableInformer(0));
  }

  private static <T extends HasMetadata> SharedIndexInformer<T> tracked(ApiHealth health, Class<T> type, SharedIndexInformer<T> i) {
    return health == null ? i : health.track(i, ApiHealth.describe(type, null));
  }

  private Stream<SharedIndexInformer<? extends HasMetadata>> all() {
    return Stream.of(nodes, pods, pdbs, buffers, templates);
  }

  /** Starts every informer; the future completes when each has listed once. */
  public CompletableFuture<Void> start() {
    podGroups.start();
    return CompletableFuture.allOf(all().map(SharedIndexInformer::start).toArray(CompletableFuture[]::new));
  }

  /** True once every informer has listed (the PodGroup kinds: once looked up, and listed if served). */
  public boolean hasSynced() {
    return all().allMatch(SharedIndexInformer::hasSynced) && podGroups.hasSynced();
  }

  /** Listers over the caches. */
  public ClusterListers listers() {
    return new ClusterListers(
        nodes.getStore()::list,
        pods.getStore()::list,
        pdbs.getStore()::list,
        buffers.getStore()::list,
        (ns, name) -> Optional.ofNullable(templates.getStore().getByKey(Cache.namespaceKeyFunc(ns, name))),
        podChanges::since,
        podGroups::podGroups);
  }

  /** The node lister alone (providers map nodes to groups with it). */
  public java.util.function.Supplier<List<Node>> nodeLister() {
    return nodes.getStore()::list;
  }

  @Override
  public void close() {
    podGroups.close();
    all().forEach(SharedIndexInformer::close);
  }
}
