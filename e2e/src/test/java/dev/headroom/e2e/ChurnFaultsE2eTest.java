package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue #28 item 3, the last two faults, on the real control plane: a ResourceQuota changed while the controller
 * reconciles the namespace it limits, and buffers deleted (and re-created under the same name) while their status
 * writes are in flight, 40 rounds 50 ms apart. Afterwards: every status is what {@code explain} computes, no status
 * write repeats the previous one of the same object, no write reached a deleted buffer, every managed PodTemplate
 * belongs to a buffer that exists, and Headroom is alive and ready.
 */
class ChurnFaultsE2eTest {
  static final int ROUNDS = 40;
  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private HeadroomProcess headroom;

  @BeforeEach
  void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    ns = bed.namespace("churn");
    headroom = HeadroomProcess.start(bed, "headroom-churn-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36),
        List.of("--leader-elect=false", "--namespace=" + ns, "--resync-period=2s"));
  }

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    bed.deleteNamespace(ns);
  }

  @Test
  void quotaChangesAndDeletesDuringReconcilesLoseNothingAndWriteNothingTwice() {
    PodTemplate worker = new PodTemplateBuilder().withNewMetadata().withName("worker").endMetadata().withNewTemplate().withNewSpec()
        .addNewContainer().withName("w").withImage("example.com/w:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .endSpec().endTemplate().build();
    bed.create(ns, worker);
    quota(10);
    for (int i = 0; i < 4; i++) {
      buffer("steady-" + i, 3);
    }
    List<String> namespaces = List.of(ns);
    awaitStatusesEqualExplain(namespaces);

    Instant churnFrom = Instant.now();
    for (int round = 0; round < ROUNDS; round++) {
      quota(6 + round % 9);
      if (round % 2 == 0) {
        buffer("victim", 2);
      } else {
        admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND).inNamespace(ns)
            .withName("victim").delete();
      }
      pause(50);
    }
    quota(9);
    awaitStatusesEqualExplain(namespaces);
    assertThat(headroom.alive()).isTrue();
    assertThat(headroom.ready()).isTrue();
    await("every managed PodTemplate belongs to a buffer (the garbage collector removes the deleted ones')")
        .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
          Set<String> owners = managedOwners();
          Set<String> buffers = ClusterExplain.buffers(admin, ns).stream().map(b -> b.getMetadata().getUid()).collect(Collectors.toSet());
          assertThat(buffers).containsAll(owners);
        });

    headroom.close();
    AuditLog audit = bed.audit();
    String user = headroom.user();
    List<AuditLog.Event> writes = audit.events(e -> e.user().equals(user) && e.bufferWrite() && e.subresource().equals("status")
        && e.received().isAfter(churnFrom));
    assertThat(writes).as("status writes during the churn").isNotEmpty();
    Map<String, JsonNode> last = new HashMap<>();
    List<String> repeated = new ArrayList<>();
    for (AuditLog.Event e : writes) {
      if (e.code() != 200) {
        continue;
      }
      String uid = e.raw().path("requestObject").path("metadata").path("uid").asString();
      JsonNode status = e.raw().path("requestObject").path("status");
      if (status.equals(last.put(uid, status))) {
        repeated.add(e.toString());
      }
    }
    assertThat(repeated).as("successful status writes repeating the previous one of the same object").isEmpty();
    Map<Integer, Long> codes = writes.stream().collect(Collectors.groupingBy(AuditLog.Event::code, Collectors.counting()));
    assertThat(codes.keySet()).as("status write outcomes: written, conflict, gone").isSubsetOf(200, 409, 404);
    Measurements.record("churn: status writes by HTTP code during " + ROUNDS + " rounds of quota changes and buffer deletes", codes);
  }

  private Set<String> managedOwners() {
    Set<String> owners = new java.util.HashSet<>();
    for (PodTemplate t : admin.resources(PodTemplate.class).inNamespace(ns).list().getItems()) {
      if (t.getMetadata().getOwnerReferences() != null) {
        t.getMetadata().getOwnerReferences().stream().filter(r -> CapacityBufferVersion.KIND.equals(r.getKind()))
            .forEach(r -> owners.add(r.getUid()));
      }
    }
    return owners;
  }

  private void quota(int cpu) {
    admin.resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder().withNewMetadata().withName("cpu").endMetadata()
        .withNewSpec().withHard(Map.of("cpu", new Quantity(Integer.toString(cpu)))).endSpec().build()).serverSideApply();
  }

  private void buffer(String name, int replicas) {
    GenericKubernetesResource b = new GenericKubernetesResource();
    b.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    b.setKind(CapacityBufferVersion.KIND);
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    b.setAdditionalProperty("spec", Map.of("podTemplateRef", Map.of("name", "worker"), "replicas", replicas));
    var client = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND).inNamespace(ns);
    // the previous one of this name may still be finishing its deletion
    await("create " + name).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
        .until(() -> client.resource(b).create() != null);
  }

  private static void pause(long millis) {
    long until = System.nanoTime() + millis * 1_000_000;
    await().pollDelay(Duration.ofMillis(millis)).atMost(Duration.ofMillis(millis + 1000)).until(() -> System.nanoTime() >= until);
  }

  private void awaitStatusesEqualExplain(List<String> namespaces) {
    await("statuses equal explain's").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
        assertThat(RbacE2eTest.withoutAutoscalerConditions(ClusterExplain.clusterStatuses(admin, namespaces)))
            .isNotEmpty()
            .isEqualTo(ClusterExplain.explainStatuses(admin, namespaces, Instant.now())));
  }
}
