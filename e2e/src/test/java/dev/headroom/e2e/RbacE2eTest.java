package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Item 3: {@code headroom run} as deploy/'s ServiceAccount (a client certificate for its user name and groups, bound
 * by deploy/'s ClusterRoleBinding to deploy/'s ClusterRole plus the autoscaler's aggregated role): every call it makes
 * succeeds, PodGroup reads included (the coscheduling PodGroup CRD is applied for the test).
 */
class RbacE2eTest {
  static final String SERVICE_ACCOUNT = "system:serviceaccount:headroom-system:headroom-controller";
  private TestBed bed;
  private HeadroomProcess headroom;
  private final List<String> namespaces = new ArrayList<>();

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    namespaces.forEach(bed::deleteNamespace);
    bed.deletePodGroupCrd();
    bed.admin().nodes().withLabel("headroom.dev/node-group", "general").delete();
  }

  @Test
  void everyCallOfTheServiceAccountIsAllowed() throws Exception {
    bed = TestBed.get();
    KubernetesClient admin = bed.admin();
    bed.applyCrd();
    bed.applyPodGroupCrd(); // so the autoscaler watches PodGroups too
    for (String f : List.of("deploy/namespace.yaml", "deploy/serviceaccount.yaml", "deploy/rbac.yaml",
        "deploy/examples/autoscaler-rbac.yaml", "deploy/examples/kwok-node-groups.yaml")) {
      try (InputStream in = Files.newInputStream(bed.root().resolve(f))) {
        for (HasMetadata o : admin.load(in).items()) {
          admin.resource(o).fieldManager("headroom-e2e").forceConflicts().serverSideApply();
        }
      }
    }
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    List<String> ns = new ArrayList<>();
    for (String example : List.of("quickstart.yaml", "quota-limited.yaml", "pod-template-limits.yaml")) {
      ClusterExplain.Applied a = ClusterExplain.apply(bed, ClusterExplain.load(bed.root().resolve("examples/buffers/" + example)),
          "rbac-" + suffix);
      ns.addAll(a.namespaces().values());
    }
    namespaces.addAll(ns);
    Instant from = Instant.now();
    Path kubeconfig = bed.user(SERVICE_ACCOUNT, "system:serviceaccounts", "system:serviceaccounts:headroom-system");
    // As deploy/deployment.yaml runs it (leader election in headroom-system, all namespaces), plus the autoscaler.
    headroom = HeadroomProcess.startAs(bed, SERVICE_ACCOUNT, kubeconfig, List.of("--cloud-provider=kwok", "--scan-interval=1s"));
    // The buffer controller's part of each status is explain's; the autoscaler adds its own two condition types.
    await("statuses equal explain's").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
        assertThat(withoutAutoscalerConditions(ClusterExplain.clusterStatuses(admin, ns)))
            .isEqualTo(ClusterExplain.explainStatuses(admin, ns, Instant.now())));
    await("the autoscaler created a node").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> !admin.nodes().withLabel("headroom.dev/node-group", "general").list().getItems().isEmpty());
    AuditLog audit = bed.audit();
    List<AuditLog.Event> calls = audit.events(e -> e.user().equals(SERVICE_ACCOUNT) && e.received().isAfter(from));
    assertThat(calls).as("calls made by the service account").hasSizeGreaterThan(10);
    assertThat(calls).as("refused calls").filteredOn(e -> e.code() == 401 || e.code() == 403).isEmpty();
    assertThat(calls).as("PodGroup list").anyMatch(e -> e.resource().equals("podgroups") && e.verb().equals("list"));
    Map<String, Long> byResource = new java.util.TreeMap<>();
    calls.forEach(e -> byResource.merge(e.verb() + " " + e.resource() + (e.subresource().isEmpty() ? "" : "/" + e.subresource()), 1L, Long::sum));
    Measurements.record("calls of the service account by verb and resource", byResource);
  }

  static Map<String, tools.jackson.databind.JsonNode> withoutAutoscalerConditions(Map<String, tools.jackson.databind.JsonNode> statuses) {
    Map<String, tools.jackson.databind.JsonNode> out = new java.util.TreeMap<>();
    statuses.forEach((k, v) -> {
      tools.jackson.databind.node.ObjectNode s = (tools.jackson.databind.node.ObjectNode) v.deepCopy();
      if (s.get("conditions") instanceof tools.jackson.databind.node.ArrayNode list) {
        tools.jackson.databind.node.ArrayNode kept = ClusterExplain.JSON.createArrayNode();
        for (tools.jackson.databind.JsonNode c : list) {
          String type = c.path("type").asString();
          if (!type.equals(BufferConditions.PROVISIONING) && !type.equals(BufferConditions.CAPACITY_AVAILABLE)) {
            kept.add(c);
          }
        }
        s.set("conditions", kept);
      }
      out.put(k, s);
    });
    return out;
  }
}
