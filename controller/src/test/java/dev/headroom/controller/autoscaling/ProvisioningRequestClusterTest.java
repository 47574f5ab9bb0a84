package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.provisioningrequest.v1.PodSet;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestSpec;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * ProvisioningRequests in cluster mode: the production iteration (a ProvisioningRequest round around
 * {@code runOnce}) over the CRUD mock server, the conditions written through the status subresource; API discovery
 * answered by an expectation (the kind is served only once it answers).
 */
@EnableKubernetesMockClient(crud = true)
class ProvisioningRequestClusterTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private void serve() {
    server.expect().get().withPath("/apis/" + ProvisioningRequest.API_VERSION).andReturn(200, new APIResourceListBuilder()
        .withGroupVersion(ProvisioningRequest.API_VERSION)
        .addNewResource().withName(ProvisioningRequest.PLURAL).withKind(ProvisioningRequest.KIND).withNamespaced(true)
        .withVerbs("get", "list", "watch").endResource()
        .addNewResource().withName(ProvisioningRequest.PLURAL + "/status").withKind(ProvisioningRequest.KIND).withNamespaced(true)
        .withVerbs("get", "update").endResource()
        .build()).always();
  }

  private void template(String name, String cpu) {
    client.resources(io.fabric8.kubernetes.api.model.PodTemplate.class).inNamespace(ClusterFixture.NS).resource(new PodTemplateBuilder()
        .withNewMetadata().withName(name).withNamespace(ClusterFixture.NS).endMetadata()
        .withNewTemplate().withSpec(ClusterFixture.spec(cpu, "1Gi")).endTemplate().build()).create();
  }

  private void request(String name, String cls, String template, int count) {
    ProvisioningRequest pr = new ProvisioningRequest();
    pr.getMetadata().setName(name);
    pr.getMetadata().setNamespace(ClusterFixture.NS);
    ProvisioningRequestSpec spec = new ProvisioningRequestSpec();
    spec.setProvisioningClassName(cls);
    spec.setPodSets(List.of(new PodSet(template, count)));
    pr.setSpec(spec);
    client.resources(ProvisioningRequest.class).inNamespace(ClusterFixture.NS).resource(pr).create();
  }

  private List<String> conditions(String name) {
    ProvisioningRequest pr = client.resources(ProvisioningRequest.class).inNamespace(ClusterFixture.NS).withName(name).get();
    return pr.getStatus() == null ? List.of() : pr.getStatus().getConditions().stream()
        .map((Condition c) -> c.getType() + "=" + c.getStatus() + " " + c.getReason()).toList();
  }

  private static List<NodeGroup> groups(int max) {
    return NodeGroupConfig.parse("groups.yaml", KwokAutoscalingTest.groups(0, max, 0, "60s"));
  }

  private ClusterFixture fixture(AtomicReference<List<NodeGroup>> groups) {
    return new ClusterFixture(client, ClusterFixture.options().build(),
        f -> new KwokProvider(client, groups::get, () -> client.nodes().list().getItems(), f.clock, new Random(7)));
  }

  private static int requested(IterationResult r) {
    return r.scaleUp().stream().mapToInt(IterationResult.ScaleUpDecision::delta).sum();
  }

  @Test
  void aBestEffortAtomicRequestScalesUpForAllItsPodsAndIsProvisionedInItsStatus() {
    serve();
    template("trainer", "3");
    request("train", ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC, "trainer", 3);
    ClusterFixture f = fixture(new AtomicReference<>(groups(5)));
    IterationResult r = f.step();
    assertThat(requested(r)).isEqualTo(3); // one 3-cpu pod per 4-cpu node
    assertThat(r.podGroups()).singleElement().satisfies(g -> assertThat(g.source()).isEqualTo("provisioning request"));
    assertThat(conditions("train")).containsExactly("Accepted=True Accepted", "Provisioned=True CapacityIsProvisioned");
  }

  @Test
  void oneThatCannotGetAllOfItGetsNoNodeAndIsRetriedLater() {
    serve();
    template("trainer", "3");
    request("train", ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC, "trainer", 3);
    AtomicReference<List<NodeGroup>> groups = new AtomicReference<>(groups(2));
    ClusterFixture f = fixture(groups);
    IterationResult blocked = f.step();
    assertThat(requested(blocked)).isZero();
    assertThat(conditions("train")).containsExactly("Accepted=True Accepted", "Provisioned=False CapacityIsNotFound");
    // within the 1 minute backoff it is not taken up again, after it (the fixture's clock) it is
    groups.set(groups(5));
    assertThat(requested(f.step(Duration.ofSeconds(30)))).isZero();
    assertThat(requested(f.step(Duration.ofSeconds(40)))).isEqualTo(3);
    assertThat(conditions("train")).containsExactly("Accepted=True Accepted", "Provisioned=True CapacityIsProvisioned");
  }

  @Test
  void withoutTheCrdNothingIsReadAndPendingPodsScaleAsUsual() {
    ClusterFixture f = fixture(new AtomicReference<>(groups(5)));
    f.deployment("web", 2, "3", "1Gi");
    f.scheduler.schedule();
    assertThat(requested(f.step())).isEqualTo(2);
  }

  @Test
  void theInformerStartsWithoutTheCrdAndWatchesOnceItIsServed() {
    template("worker", "1");
    try (ProvisioningRequestInformer informer = new ProvisioningRequestInformer(client, null,
        new CrdWait.Backoff(Duration.ofMillis(20), Duration.ofMillis(100)))) {
      informer.start();
      await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
      assertThat(informer.watching()).isFalse();
      assertThat(informer.requests()).isEmpty();
      serve();
      request("probe", ProvisioningRequest.CLASS_CHECK_CAPACITY, "worker", 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> !informer.requests().isEmpty());
      assertThat(informer.watching()).isTrue();
      assertThat(informer.requests()).singleElement().satisfies(pr -> assertThat(pr.getMetadata().getName()).isEqualTo("probe"));
    }
  }
}
