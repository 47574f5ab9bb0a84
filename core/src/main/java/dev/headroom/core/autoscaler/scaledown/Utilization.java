package dev.headroom.core.autoscaler.scaledown;

import dev.headroom.core.autoscaler.SchedulingSimulation;
import dev.headroom.core.autoscaler.VirtualPods;
import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * Node utilisation for scale-down (CA {@code utilization/info.go}): {@code max(cpu, memory)} of requests over
 * allocatable, or the GPU fraction for nodes with GPUs. Virtual pods are excluded (capacitybuffer spec §8.3);
 * with {@code ignoreDaemonSetsUtilization} DaemonSet and mirror pods are removed from both sides.
 */
public final class Utilization {

  public static final String GPU = "nvidia.com/gpu";

  private Utilization() {}

  /** The utilisation fraction and whether the GPU resource decided it. */
  public record Value(double utilization, boolean gpu) {}

  public static Value of(Node node, List<Pod> pods, boolean ignoreDaemonSets) {
    return of(node, pods, ignoreDaemonSets, p -> EffectiveRequests.of(p.getSpec()));
  }

  /**
   * As {@link #of(Node, List, boolean)}, with the pods' effective requests from {@code requests} (the
   * simulation's cached ones; must equal {@code EffectiveRequests.of(pod.getSpec())}).
   */
  public static Value of(Node node, List<Pod> pods, boolean ignoreDaemonSets, java.util.function.Function<Pod, Map<String, Long>> requests) {
    Map<String, Quantity> alloc = node.getStatus() == null || node.getStatus().getAllocatable() == null ? Map.of() : node.getStatus().getAllocatable();
    return of(pods, ignoreDaemonSets, requests, r -> milli(alloc, r));
  }

  /**
   * As {@link #of(Node, List, boolean, java.util.function.Function)}, with the node's allocatable milli-values
   * from {@code allocatable} (must equal the parsed {@code status.allocatable} entry, 0 when absent).
   */
  public static Value of(List<Pod> pods, boolean ignoreDaemonSets, java.util.function.Function<Pod, Map<String, Long>> requests,
      java.util.function.ToLongFunction<String> allocatable) {
    List<SchedulingSimulation.PodRequests> withRequests = new java.util.ArrayList<>(pods.size());
    for (Pod p : pods) {
      withRequests.add(new SchedulingSimulation.PodRequests(p, requests.apply(p), VirtualPods.isVirtual(p)));
    }
    return of(SchedulingSimulation.NodeRequests.of(withRequests, ignoreDaemonSets), allocatable);
  }

  /** The utilisation of a node from its request sums (DaemonSet/mirror sums apart only when they are ignored). */
  public static Value of(SchedulingSimulation.NodeRequests r, java.util.function.ToLongFunction<String> allocatable) {
    long gpuAlloc = allocatable.applyAsLong(GPU);
    return of(r.cpu(), r.memory(), r.gpu(), r.daemonSetCpu(), r.daemonSetMemory(),
        gpuAlloc > 0 ? 0 : allocatable.applyAsLong("cpu"), gpuAlloc > 0 ? 0 : allocatable.applyAsLong("memory"), gpuAlloc);
  }

  /**
   * The same from the request sums' parts (DaemonSet/mirror sums 0 unless they are set apart) and the node's
   * allocatable milli-values: GPU utilisation when the node has GPUs, else the larger of CPU and memory.
   */
  public static Value of(long cpu, long memory, long gpu, long daemonSetCpu, long daemonSetMemory,
      long cpuAllocatable, long memoryAllocatable, long gpuAllocatable) {
    if (gpuAllocatable > 0) {
      return new Value((double) gpu / gpuAllocatable, true);
    }
    double cu = fraction(cpu, cpuAllocatable - daemonSetCpu);
    double mu = fraction(memory, memoryAllocatable - daemonSetMemory);
    return new Value(Math.max(cu, mu), false);
  }

  private static double fraction(long used, long alloc) {
    if (alloc <= 0) {
      return used > 0 ? 1 : 0;
    }
    return (double) used / alloc;
  }

  private static long milli(Map<String, Quantity> m, String r) {
    Quantity q = m.get(r);
    return q == null ? 0 : Quantities.milli(q);
  }
}
