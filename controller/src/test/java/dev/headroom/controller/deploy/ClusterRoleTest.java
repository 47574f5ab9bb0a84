package dev.headroom.controller.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.testing.RunningController;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ClusterRole grants exactly the calls the controller makes: an end-to-end run that exercises every code path
 * that talks to the API (informers, dry run, managed template create and update, live template read, status write
 * with a conflict re-read, events, custom-kind resolution and watch, leader election) is recorded at the mock
 * server, and the recorded (group, resource, verb) triples must equal the rules in {@code deploy/rbac.yaml}.
 */
class ClusterRoleTest {
  private static final String AGENT = "rbac-probe";
  private static final String NS = "probe";
  private final ApiServer api = new ApiServer();
  private RunningController controller;

  @AfterEach
  void stop() {
    if (controller != null) {
      controller.close();
    }
    api.close();
  }

  private static Set<String> triples(List<PolicyRule> rules) {
    Set<String> out = new TreeSet<>();
    for (PolicyRule r : rules) {
      for (String g : r.getApiGroups()) {
        for (String res : r.getResources()) {
          for (String v : r.getVerbs()) {
            out.add(g + " " + res + " " + v);
          }
        }
      }
    }
    return out;
  }

  private Integer replicas(String name) {
    CapacityBuffer b = api.admin().resources(CapacityBuffer.class).inNamespace(NS).withName(name).get();
    return b == null || b.getStatus() == null ? null : b.getStatus().getReplicas();
  }

  @Test
  void theClusterRoleMatchesTheRecordedCallsExactly() {
    var admin = api.admin();
    admin.apiextensions().v1().customResourceDefinitions().resource(ApiServer.scalableCrd("sandbox.example.dev", "WarmPool", "warmpools")).create();
    ResourceDefinitionContext pools = new ResourceDefinitionContext.Builder().withGroup("sandbox.example.dev").withVersion("v1alpha1")
        .withKind("WarmPool").withPlural("warmpools").withNamespaced(true).build();
    admin.genericKubernetesResources(pools).inNamespace(NS).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion("sandbox.example.dev/v1alpha1").withKind("WarmPool").withNewMetadata().withName("pool").withNamespace(NS).endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("replicas", 2))).build()).create();
    admin.resource(Fixtures.deployment(NS, "web", 10, "500m")).create();
    admin.resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    admin.resource(Fixtures.quota(NS, "quota", "100")).create();
    admin.resource(Fixtures.percentageBuffer(NS, "web-headroom", "apps", "Deployment", "web", 20)).create();
    admin.resource(Fixtures.templateBuffer(NS, "spare", "worker", 2, null)).create();
    admin.resource(Fixtures.templateBuffer(NS, "orphan", "missing-template", 1, null)).create();
    admin.resource(Fixtures.percentageBuffer(NS, "pool-headroom", "sandbox.example.dev", "WarmPool", "pool", 50)).create();
    api.dispatcher().failNext(c -> "status".equals(c.subresource()) && "spare".equals(c.name()), 409, 1);

    controller = Fixtures.start(api, AGENT, Fixtures.options(AGENT, true, Duration.ofMinutes(5), true));
    await().atMost(Duration.ofSeconds(30)).until(() -> replicas("web-headroom") != null && replicas("spare") != null);
    await().atMost(Duration.ofSeconds(10)).until(() -> !admin.v1().events().inNamespace(NS).list().getItems().isEmpty());
    PodTemplate worker = admin.v1().podTemplates().inNamespace(NS).withName("worker").get();
    worker.getTemplate().getSpec().getContainers().get(0).getResources().setRequests(Map.of("cpu", new Quantity("2")));
    admin.resource(worker).update();
    await().atMost(Duration.ofSeconds(10)).until(() -> api.callsBy(AGENT).stream()
        .anyMatch(c -> c.resource().equals("podtemplates") && c.verb().equals("update")));

    Set<String> recorded = new TreeSet<>(api.rbacTriples(AGENT));
    Set<String> custom = recorded.stream().filter(t -> t.startsWith("sandbox.example.dev ")).collect(Collectors.toCollection(TreeSet::new));
    recorded.removeAll(custom);
    Set<String> leases = recorded.stream().filter(t -> t.startsWith("coordination.k8s.io ")).collect(Collectors.toCollection(TreeSet::new));
    recorded.removeAll(leases);

    List<HasMetadata> rbac = Manifests.objects("rbac.yaml");
    ClusterRole role = rbac.stream().filter(o -> o instanceof ClusterRole && o.getMetadata().getName().equals("headroom-controller"))
        .map(ClusterRole.class::cast).findFirst().orElseThrow();
    Role leaseRole = rbac.stream().filter(o -> o instanceof Role).map(Role.class::cast).findFirst().orElseThrow();
    assertThat(triples(role.getRules())).as("ClusterRole headroom-controller").isEqualTo(recorded);
    assertThat(triples(leaseRole.getRules())).as("leader-election Role").isEqualTo(leases);

    ClusterRole example = Manifests.objects("examples/scalable-kind-rbac.yaml").stream().map(ClusterRole.class::cast).findFirst().orElseThrow();
    assertThat(triples(example.getRules())).as("custom kinds need at most what the example grants").containsAll(custom);
    assertThat(custom).contains("sandbox.example.dev warmpools list", "sandbox.example.dev warmpools watch");
  }
}
