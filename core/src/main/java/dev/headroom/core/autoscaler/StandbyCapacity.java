package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.IterationResult.StandbyBuffer;
import dev.headroom.core.autoscaler.IterationResult.StandbyGroup;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The standby-capacity step of a loop (docs/standby-capacity.md): the buffers of the
 * {@link BufferConditions#STRATEGY_STANDBY_CAPACITY} strategy are sized as suspended nodes rather than running ones.
 * Each buffer's chunks go to the cheapest group with {@code spec.standby} whose template takes a chunk (by standby
 * price, then id); each group's chunks are binpacked onto copies of its template (the estimator scale-up uses), and the
 * node count, capped at the group's maximum size, is the group's standby target, set on the provider when it differs
 * from what the provider holds. The provider does the rest: creates, initialises and suspends the nodes, and resumes
 * them first when a scale-up asks the group for nodes. Each buffer gets its {@code Provisioning} condition: kept, not
 * supported by the provider, or no group fits.
 */
final class StandbyCapacity {

  private StandbyCapacity() {}

  /** What the step did: the buffers' outcomes and the groups' standby targets. */
  record Result(List<StandbyBuffer> buffers, List<StandbyGroup> groups) {
    static final Result NONE = new Result(List.of(), List.of());
  }

  /**
   * Runs the step.
   *
   * @param buffers every buffer of the cluster (the standby ones are selected here)
   * @param groups the loop's groups, with the target sizes its scale-ups left
   * @param templateNodes each group's sanitised template node of this loop
   */
  static Result run(AutoscalerOptions options, List<CapacityBuffer> buffers, ClusterView view, Map<String, NodeGroup> groups,
      Map<String, Node> templateNodes, SchedulingSimulation sim, NodeGroupProvider provider, BufferStatusWriter statusWriter,
      IterationBuilder iteration) {
    if (!options.standbyCapacity()) {
      return Result.NONE;
    }
    BufferInjector.Injection injection = new BufferInjector(Set.of(BufferConditions.STRATEGY_STANDBY_CAPACITY),
        options.maxVirtualPodsPerBuffer()).inject(buffers, view);
    Optional<String> unsupported = provider.standbyUnsupported();
    List<NodeGroup> candidates = new ArrayList<>();
    for (NodeGroup g : groups.values()) {
      if (g.standby() != null) {
        candidates.add(g);
      }
    }
    candidates.sort(Comparator.comparingDouble((NodeGroup g) -> g.standby().pricePerHour()).thenComparing(NodeGroup::id));

    Map<BufferInjector.Entry, String> groupOf = new IdentityHashMap<>();
    Map<BufferInjector.Entry, Condition> refused = new IdentityHashMap<>();
    Map<String, List<Pod>> podsOf = new LinkedHashMap<>();
    for (NodeGroup g : candidates) {
      podsOf.put(g.id(), new ArrayList<>());
    }
    for (BufferInjector.Entry e : injection.entries()) {
      long gen = generation(e.buffer());
      if (!e.injected()) {
        continue;
      }
      if (unsupported.isPresent()) {
        refused.put(e, BufferConditions.provisioningFailed(BufferConditions.REASON_STANDBY_NOT_SUPPORTED, unsupported.get(), gen));
        continue;
      }
      Pod chunk = e.pods().get(0);
      List<String> misfits = new ArrayList<>();
      String chosen = null;
      for (NodeGroup g : candidates) {
        Optional<String> failure = sim.checkOnTemplate(chunk, templateNodes.get(g.id()));
        if (failure.isEmpty()) {
          chosen = g.id();
          break;
        }
        misfits.add(g.id() + ": " + failure.get());
      }
      if (chosen == null) {
        String message = candidates.isEmpty() ? "no node group has spec.standby"
            : "no node group with spec.standby takes a chunk (" + String.join("; ", misfits) + ")";
        refused.put(e, BufferConditions.provisioningFailed(BufferConditions.REASON_NO_STANDBY_NODE_GROUP, message, gen));
        continue;
      }
      groupOf.put(e, chosen);
      podsOf.get(chosen).addAll(e.pods());
    }

    List<StandbyGroup> groupResults = new ArrayList<>();
    Map<String, Set<Pod>> placedOf = new LinkedHashMap<>();
    Map<String, String> failedOf = new LinkedHashMap<>();
    Map<String, Integer> targetOf = new LinkedHashMap<>();
    if (unsupported.isEmpty()) {
      for (NodeGroup g : candidates) {
        List<Pod> pods = podsOf.get(g.id());
        int target = 0;
        Set<Pod> placed = Collections.newSetFromMap(new IdentityHashMap<>());
        if (!pods.isEmpty()) {
          SchedulingSimulation.Estimate est = sim.estimate(pods, templateNodes.get(g.id()), "standby-" + g.id(), g.maxSize());
          target = est.nodeCount();
          placed.addAll(est.pods());
        }
        placedOf.put(g.id(), placed);
        targetOf.put(g.id(), target);
        NodeGroupProvider.StandbyPool pool = provider.standbyPool(g.id());
        if (pool.target() != target) {
          try {
            provider.setStandbyTarget(g.id(), target);
          } catch (NodeGroupProvider.ProviderException ex) {
            failedOf.put(g.id(), ex.getMessage());
            iteration.emit(new EventRecord(ObjectRef.STATUS, EventRecord.WARNING, Events.FAILED_TO_SET_STANDBY,
                String.format(Events.FAILED_TO_SET_STANDBY_MSG, g.id(), target, ex.getMessage())));
          }
        }
        groupResults.add(new StandbyGroup(g.id(), pool.target(), failedOf.containsKey(g.id()) ? pool.target() : target,
            pool.suspended(), pool.preparing(), pods.size()));
      }
    }

    List<StandbyBuffer> bufferResults = new ArrayList<>();
    for (BufferInjector.Entry e : injection.entries()) {
      CapacityBuffer b = e.buffer();
      long gen = generation(b);
      String group = groupOf.get(e);
      int kept = 0;
      Condition provisioning;
      if (!e.injected()) {
        provisioning = e.provisioning();
      } else if (refused.containsKey(e)) {
        provisioning = refused.get(e);
      } else if (failedOf.containsKey(group)) {
        provisioning = BufferConditions.provisioningFailed(BufferConditions.REASON_STANDBY_NOT_SUPPORTED,
            "node group " + group + " refused the standby target: " + failedOf.get(group), gen);
      } else {
        Set<Pod> placed = placedOf.get(group);
        for (Pod p : e.pods()) {
          if (placed.contains(p)) {
            kept++;
          }
        }
        String message = String.format("%d of %d chunks kept on standby nodes of node group %s (the group keeps %d)",
            kept, e.pods().size(), group, targetOf.get(group));
        provisioning = BufferConditions.condition(BufferConditions.PROVISIONING, BufferConditions.TRUE,
            BufferConditions.REASON_STANDBY_NODES_KEPT, message, gen);
      }
      List<Condition> conditions = StatusConditions.copy(b.getStatus().getConditions());
      if (conditions == null) {
        conditions = new ArrayList<>();
      }
      boolean changed = StatusConditions.set(conditions, provisioning, iteration.now());
      if (changed) {
        statusWriter.writeConditions(b, conditions);
      }
      bufferResults.add(new StandbyBuffer(b.getMetadata().getNamespace(), b.getMetadata().getName(), group, e.pods().size(), kept,
          List.copyOf(conditions), changed));
    }
    return new Result(List.copyOf(bufferResults), List.copyOf(groupResults));
  }

  private static long generation(CapacityBuffer b) {
    return b.getMetadata().getGeneration() == null ? 0 : b.getMetadata().getGeneration();
  }
}
