package dev.headroom.controller.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.testing.RunningController;
import dev.headroom.controller.ControllerOptions;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import dev.headroom.controller.kube.BufferEvents;
import dev.headroom.controller.testing.ApiCall;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BufferControllerE2eTest {
  private static final String NS = "shop";
  private final ApiServer api = new ApiServer();
  private final KubernetesClient admin = api.admin();
  private RunningController controller;

  @AfterEach
  void stop() {
    if (controller != null) {
      controller.close();
    }
    api.close();
  }

  private CapacityBuffer buffer(String name) {
    return admin.resources(CapacityBuffer.class).inNamespace(NS).withName(name).get();
  }

  private static Optional<Condition> condition(CapacityBuffer b, String type) {
    if (b == null || b.getStatus() == null || b.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return b.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  @Test
  void percentageOfADeploymentGetsStatusAndFollowsAScaleOutWithinTwoSeconds() {
    admin.resource(Fixtures.deployment(NS, "web", 10, "500m")).create();
    admin.resource(Fixtures.percentageBuffer(NS, "web-headroom", "apps", "Deployment", "web", 20)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));

    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      CapacityBuffer b = buffer("web-headroom");
      assertThat(b.getStatus()).isNotNull();
      assertThat(b.getStatus().getReplicas()).isEqualTo(2);
      assertThat(b.getStatus().getPodTemplateRef().getName()).isEqualTo("capacitybuffer-web-headroom-pod-template");
      assertThat(condition(b, "ReadyForProvisioning")).get().extracting(Condition::getStatus).isEqualTo("True");
    });
    assertThat(admin.pods().inNamespace(NS).list().getItems()).as("dry runs persist nothing").isEmpty();

    Deployment d = admin.apps().deployments().inNamespace(NS).withName("web").get();
    d.getSpec().setReplicas(50);
    d.getStatus().setReplicas(50);
    admin.resource(d).update();
    await().ignoreExceptions().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(buffer("web-headroom").getStatus().getReplicas()).isEqualTo(10));
  }

  @Test
  void fourWorkersGiveTheBuffersOfManyNamespacesTheirStatuses() {
    List<String> namespaces = new java.util.ArrayList<>();
    for (int i = 0; i < 24; i++) {
      String ns = "pool-" + i;
      namespaces.add(ns);
      admin.resource(Fixtures.deployment(ns, "web", 10 + i, "500m")).create();
      admin.resource(Fixtures.percentageBuffer(ns, "web-headroom", "apps", "Deployment", "web", 20)).create();
      admin.resource(Fixtures.podTemplate(ns, "worker", "1")).create();
      admin.resource(Fixtures.templateBuffer(ns, "spare", "worker", 1 + i % 4, null)).create();
    }
    ControllerOptions base = Fixtures.options("controller-pool", false, Duration.ofMinutes(5), false);
    ControllerOptions four = new ControllerOptions(base.namespaces(), true, false, false, base.lease(), base.timing(), 0,
        base.resyncPeriod(), base.settings(), base.dryRunCacheTtl(), 4);
    controller = Fixtures.start(api, "controller-pool", four);
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      for (int i = 0; i < namespaces.size(); i++) {
        String ns = namespaces.get(i);
        CapacityBuffer web = admin.resources(CapacityBuffer.class).inNamespace(ns).withName("web-headroom").get();
        CapacityBuffer spare = admin.resources(CapacityBuffer.class).inNamespace(ns).withName("spare").get();
        // 20 % of 10 + i replicas, rounded up; the template buffer's own replicas
        assertThat(web.getStatus().getReplicas()).as(ns).isEqualTo((int) Math.ceil((10 + i) * 0.2));
        assertThat(spare.getStatus().getReplicas()).as(ns).isEqualTo(1 + i % 4);
        assertThat(condition(web, "ReadyForProvisioning")).get().extracting(Condition::getStatus).isEqualTo("True");
      }
    });
  }

  private PodTemplate managed(String buffer) {
    return admin.v1().podTemplates().inNamespace(NS).withName("capacitybuffer-" + buffer + "-pod-template").get();
  }

  @Test
  void aPodTemplateChangeBumpsTheManagedTemplateAndTheStatus() {
    admin.resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    admin.resource(Fixtures.templateBuffer(NS, "spare", "worker", 3, null)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      CapacityBuffer b = buffer("spare");
      assertThat(b.getStatus().getReplicas()).isEqualTo(3);
      assertThat(b.getStatus().getPodTemplateGeneration()).isEqualTo(1L);
    });
    PodTemplate user = admin.v1().podTemplates().inNamespace(NS).withName("worker").get();
    user.getTemplate().getSpec().getContainers().get(0).getResources().setRequests(Map.of("cpu", new Quantity("2")));
    admin.resource(user).update();
    await().ignoreExceptions().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      assertThat(managed("spare").getTemplate().getSpec().getContainers().get(0).getResources().getRequests())
          .containsEntry("cpu", new Quantity("2"));
      assertThat(buffer("spare").getStatus().getPodTemplateGeneration()).isEqualTo(2L);
    });
    assertThat(managed("spare").getMetadata().getOwnerReferences()).singleElement()
        .satisfies(r -> {
          assertThat(r.getKind()).isEqualTo("CapacityBuffer");
          assertThat(r.getName()).isEqualTo("spare");
          assertThat(r.getController()).isTrue();
        });
  }

  @Test
  void deletingTheReferencedWorkloadTurnsTheBufferNotReadyWithTheSpecMessageAndAnEvent() {
    admin.resource(Fixtures.deployment(NS, "web", 10, "500m")).create();
    admin.resource(Fixtures.percentageBuffer(NS, "web-headroom", "apps", "Deployment", "web", 50)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(buffer("web-headroom").getStatus().getReplicas()).isEqualTo(5));

    admin.apps().deployments().inNamespace(NS).withName("web").delete();
    String notFound = "deployments.apps \"web\" not found";
    await().ignoreExceptions().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      CapacityBuffer b = buffer("web-headroom");
      assertThat(condition(b, "ReadyForProvisioning")).get().satisfies(c -> {
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("error");
        assertThat(c.getMessage()).isEqualTo("Buffer not ready for provisioning: failed to resolve live pod: failed to get scale object: "
            + "failed to get scale sub resource: " + notFound + ", failed to resolve scalable object: failed to get Deployment: "
            + "deployment.apps \"web\" not found");
      });
      assertThat(b.getStatus().getReplicas()).isNull();
      assertThat(b.getStatus().getPodTemplateRef()).isNull();
    });
    await().ignoreExceptions().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(admin.v1().events().inNamespace(NS).list().getItems())
        .anySatisfy(e -> {
          assertThat(e.getReason()).isEqualTo(BufferEvents.REASON_NOT_READY);
          assertThat(e.getType()).isEqualTo("Warning");
          assertThat(e.getInvolvedObject().getName()).isEqualTo("web-headroom");
        }));
  }

  @Test
  void aQuotaChangeReLimitsTheBuffersInCreationOrder() {
    admin.resource(Fixtures.podTemplate(NS, "pod-temp", "1")).create();
    admin.resource(Fixtures.quota(NS, "quota", "5")).create();
    admin.resource(Fixtures.templateBuffer(NS, "b1", "pod-temp", 2, null)).create();
    admin.resource(Fixtures.templateBuffer(NS, "b2", "pod-temp", 4, null)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      assertThat(buffer("b1").getStatus().getReplicas()).isEqualTo(2);
      assertThat(buffer("b2").getStatus().getReplicas()).isEqualTo(3);
      assertThat(condition(buffer("b2"), "LimitedByQuotas")).get().satisfies(c -> {
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getMessage()).isEqualTo("Buffer replicas limited from 4 to 3 due to quotas: quota");
      });
    });
    ResourceQuota q = admin.resourceQuotas().inNamespace(NS).withName("quota").get();
    q.getStatus().setHard(Map.of("cpu", new Quantity("10")));
    admin.resource(q).update();
    await().ignoreExceptions().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      assertThat(buffer("b2").getStatus().getReplicas()).isEqualTo(4);
      assertThat(condition(buffer("b2"), "LimitedByQuotas")).get().extracting(Condition::getStatus).isEqualTo("False");
    });
    assertThat(buffer("b1").getStatus().getReplicas()).isEqualTo(2);
  }

  @Test
  void aKindDiscoveryCannotMapIsReportedWithoutTheScaleSubresourceText() {
    admin.resource(Fixtures.percentageBuffer(NS, "wrong-group", "batch", "Deployment", "web", 50)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(condition(buffer("wrong-group"), "ReadyForProvisioning")).get().satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getMessage()).isEqualTo("Buffer not ready for provisioning: failed to resolve live pod: failed to get scale object: "
              + "no matches for kind \"Deployment\" in version \"batch/\", failed to resolve scalable object: "
              + "kind batch/Deployment is not supported to use pod template");
        }));
  }

  @Test
  void aCustomKindWithAScaleSubresourceIsWatchedAndItsLivePodUsed() {
    admin.apiextensions().v1().customResourceDefinitions().resource(ApiServer.scalableCrd("sandbox.example.dev", "WarmPool", "warmpools")).create();
    ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder().withGroup("sandbox.example.dev").withVersion("v1alpha1")
        .withKind("WarmPool").withPlural("warmpools").withNamespaced(true).build();
    GenericKubernetesResource pool = new GenericKubernetesResourceBuilder().withApiVersion("sandbox.example.dev/v1alpha1").withKind("WarmPool")
        .withNewMetadata().withNamespace(NS).withName("pool").endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("replicas", 4))).build();
    admin.genericKubernetesResources(ctx).inNamespace(NS).resource(pool).create();
    GenericKubernetesResource stored = admin.genericKubernetesResources(ctx).inNamespace(NS).withName("pool").get();
    stored.setAdditionalProperty("status", Map.of("replicas", 4, "selector", "app=sandbox"));
    admin.genericKubernetesResources(ctx).inNamespace(NS).resource(stored).updateStatus();
    admin.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("sandbox-1").withNamespace(NS)
        .withLabels(Map.of("app", "sandbox")).withCreationTimestamp("2026-01-01T00:00:00Z").endMetadata()
        .withNewSpec().withNodeName("node-1").addNewContainer().withName("sandbox").withImage("sandbox:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("250m"))).endResources().endContainer().endSpec().build()).create();
    admin.resource(Fixtures.percentageBuffer(NS, "pool-headroom", "sandbox.example.dev", "WarmPool", "pool", 50)).create();
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));

    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      CapacityBuffer b = buffer("pool-headroom");
      assertThat(b.getStatus().getReplicas()).isEqualTo(2);
      assertThat(condition(b, "ReadyForProvisioning")).get().extracting(Condition::getStatus).isEqualTo("True");
    });
    assertThat(managed("pool-headroom").getTemplate().getSpec().getNodeName()).isNull();
    assertThat(controller.caches().customKinds().watched()).extracting(Object::toString).containsExactly("sandbox.example.dev/WarmPool");

    GenericKubernetesResource now = admin.genericKubernetesResources(ctx).inNamespace(NS).withName("pool").get();
    now.setAdditionalProperty("status", Map.of("replicas", 8, "selector", "app=sandbox"));
    admin.genericKubernetesResources(ctx).inNamespace(NS).resource(now).updateStatus();
    await().ignoreExceptions().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(buffer("pool-headroom").getStatus().getReplicas()).isEqualTo(4));
  }

  @Test
  void injectedConflictsAndServerErrorsAreRetriedWithoutLostOrDuplicatedWrites() {
    admin.resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    admin.resource(Fixtures.templateBuffer(NS, "spare", "worker", 3, null)).create();
    api.dispatcher().failNext(c -> c.method().equals("POST") && c.resource().equals("podtemplates"), 500, 1);
    api.dispatcher().failNext(c -> c.method().equals("PUT") && "status".equals(c.subresource()), 409, 2);
    api.dispatcher().failNext(c -> c.method().equals("PUT") && "status".equals(c.subresource()), 500, 1);
    controller = Fixtures.start(api, "controller-a", Fixtures.options("controller-a", false, Duration.ofMinutes(5), true));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(buffer("spare").getStatus().getReplicas()).isEqualTo(3));
    await().ignoreExceptions().atMost(Duration.ofSeconds(5)).until(() -> controller.queue().depth() == 0 && controller.queue().waitingCount() == 0);

    List<ApiCall> writes = api.writesBy("controller-a");
    assertThat(writes.stream().filter(c -> c.resource().equals("podtemplates") && c.method().equals("POST")))
        .as("one failed and one successful create of the managed template").hasSize(2);
    List<ApiCall> statusWrites = writes.stream().filter(c -> "status".equals(c.subresource())).toList();
    assertThat(statusWrites).as("two conflicts, one server error, one success").hasSize(4);
    assertThat(api.dispatcher().calls().stream().filter(c -> c.verb().equals("get") && c.resource().equals("capacitybuffers")
        && "controller-a".equals(c.userAgent()))).as("a re-read after each conflict").hasSize(2);
    assertThat(controller.metrics().registry().find("headroom.status.writes").tag("result", "written").counter().count())
        .as("exactly one status write succeeded").isEqualTo(1.0);
    assertThat(controller.metrics().registry().find("headroom.status.writes").tag("result", "conflict").counter().count()).isEqualTo(2.0);
  }
}
