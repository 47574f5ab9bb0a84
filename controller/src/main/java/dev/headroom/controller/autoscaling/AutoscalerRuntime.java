package dev.headroom.controller.autoscaling;

import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.provider.NodeGroupSource;
import dev.headroom.controller.provider.clusterapi.ClusterApiNames;
import dev.headroom.controller.provider.clusterapi.ClusterApiProvider;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The autoscaler inside {@code headroom run}: informers, the chosen node provider (with scale-down actuation in
 * front of it), core's autoscaler over the fabric8 adapters, metrics, and the loop that runs while this replica
 * holds the same lease as the buffer controller.
 */
public final class AutoscalerRuntime implements AutoCloseable {
  /** The supported {@code --cloud-provider} values. */
  public static final List<String> PROVIDERS = List.of(KwokProvider.NAME, ClusterApiNames.PROVIDER_NAME);

  private final AutoscalerInformers informers;
  private final AutoscalerLoop loop;
  private final ExecutorService eventWriter;

  private AutoscalerRuntime(AutoscalerInformers informers, AutoscalerLoop loop, ExecutorService eventWriter) {
    this.informers = informers;
    this.loop = loop;
    this.eventWriter = eventWriter;
  }

  /**
   * Builds the runtime; configuration errors (unknown provider, malformed node-group file with {@code FILE:LINE}) are
   * thrown here, before anything starts.
   *
   * @throws IllegalArgumentException for an unknown provider or invalid discovery filter
   * @throws dev.headroom.controller.provider.NodeGroupConfig.InvalidNodeGroupsException for a malformed node-group file
   */
  public static AutoscalerRuntime create(KubernetesClient client, AutoscalerSettings s, MeterRegistry registry, Clock clock, String instance) {
    return create(client, s, registry, clock, instance, null);
  }

  /** As above; with {@code health} its informers keep retrying on API errors and report them there. */
  public static AutoscalerRuntime create(KubernetesClient client, AutoscalerSettings s, MeterRegistry registry, Clock clock, String instance,
      ApiHealth health) {
    if (!PROVIDERS.contains(s.cloudProvider())) {
      throw new IllegalArgumentException("unknown " + AutoscalerSettings.FLAG_CLOUD_PROVIDER + " \"" + s.cloudProvider() + "\" (supported: " + String.join(", ", PROVIDERS) + ")");
    }
    Supplier<NodeGroupProvider> providers = providerFactory(client, s, clock, null);
    AutoscalerInformers informers = new AutoscalerInformers(client, health);
    ClusterListers listers = informers.listers();
    // Re-bind the provider factory to the node cache.
    providers = providerFactory(client, s, clock, listers.nodes());
    ExecutorService eventWriter = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "headroom-autoscaler-events");
      t.setDaemon(true);
      return t;
    });
    AutoscalerMetrics metrics = new AutoscalerMetrics(registry, s.options().maxNodesTotal());
    PhaseTimer timer = new PhaseTimer(Ticker.SYSTEM);
    KubernetesEventSink events = new KubernetesEventSink(client, s.namespace(), clock, KubernetesEventSink.DEFAULT_DEDUP_WINDOW, eventWriter, instance);
    Supplier<NodeGroupProvider> finalProviders = providers;
    Supplier<AutoscalerLoop.Iteration> factory = () -> iteration(client, s, listers, finalProviders.get(), events, timer, clock, metrics);
    AutoscalerLoop loop = new AutoscalerLoop(factory, timer, metrics, clock, Ticker.SYSTEM, s.options().scanInterval(),
        informers::hasSynced);
    return new AutoscalerRuntime(informers, loop, eventWriter);
  }

  /**
   * One leadership term's ports and autoscaler (after the provider's first refresh): the view over {@code listers}, {@code provider} behind the scale-down
   * actuation, the event sink and the buffer condition writer, all timed by {@code timer}.
   */
  public static AutoscalerLoop.Iteration iteration(KubernetesClient client, AutoscalerSettings s, ClusterListers listers,
      NodeGroupProvider provider, dev.headroom.core.autoscaler.EventSink events, PhaseTimer timer, Clock clock, AutoscalerMetrics metrics) {
    // First refresh now: a KWOK-style provider creates its bootstrap nodes before core reads the world.
    provider.refresh();
    NodeGroupProvider actuating = new NodeDrainer(provider, client, listers.pods(), clock, s.nodeDeleteDelayAfterTaint(),
        s.maxGracefulTerminationSec(), NodeDrainer.Sleeper.SYSTEM, ok -> {
          if (metrics != null) {
            metrics.eviction(ok);
          }
        });
    NodeGroupProvider timedProvider = timer.timed(actuating);
    ClusterView view = timer.timed(new InformerClusterView(listers));
    Autoscaler autoscaler = new Autoscaler(s.options(), view, timedProvider, events, timer.timed(new BufferConditionWriter(client)),
        new AutoscalerState(s.options()), cachedSimulations());
    return new AutoscalerLoop.Iteration(autoscaler, view, timedProvider);
  }

  /** A factory of fresh providers of the configured kind (validates the configuration once, now). */
  public static Supplier<NodeGroupProvider> providerFactory(KubernetesClient client, AutoscalerSettings s, Clock clock, Supplier<List<Node>> nodes) {
    Supplier<List<Node>> nodeLister = nodes != null ? nodes : () -> client.nodes().list().getItems();
    if (KwokProvider.NAME.equals(s.cloudProvider())) {
      NodeGroupSource source = s.nodeGroupsFile() != null ? NodeGroupSource.file(s.nodeGroupsFile()) : NodeGroupSource.configMap(client, s.namespace());
      SecureRandom random = new SecureRandom();
      return () -> new KwokProvider(client, source, nodeLister, clock, random);
    }
    ClusterApiProvider.Discovery discovery = ClusterApiProvider.Discovery.parse(s.nodeGroupAutoDiscovery());
    String group = System.getenv().getOrDefault("CAPI_GROUP", ClusterApiNames.DEFAULT_GROUP);
    return () -> new ClusterApiProvider(client, group, ClusterApiProvider.resolveVersion(client, group), discovery, nodeLister, clock);
  }

  /** Starts the informers (on every replica, so caches are warm when leadership is won). */
  public CompletableFuture<Void> start() {
    return informers.start();
  }

  /** True once the informers have synced. */
  public boolean ready() {
    return informers.hasSynced();
  }

  /** Why the autoscaler is not ready (its caches have not listed), or empty. */
  public java.util.Optional<String> notReadyReason() {
    return ready() ? java.util.Optional.empty() : java.util.Optional.of("autoscaler informer caches not synced yet");
  }

  /** Why the autoscaler loop counts as stuck, or empty (liveness). */
  public java.util.Optional<String> notLiveReason() {
    return loop.stalled(java.time.Duration.ofMinutes(5));
  }

  /** Leadership won: iterate every scan interval. */
  public void onStartLeading() {
    loop.start();
  }

  /** Leadership lost or released: stop iterating. */
  public void onStopLeading() {
    loop.stop();
  }

  public AutoscalerLoop loop() {
    return loop;
  }

  @Override
  public void close() {
    loop.stop();
    informers.close();
    eventWriter.shutdown();
  }

  /** Snapshot simulations sharing one compiled-object cache across the autoscaler's loops. */
  private static java.util.function.Supplier<dev.headroom.core.autoscaler.SchedulingSimulation> cachedSimulations() {
    dev.headroom.core.autoscaler.CompileCache cache = new dev.headroom.core.autoscaler.CompileCache();
    return () -> new SnapshotSimulation(cache);
  }
}
