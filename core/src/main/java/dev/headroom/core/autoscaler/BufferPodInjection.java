package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffers' virtual pods as a pod-list processor (the Cluster Autoscaler's CapacityBuffer pod injection): selects
 * the buffers and builds their virtual pods ({@link BufferInjector}, kept across loops in a {@link VirtualPodCache}),
 * then places them after the real pods onto existing and upcoming capacity, buffer by buffer in injection order (a
 * buffer's chunks are one list the simulation may know from earlier loops). The virtual pods left over join the pods
 * the loop scales up for.
 */
final class BufferPodInjection implements PodListProcessor {

  private final AutoscalerOptions options;
  private final ClusterView cluster;
  private final AutoscalerState.Caches caches;

  BufferPodInjection(AutoscalerOptions options, ClusterView cluster, AutoscalerState.Caches caches) {
    this.options = options;
    this.cluster = cluster;
    this.caches = caches;
  }

  @Override
  public PodList process(Observation world, PodList pods, IterationBuilder result) {
    List<CapacityBuffer> buffers = options.bufferPodInjectionEnabled() ? cluster.buffers() : List.of();
    caches.virtualPods.nextLoop();
    BufferInjector.Injection injection = BufferInjector.of(options, caches.virtualPods).inject(buffers, cluster);
    List<Pod> left = new ArrayList<>();
    int injected = 0;
    for (BufferInjector.Entry e : injection.entries()) {
      List<Pod> chunks = e.pods();
      injected += chunks.size();
      if (chunks.isEmpty()) {
        continue;
      }
      List<String> nodes = world.sim().scheduleAll(chunks, world::destination);
      for (int k = 0; k < chunks.size(); k++) {
        Autoscaler.book(world, result, chunks.get(k), nodes.get(k), left);
      }
    }
    caches.virtualPodsInjected(injected);
    return new PodList(pods.pending(), pods.unschedulable(), injection, left);
  }
}
