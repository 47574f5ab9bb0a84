package dev.headroom.core.autoscaler.memory;

import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One {@link Autoscaler#runOnce} over a static picture of a cluster, acting on nothing: the in-memory ports, a
 * state seeded by {@link StaticStateSeed}, and the production scheduling simulation. What {@code headroom plan}
 * prints.
 *
 * @param result the iteration's result
 * @param providerCalls what the autoscaler asked the node-group provider for, in order
 * @param statusWrites buffer conditions it would write, by {@code namespace/name}
 */
public record DryRun(IterationResult result, List<RecordingNodeGroupProvider.Call> providerCalls, Map<String, List<Condition>> statusWrites) {

  /**
   * Runs one iteration at {@code now} over {@code view} (a {@link StaticClusterView}, or a view built over one, such
   * as a ProvisioningRequest round's).
   */
  public static DryRun of(AutoscalerOptions options, dev.headroom.core.autoscaler.ClusterView view, List<NodeGroup> groups, Instant now) {
    RecordingNodeGroupProvider provider = new RecordingNodeGroupProvider(groups).withStandbyNodes(view.nodes());
    RecordingEventSink events = new RecordingEventSink();
    RecordingStatusWriter writer = new RecordingStatusWriter();
    AutoscalerState state = StaticStateSeed.of(options, groups, view.nodes(), now);
    IterationResult r = new Autoscaler(options, view, provider, events, writer, state, SnapshotSimulation::new).runOnce(now);
    return new DryRun(r, provider.calls(), writer.written());
  }
}
