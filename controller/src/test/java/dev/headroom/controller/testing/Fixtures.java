package dev.headroom.controller.testing;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.controller.BufferController;
import dev.headroom.controller.ControllerOptions;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.http.MetricsServer;
import dev.headroom.controller.manager.Manager;
import dev.headroom.controller.runtime.Leadership;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.buffer.BufferSettings;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Objects and controller instances for the end-to-end tests. */
public final class Fixtures {
  private Fixtures() {}

  /** A pod template with one container requesting {@code cpu}. */
  public static PodTemplateSpec podSpec(String app, String cpu) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata().withLabels(Map.of("app", app)).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("registry.example/" + app + ":1")
          .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu))).endResources()
        .endContainer().endSpec().build();
  }

  public static Deployment deployment(String ns, String name, int replicas, String cpu) {
    return new DeploymentBuilder()
        .withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withNewSpec().withReplicas(replicas)
          .withNewSelector().withMatchLabels(Map.of("app", name)).endSelector()
          .withTemplate(podSpec(name, cpu))
        .endSpec()
        .withNewStatus().withReplicas(replicas).endStatus()
        .build();
  }

  public static PodTemplate podTemplate(String ns, String name, String cpu) {
    return new PodTemplateBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withTemplate(podSpec(name, cpu)).build();
  }

  public static ResourceQuota quota(String ns, String name, String hardCpu) {
    return new ResourceQuotaBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withNewSpec().withHard(Map.of("cpu", new Quantity(hardCpu))).endSpec()
        .withNewStatus().withHard(Map.of("cpu", new Quantity(hardCpu))).withUsed(Map.of("cpu", new Quantity("0"))).endStatus()
        .build();
  }

  private static CapacityBuffer buffer(String ns, String name, CapacityBufferSpec spec) {
    CapacityBuffer b = new CapacityBuffer();
    b.setMetadata(new ObjectMetaBuilder().withNamespace(ns).withName(name).build());
    if (spec.getProvisioningStrategy() == null) {
      spec.setProvisioningStrategy("buffer.x-k8s.io/active-capacity");
    }
    b.setSpec(spec);
    return b;
  }

  public static CapacityBuffer percentageBuffer(String ns, String name, String group, String kind, String target, int percentage) {
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setScalableRef(new ScalableRef(group, kind, target));
    spec.setPercentage(percentage);
    return buffer(ns, name, spec);
  }

  public static CapacityBuffer templateBuffer(String ns, String name, String template, Integer replicas, Map<String, String> limits) {
    CapacityBufferSpec spec = new CapacityBufferSpec();
    spec.setPodTemplateRef(new LocalObjectRef(template));
    spec.setReplicas(replicas);
    if (limits != null) {
      spec.setLimits(limits.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Quantity(e.getValue()))));
    }
    return buffer(ns, name, spec);
  }

  /** Options for tests: fast lease timing, short resync, a free HTTP port. */
  public static ControllerOptions options(String identity, boolean leaderElect, Duration resync, boolean dryRun) {
    return new ControllerOptions(List.of(), true, dryRun, leaderElect,
        new Leadership.LeaseId("headroom-system", ControllerOptions.DEFAULT_LEASE_NAME, identity),
        new Leadership.Timing(Duration.ofSeconds(8), Duration.ofSeconds(6), Duration.ofMillis(400)),
        0, resync, BufferSettings.defaults(), ControllerOptions.DEFAULT_DRY_RUN_CACHE_TTL);
  }

  /**
   * Starts a manager with a buffer controller as {@code headroom run} wires them: its client carries the
   * {@link ApiHealth} observer, and the CRD check retries every {@code crdRetry} (tests keep it short).
   */
  public static RunningController startObserved(ApiServer api, String identity, ControllerOptions options, Duration crdRetry) {
    ApiHealth health = new ApiHealth("system:serviceaccount:headroom-system:" + identity, Duration.ofSeconds(1), System::nanoTime);
    KubernetesClient client = api.client(identity, health::install);
    return start(client, options, health, new CrdWait.Backoff(crdRetry, crdRetry.multipliedBy(4)));
  }

  /** Starts a manager and buffer controller whose client identifies as {@code identity}. */
  public static RunningController start(ApiServer api, String identity, ControllerOptions options) {
    return start(api.client(identity), options, new ApiHealth(null), CrdWait.Backoff.DEFAULT);
  }

  private static RunningController start(KubernetesClient client, ControllerOptions options, ApiHealth health, CrdWait.Backoff backoff) {
    Manager manager = new Manager(client, options.manager(MetricsServer.Options.PLAIN), health, backoff);
    BufferController c = new BufferController(manager, options, Clock.systemUTC(), Ticker.SYSTEM);
    try {
      manager.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new RunningController(manager, c);
  }
}
