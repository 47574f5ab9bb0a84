package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.BufferStatusWriter;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Time spent per phase of one iteration, measured at the port boundaries: core's loop is opaque to the runtime, so
 * the phases are what crosses a port ({@link #READ_CLUSTER}, {@link #PROVIDER_REFRESH}, {@link #SCALE_UP_EXECUTE},
 * {@link #NODE_DELETION}, {@link #BUFFER_STATUS}); {@link #SIMULATION} is the rest of {@code main} (snapshot,
 * filter-out-schedulable, binpacking, scale-down planning).
 */
public final class PhaseTimer {
  /** {@code function} label values of {@code headroom_function_duration_seconds}. */
  public static final String MAIN = "main";
  public static final String READ_CLUSTER = "readClusterState";
  public static final String PROVIDER_REFRESH = "cloudProviderRefresh";
  public static final String SCALE_UP_EXECUTE = "scaleUp:execute";
  public static final String NODE_DELETION = "scaleDown:nodeDeletion";
  public static final String BUFFER_STATUS = "bufferStatusWrite";
  public static final String SIMULATION = "simulation";
  /** Every label value, in report order. */
  public static final List<String> FUNCTIONS = List.of(MAIN, READ_CLUSTER, PROVIDER_REFRESH, SIMULATION, SCALE_UP_EXECUTE, NODE_DELETION, BUFFER_STATUS);

  private final Ticker ticker;
  private final Map<String, Long> nanos = new LinkedHashMap<>();

  public PhaseTimer(Ticker ticker) {
    this.ticker = ticker;
  }

  /** Clears the per-iteration totals. */
  public synchronized void reset() {
    nanos.clear();
  }

  /** Nanoseconds per phase since the last reset. */
  public synchronized Map<String, Long> totals() {
    return new LinkedHashMap<>(nanos);
  }

  <T> T time(String phase, Supplier<T> body) {
    long start = ticker.nanoTime();
    try {
      return body.get();
    } finally {
      add(phase, ticker.nanoTime() - start);
    }
  }

  void run(String phase, Runnable body) {
    time(phase, () -> {
      body.run();
      return null;
    });
  }

  private synchronized void add(String phase, long n) {
    nanos.merge(phase, n, Long::sum);
  }

  /** The view with its reads timed. */
  public ClusterView timed(ClusterView v) {
    return new ClusterView() {
      @Override
      public List<Node> nodes() {
        return time(READ_CLUSTER, v::nodes);
      }

      @Override
      public List<Pod> pods() {
        return time(READ_CLUSTER, v::pods);
      }

      @Override
      public List<PodDisruptionBudget> podDisruptionBudgets() {
        return time(READ_CLUSTER, v::podDisruptionBudgets);
      }

      @Override
      public List<CapacityBuffer> buffers() {
        return time(READ_CLUSTER, v::buffers);
      }

      @Override
      public dev.headroom.core.autoscaler.PodGroups podGroups() {
        return time(READ_CLUSTER, v::podGroups);
      }

      @Override
      public List<dev.headroom.api.provisioningrequest.v1.ProvisioningRequest> provisioningRequests() {
        return time(READ_CLUSTER, v::provisioningRequests);
      }

      @Override
      public Optional<PodTemplate> podTemplate(String namespace, String name) {
        return time(READ_CLUSTER, () -> v.podTemplate(namespace, name));
      }

      @Override
      public Optional<PodChanges> podChangesSince(long cursor) {
        return time(READ_CLUSTER, () -> v.podChangesSince(cursor));
      }
    };
  }

  /** The provider with refresh, scale-up and deletion timed. */
  public NodeGroupProvider timed(NodeGroupProvider p) {
    return new NodeGroupProvider() {
      @Override
      public void refresh() {
        run(PROVIDER_REFRESH, p::refresh);
      }

      @Override
      public List<NodeGroup> nodeGroups() {
        return time(PROVIDER_REFRESH, p::nodeGroups);
      }

      @Override
      public Optional<String> nodeGroupOf(Node node) {
        return p.nodeGroupOf(node);
      }

      @Override
      public void increaseSize(String groupId, int delta) {
        run(SCALE_UP_EXECUTE, () -> p.increaseSize(groupId, delta));
      }

      @Override
      public void deleteNodes(String groupId, List<Node> nodes) {
        run(NODE_DELETION, () -> p.deleteNodes(groupId, nodes));
      }

      @Override
      public void decreaseTargetSize(String groupId, int delta) {
        run(SCALE_UP_EXECUTE, () -> p.decreaseTargetSize(groupId, delta));
      }

      @Override
      public Optional<String> standbyUnsupported() {
        return p.standbyUnsupported();
      }

      @Override
      public boolean isStandby(Node node) {
        return p.isStandby(node);
      }

      @Override
      public StandbyPool standbyPool(String groupId) {
        return time(PROVIDER_REFRESH, () -> p.standbyPool(groupId));
      }

      @Override
      public void setStandbyTarget(String groupId, int target) {
        run(SCALE_UP_EXECUTE, () -> p.setStandbyTarget(groupId, target));
      }
    };
  }

  /** The status writer timed. */
  public BufferStatusWriter timed(BufferStatusWriter w) {
    return (CapacityBuffer b, List<Condition> c) -> run(BUFFER_STATUS, () -> w.writeConditions(b, c));
  }
}
