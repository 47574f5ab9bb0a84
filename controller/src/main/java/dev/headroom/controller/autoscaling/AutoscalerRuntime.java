package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.manager.InformerCache;
import dev.headroom.controller.manager.Manager;
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
import dev.headroom.core.provisioning.ProvisioningRequests;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Optional;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The autoscaler inside {@code headroom run}, as a component of the {@link Manager}: its informers (Node, Pod, PDB,
 * CapacityBuffer, PodTemplate) come from the manager's one cache, so the kinds it shares with the buffer controller
 * are watched once; PodGroups are watched once their CRDs are served ({@link PodGroupInformers}). The loop is a leader
 * runnable: it iterates while this replica holds the lease the buffer controller leads under.
 */
public final class AutoscalerRuntime {
  /** The supported {@code --cloud-provider} values. */
  public static final List<String> PROVIDERS = List.of(KwokProvider.NAME, ClusterApiNames.PROVIDER_NAME);

  private AutoscalerRuntime() {}

  /**
   * Builds the runtime and registers it with {@code manager}; configuration errors (unknown provider, malformed
   * node-group file with {@code FILE:LINE}) are thrown here, before anything starts.
   *
   * @throws IllegalArgumentException for an unknown provider or invalid discovery filter
   * @throws dev.headroom.controller.provider.NodeGroupConfig.InvalidNodeGroupsException for a malformed node-group file
   */
  public static void create(Manager manager, AutoscalerSettings s, Clock clock, String instance) {
    create(manager, s, clock, instance, CrdWait.Backoff.DEFAULT);
  }

  /** As above, with the backoff of the PodGroup CRD lookups. */
  public static void create(Manager manager, AutoscalerSettings s, Clock clock, String instance, CrdWait.Backoff podGroupBackoff) {
    if (!PROVIDERS.contains(s.cloudProvider())) {
      throw new IllegalArgumentException("unknown " + AutoscalerSettings.FLAG_CLOUD_PROVIDER + " \"" + s.cloudProvider() + "\" (supported: " + String.join(", ", PROVIDERS) + ")");
    }
    KubernetesClient client = manager.client();
    InformerCache cache = manager.cache();
    PodGroupInformers podGroups = new PodGroupInformers(client, manager.health(), podGroupBackoff);
    ProvisioningRequestInformer provisioningRequests = new ProvisioningRequestInformer(client, manager.health(), podGroupBackoff);
    PodChangeFeed podChanges = new PodChangeFeed();
    List<SharedIndexInformer<?>> informers = new ArrayList<>();
    ClusterListers listers = listers(cache, podChanges, podGroups, informers).withProvisioningRequests(provisioningRequests::requests);
    CompletableFuture<Void> synced = cache.synced(informers);
    Supplier<NodeGroupProvider> providers = providerFactory(client, s, clock, listers.nodes());
    ExecutorService eventWriter = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "headroom-autoscaler-events");
      t.setDaemon(true);
      return t;
    });
    AutoscalerMetrics metrics = new AutoscalerMetrics(manager.registry(), s.options().maxNodesTotal());
    PhaseTimer timer = new PhaseTimer(Ticker.SYSTEM);
    KubernetesEventSink events = new KubernetesEventSink(client, s.namespace(), clock, KubernetesEventSink.DEFAULT_DEDUP_WINDOW, eventWriter, instance);
    // the condition writes go out on a thread of their own, so a loop never waits a request per changed buffer
    QueuedStatusWriter conditions = new QueuedStatusWriter(new BufferConditionWriter(client), "headroom-autoscaler-conditions");
    Supplier<AutoscalerLoop.Iteration> factory = () -> iteration(client, s, listers, providers.get(), events, timer, clock, metrics, conditions);
    AutoscalerLoop loop = new AutoscalerLoop(factory, timer, metrics, clock, Ticker.SYSTEM, s.options().scanInterval(),
        () -> synced.isDone() && podGroups.hasSynced() && provisioningRequests.hasSynced());
    // new demand starts an iteration at once instead of at the next scan interval
    cache.informer(Pod.class).addEventHandler(new DemandTrigger(s.options(), clock, loop::trigger));
    manager.add(new Manager.Runnable() {
      @Override
      public void start() {
        podGroups.start();
        provisioningRequests.start();
      }

      @Override
      public void stop() {
        podGroups.close();
        provisioningRequests.close();
        eventWriter.shutdown();
        conditions.close();
      }
    }, false);
    manager.add(new Manager.Runnable() {
      @Override
      public void start() {
        loop.start();
      }

      @Override
      public void stop() {
        loop.stop();
        try {
          // nothing this term queued is written after it ends
          conditions.dropPending(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }

      @Override
      public String toString() {
        return "autoscaler";
      }
    }, true);
    manager.addReadinessCheck("autoscaler", () -> podGroups.hasSynced() ? Optional.empty() : Optional.of("autoscaler informer caches not synced yet: PodGroups"));
    manager.addLivenessCheck("autoscaler", () -> loop.stalled(Duration.ofMinutes(5)));
  }

  /**
   * Asks {@code cache} now for the autoscaler's cluster-wide informers of the kinds the buffer controller also reads
   * without a resync (Pod, PodTemplate). Called before the buffer controller is built, so that its namespaced readers
   * of them (with {@code --namespace}) are served by these informers ({@link InformerCache#covering}) and each pod
   * event is decoded once, not once per scope. CapacityBuffers are not among them: the controller's informer resyncs
   * and is asked for first, the autoscaler's asks for none and shares it when both are cluster-wide.
   */
  public static void registerInformers(InformerCache cache) {
    cache.informer(Pod.class);
    cache.informer(PodTemplate.class);
  }

  /**
   * The autoscaler's listers over {@code cache}'s cluster-wide informers (each added to {@code informers}), with the
   * pod informer's events fed into {@code podChanges}.
   */
  public static ClusterListers listers(InformerCache cache, PodChangeFeed podChanges, PodGroupInformers podGroups, List<SharedIndexInformer<?>> informers) {
    SharedIndexInformer<Node> nodes = cache.informer(Node.class);
    SharedIndexInformer<Pod> pods = cache.informer(Pod.class);
    pods.addEventHandler(podChanges);
    SharedIndexInformer<PodDisruptionBudget> pdbs = cache.informer(PodDisruptionBudget.class);
    SharedIndexInformer<CapacityBuffer> buffers = cache.informer(CapacityBuffer.class);
    SharedIndexInformer<PodTemplate> templates = cache.informer(PodTemplate.class);
    informers.addAll(List.of(nodes, pods, pdbs, buffers, templates));
    return new ClusterListers(
        nodes.getStore()::list,
        pods.getStore()::list,
        pdbs.getStore()::list,
        buffers.getStore()::list,
        (ns, name) -> Optional.ofNullable(templates.getStore().getByKey(Cache.namespaceKeyFunc(ns, name))),
        podChanges::since,
        podGroups::podGroups);
  }

  /**
   * One leadership term's ports and autoscaler (after the provider's first refresh): the view over {@code listers}, {@code provider} behind the scale-down
   * actuation, the event sink and the buffer condition writer, all timed by {@code timer}.
   */
  public static AutoscalerLoop.Iteration iteration(KubernetesClient client, AutoscalerSettings s, ClusterListers listers,
      NodeGroupProvider provider, dev.headroom.core.autoscaler.EventSink events, PhaseTimer timer, Clock clock, AutoscalerMetrics metrics) {
    return iteration(client, s, listers, provider, events, timer, clock, metrics, new BufferConditionWriter(client));
  }

  /** As above, with the buffer conditions written through {@code conditions}. */
  public static AutoscalerLoop.Iteration iteration(KubernetesClient client, AutoscalerSettings s, ClusterListers listers,
      NodeGroupProvider provider, dev.headroom.core.autoscaler.EventSink events, PhaseTimer timer, Clock clock, AutoscalerMetrics metrics,
      dev.headroom.core.autoscaler.BufferStatusWriter conditions) {
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
    // each iteration runs inside a ProvisioningRequest round, whose view the autoscaler reads (docs/provisioning-request.md)
    ProvisioningRequests.Loop requests = new ProvisioningRequests(
        ProvisioningRequests.Settings.DEFAULTS, SnapshotSimulation::new)
        .loop(view, new ProvisioningRequestConditionWriter(client));
    Autoscaler autoscaler = new Autoscaler(s.options(), requests.view(), timedProvider, events, timer.timed(conditions),
        new AutoscalerState(s.options()), cachedSimulations());
    return new AutoscalerLoop.Iteration(autoscaler, view, timedProvider, now -> requests.runOnce(autoscaler::runOnce, now));
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

  /** Snapshot simulations sharing one compiled-object cache across the autoscaler's loops. */
  private static java.util.function.Supplier<dev.headroom.core.autoscaler.SchedulingSimulation> cachedSimulations() {
    dev.headroom.core.autoscaler.CompileCache cache = new dev.headroom.core.autoscaler.CompileCache();
    return () -> new SnapshotSimulation(cache);
  }
}
