package dev.headroom.controller.autoscaling;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A cluster for autoscaler tests on the CRUD mock server: a controllable clock, a test scheduler, a fake workload
 * controller for Deployments (pods owned by a ReplicaSet), a fake buffer controller that fills in buffer status the way
 * the buffer controller does, and the autoscaler loop built from the production adapters. Iterations are driven
 * explicitly with {@link #loop()}.
 */
final class ClusterFixture {
  static final String NS = "default";
  static final String HEADROOM_NS = "headroom-system";

  final KubernetesClient client;
  // A minute ahead of the mock server's timestamps, so objects it stamps are never "from the future".
  final MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.SECONDS));
  final TestScheduler scheduler;
  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final AutoscalerMetrics metrics;
  final AutoscalerLoop loop;
  final NodeGroupProvider provider;

  /**
   * @param providerFactory builds the provider from the client, clock and a node lister
   */
  ClusterFixture(KubernetesClient client, AutoscalerOptions options, Function<ClusterFixture, NodeGroupProvider> providerFactory) {
    this.client = client;
    this.scheduler = new TestScheduler(client);
    this.metrics = new AutoscalerMetrics(registry, options.maxNodesTotal());
    this.provider = providerFactory.apply(this);
    AutoscalerSettings settings = new AutoscalerSettings("test", options, HEADROOM_NS, null, null, Duration.ZERO, 600);
    PhaseTimer timer = new PhaseTimer(Ticker.SYSTEM);
    KubernetesEventSink events = new KubernetesEventSink(client, HEADROOM_NS, clock, KubernetesEventSink.DEFAULT_DEDUP_WINDOW, Runnable::run, "test");
    ClusterListers listers = ClusterListers.fromApi(client);
    this.loop = new AutoscalerLoop(() -> AutoscalerRuntime.iteration(client, settings, listers, provider, events, timer, clock, metrics),
        timer, metrics, clock, Ticker.SYSTEM, options.scanInterval(), () -> true);
  }

  /** Test options: upstream defaults with short scale-down timers. */
  static AutoscalerOptions.Builder options() {
    return AutoscalerOptions.builder()
        .set(AutoscalerOptions.SCALE_DOWN_UNNEEDED_TIME, Duration.ofMinutes(1))
        .set(AutoscalerOptions.SCALE_DOWN_DELAY_AFTER_ADD, Duration.ofMinutes(1));
  }

  /** Advances the clock by one scan interval, runs one iteration, then lets the scheduler bind what fits. */
  IterationResult step() {
    return step(Duration.ofSeconds(10));
  }

  IterationResult step(Duration advance) {
    clock.advance(advance);
    IterationResult r = loop.runOnce(clock.instant());
    scheduler.schedule();
    return r;
  }

  static PodSpec spec(String cpu, String memory) {
    return new PodSpecBuilder().addNewContainer().withName("app").withImage("app:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory))).endResources()
        .endContainer().build();
  }

  /** A Deployment's pods, as its ReplicaSet would create them: {@code <name>-<i>} for i in 1..replicas. */
  void deployment(String name, int replicas, String cpu, String memory) {
    List<Pod> existing = deploymentPods(name);
    for (int i = existing.size() + 1; i <= replicas; i++) {
      client.pods().inNamespace(NS).resource(new PodBuilder()
          .withNewMetadata().withName(name + "-" + i).withNamespace(NS).addToLabels("app", name)
            .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName(name + "-rs").withUid(name + "-rs-uid").withController(true).endOwnerReference()
          .endMetadata()
          .withSpec(spec(cpu, memory))
          .build()).create();
    }
  }

  List<Pod> deploymentPods(String name) {
    return client.pods().inNamespace(NS).withLabel("app", name).list().getItems();
  }

  /**
   * A buffer of {@code replicas} chunks of a user PodTemplate, with the status the buffer controller writes:
   * template reference, replicas, the active-capacity strategy and {@code ReadyForProvisioning=True}.
   */
  CapacityBuffer buffer(String name, int replicas, String cpu, String memory) {
    return buffer(name, replicas, cpu, memory, BufferConditions.STRATEGY_ACTIVE_CAPACITY);
  }

  /** As {@link #buffer(String, int, String, String)} with another provisioning strategy (spec and status). */
  CapacityBuffer buffer(String name, int replicas, String cpu, String memory, String strategy) {
    PodTemplate template = client.resources(PodTemplate.class).inNamespace(NS).resource(new PodTemplateBuilder()
        .withNewMetadata().withName(name + "-template").withNamespace(NS).endMetadata()
        .withNewTemplate().withNewMetadata().addToLabels("buffer", name).endMetadata().withSpec(spec(cpu, memory)).endTemplate()
        .build()).create();
    CapacityBuffer b = new CapacityBuffer();
    b.getMetadata().setName(name);
    b.getMetadata().setNamespace(NS);
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setProvisioningStrategy(strategy);
    LocalObjectRef ref = new LocalObjectRef();
    ref.setName(template.getMetadata().getName());
    spec.setPodTemplateRef(ref);
    spec.setReplicas(replicas);
    b.setSpec(spec);
    CapacityBuffer created = client.resources(CapacityBuffer.class).inNamespace(NS).resource(b).create();
    CapacityBufferStatus status = new CapacityBufferStatus();
    LocalObjectRef sref = new LocalObjectRef();
    sref.setName(template.getMetadata().getName());
    status.setPodTemplateRef(sref);
    status.setReplicas(replicas);
    status.setProvisioningStrategy(strategy);
    status.setConditions(new ArrayList<>(List.of(new ConditionBuilder().withType(BufferConditions.READY_FOR_PROVISIONING)
        .withStatus("True").withReason(BufferConditions.REASON_ATTRIBUTES_SET_SUCCESSFULLY).withMessage(BufferConditions.MESSAGE_READY)
        .withLastTransitionTime(clock.instant().toString()).withObservedGeneration(created.getMetadata().getGeneration()).build())));
    created.setStatus(status);
    return client.resources(CapacityBuffer.class).inNamespace(NS).resource(created).updateStatus();
  }

  CapacityBuffer buffer(String name) {
    return client.resources(CapacityBuffer.class).inNamespace(NS).withName(name).get();
  }

  Optional<Condition> condition(String buffer, String type) {
    CapacityBuffer b = buffer(buffer);
    if (b.getStatus() == null || b.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return b.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  List<Node> nodes() {
    return client.nodes().list().getItems();
  }

  List<Pod> unbound(String deployment) {
    return deploymentPods(deployment).stream().filter(p -> p.getSpec().getNodeName() == null).toList();
  }

  List<Event> events(String reason) {
    List<Event> out = new ArrayList<>();
    for (Event e : client.v1().events().inAnyNamespace().list().getItems()) {
      if (reason.equals(e.getReason())) {
        out.add(e);
      }
    }
    return out;
  }

  double metric(String prefix) {
    for (String line : registry.scrape().split("\n")) {
      if (!line.startsWith("#") && line.startsWith(prefix)) {
        String[] parts = line.split(" ");
        return Double.parseDouble(parts[parts.length - 1]);
      }
    }
    return Double.NaN;
  }
}
