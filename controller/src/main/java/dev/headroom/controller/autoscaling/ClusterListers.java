package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.PodGroups;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Where the autoscaler's reads come from: informer caches in production ({@link AutoscalerRuntime#listers}),
 * direct API lists in tests that drive iterations step by step ({@link #fromApi}). Objects are shared with the
 * source and must not be mutated (core never mutates its inputs; it clones what it changes).
 */
public record ClusterListers(
    Supplier<List<Node>> nodes,
    Supplier<List<Pod>> pods,
    Supplier<List<PodDisruptionBudget>> podDisruptionBudgets,
    Supplier<List<CapacityBuffer>> buffers,
    BiFunction<String, String, Optional<PodTemplate>> podTemplate,
    java.util.function.LongFunction<Optional<dev.headroom.core.autoscaler.ClusterView.PodChanges>> podChanges,
    Supplier<PodGroups> podGroups,
    Supplier<List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest>> provisioningRequests) {

  /** Listers without ProvisioningRequests. */
  public ClusterListers(
      Supplier<List<Node>> nodes,
      Supplier<List<Pod>> pods,
      Supplier<List<PodDisruptionBudget>> podDisruptionBudgets,
      Supplier<List<CapacityBuffer>> buffers,
      BiFunction<String, String, Optional<PodTemplate>> podTemplate,
      java.util.function.LongFunction<Optional<dev.headroom.core.autoscaler.ClusterView.PodChanges>> podChanges,
      Supplier<PodGroups> podGroups) {
    this(nodes, pods, podDisruptionBudgets, buffers, podTemplate, podChanges, podGroups, List::of);
  }

  /** Listers without a pod change log (every loop reads every pod) and without PodGroups. */
  public ClusterListers(
      Supplier<List<Node>> nodes,
      Supplier<List<Pod>> pods,
      Supplier<List<PodDisruptionBudget>> podDisruptionBudgets,
      Supplier<List<CapacityBuffer>> buffers,
      BiFunction<String, String, Optional<PodTemplate>> podTemplate) {
    this(nodes, pods, podDisruptionBudgets, buffers, podTemplate, cursor -> Optional.empty(), () -> PodGroups.NONE);
  }

  /** These listers with the ProvisioningRequests read from {@code requests}. */
  public ClusterListers withProvisioningRequests(Supplier<List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest>> requests) {
    return new ClusterListers(nodes, pods, podDisruptionBudgets, buffers, podTemplate, podChanges, podGroups, requests);
  }

  /** Every read is a fresh list from the API server (consistent with the previous write; for tests and tools). */
  public static ClusterListers fromApi(KubernetesClient client) {
    return new ClusterListers(
        () -> client.nodes().list().getItems(),
        () -> client.pods().inAnyNamespace().list().getItems(),
        () -> client.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems(),
        () -> client.resources(CapacityBuffer.class).inAnyNamespace().list().getItems(),
        (ns, name) -> Optional.ofNullable(client.resources(PodTemplate.class).inNamespace(ns).withName(name).get()),
        cursor -> Optional.empty(),
        PodGroupInformers.fromApi(client),
        ProvisioningRequestInformer.fromApi(client));
  }
}
