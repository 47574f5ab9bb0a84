package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 5: {@code headroom run --cloud-provider=kwok} with the real kube-scheduler and kwok. Nodes are 4 CPUs; every
 * pod asks for 1 CPU. Without a buffer pods wait for a scale-up; an unneeded node is drained honouring a PDB and
 * removed; a buffer of 4 chunks gets nodes ahead of demand, which are never removed, and 4 new pods bind there
 * without a new node; pods beyond the buffer (and beyond the room it provisions again) trigger a scale-up.
 */
class AutoscalerE2eTest {
  static final String GROUP_LABEL = "headroom.dev/node-group";
  static final Duration UNNEEDED = Duration.ofSeconds(5);
  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private String group;
  private HeadroomProcess headroom;

  @BeforeEach
  void setUp() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    ns = bed.namespace("autoscaler");
    group = "e2e-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    Path groups = bed.nodeGroupFile(group, 10);
    headroom = HeadroomProcess.start(bed, "headroom-autoscaler-" + group, List.of("--leader-elect=false", "--namespace=" + ns,
        "--cloud-provider=kwok", "--node-groups=" + groups, "--scan-interval=1s",
        "--scale-down-unneeded-time=" + UNNEEDED.toSeconds() + "s", "--scale-down-delay-after-add=" + UNNEEDED.toSeconds() + "s",
        "--node-delete-delay-after-taint=1s", "--max-node-provision-time=2m"));
  }

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    bed.deleteNamespace(ns);
    admin.nodes().withLabel(GROUP_LABEL, group).delete();
  }

  @Test
  void bufferedCapacityIsThereAheadOfDemandAndNeverRemoved() {
    AuditLog audit = bed.audit();
    String user = headroom.user();
    deployment("plain", 0);
    deployment("app", 0);

    // 1. Without a buffer: pods wait for a scale-up.
    Duration unbuffered = scaleAndTimeBinding("plain", 4);
    assertThat(nodes()).hasSize(1);
    Duration unbufferedMore = scaleAndTimeBinding("plain", 5);
    assertThat(nodes()).hasSize(2);
    Measurements.record("pod bind latency without a buffer, 4 pods from zero nodes (ms, slowest pod)", unbuffered.toMillis());
    Measurements.record("pod bind latency without a buffer, 1 pod beyond a full node (ms)", unbufferedMore.toMillis());

    // 2. Scale-down: two nodes with one pod each; one is unneeded, but a PDB forbids the eviction at first.
    PodDisruptionBudget pdb = admin.policy().v1().podDisruptionBudget().inNamespace(ns).resource(new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName("plain").endMetadata().withNewSpec().withMinAvailable(new IntOrString(2))
        .withNewSelector().addToMatchLabels("app", "plain").endSelector().endSpec().build()).create();
    // Keep one pod per node (the ReplicaSet removes the pods of lowest deletion cost first).
    Set<String> keptNodes = new HashSet<>();
    for (Pod p : pods("plain")) {
      String cost = keptNodes.add(p.getSpec().getNodeName()) ? "100" : "-100";
      admin.pods().inNamespace(ns).withName(p.getMetadata().getName())
          .edit(x -> new io.fabric8.kubernetes.api.model.PodBuilder(x).editMetadata()
              .addToAnnotations("controller.kubernetes.io/pod-deletion-cost", cost).endMetadata().build());
    }
    admin.apps().deployments().inNamespace(ns).withName("plain").scale(2);
    await("plain at 2 pods").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> pods("plain").size() == 2 && pods("plain").stream().allMatch(p -> p.getSpec().getNodeName() != null));
    Map<String, Long> perNode = pods("plain").stream().collect(Collectors.groupingBy(p -> p.getSpec().getNodeName(), Collectors.counting()));
    assertThat(perNode).as("one pod on each node").hasSize(2);
    await("the PDB holds both nodes").during(UNNEEDED.multipliedBy(2)).atMost(UNNEEDED.multipliedBy(3))
        .pollInterval(Duration.ofMillis(200)).until(() -> nodes().size() == 2);
    assertThat(audit.events(e -> e.user().equals(user) && e.subresource().equals("eviction") && e.code() == 201)).isEmpty();
    admin.policy().v1().podDisruptionBudget().inNamespace(ns).withName(pdb.getMetadata().getName()).edit(p -> {
      p.getSpec().setMinAvailable(new IntOrString(1));
      return p;
    });
    await("one node removed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> nodes().size() == 1);
    await("plain back at 2 bound pods").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> pods("plain").size() == 2 && pods("plain").stream().allMatch(p -> p.getSpec().getNodeName() != null));
    List<AuditLog.Event> deletes = audit.events(e -> e.user().equals(user) && e.resource().equals("nodes") && e.verb().equals("delete"));
    assertThat(deletes).hasSize(1);
    String removed = deletes.get(0).name();
    List<AuditLog.Event> before = audit.events(e -> e.user().equals(user) && e.resource().equals("nodes") && e.name().equals(removed)
        && (e.verb().equals("patch") || e.verb().equals("update")) && e.received().isBefore(deletes.get(0).received()));
    assertThat(before).as("the removed node was tainted and cordoned first").isNotEmpty();
    assertThat(before.stream().anyMatch(e -> e.raw().path("requestObject").toString().contains("unschedulable"))).isTrue();
    assertThat(audit.events(e -> e.user().equals(user) && e.subresource().equals("eviction") && e.code() == 201))
        .as("the pod on the removed node was evicted through the Eviction API").hasSize(1);
    Measurements.record("evictions refused while the PDB allowed none (HTTP 429)",
        audit.events(e -> e.user().equals(user) && e.subresource().equals("eviction") && e.code() == 429).size());

    // 3. A buffer of 4 chunks of app's pod: nodes ahead of demand, Ready, and never removed.
    GenericKubernetesResource buffer = new GenericKubernetesResource();
    buffer.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    buffer.setKind(CapacityBufferVersion.KIND);
    buffer.setMetadata(new ObjectMetaBuilder().withName("app-buffer").withNamespace(ns).build());
    buffer.setAdditionalProperty("spec", Map.of("scalableRef", Map.of("apiGroup", "apps", "kind", "Deployment", "name", "app"), "replicas", 4));
    admin.resource(buffer).create();
    await("buffer capacity available").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> capacityAvailable("app-buffer") && nodes().stream().allMatch(AutoscalerE2eTest::ready));
    Set<String> bufferedNodes = names(nodes());
    // 2 CPUs are free on the remaining node, so one more 4-CPU node holds the other 2 chunks.
    assertThat(bufferedNodes).hasSize(2);
    Instant quietFrom = Instant.now();
    await("buffer nodes stay").during(UNNEEDED.multipliedBy(2).plusSeconds(2)).atMost(UNNEEDED.multipliedBy(3).plusSeconds(2))
        .pollInterval(Duration.ofMillis(200)).until(() -> names(nodes()).equals(bufferedNodes));
    assertThat(audit.events(e -> e.user().equals(user) && e.resource().equals("nodes") && e.received().isAfter(quietFrom)
        && (e.verb().equals("create") || e.verb().equals("delete")))).as("no node created or deleted while the buffer is steady").isEmpty();

    // 4. Demand arrives: 4 pods bind on the buffered room without a new node.
    Duration buffered = scaleAndTimeBinding("app", 4);
    Measurements.record("pod bind latency with a 4-chunk buffer, 4 pods (ms, slowest pod)", buffered.toMillis());
    assertThat(pods("app")).allMatch(p -> bufferedNodes.contains(p.getSpec().getNodeName()));
    assertThat(buffered).isLessThan(unbuffered);

    // 5. Pods beyond the buffer trigger a scale-up. Meanwhile the buffer may already hold room for 4 more chunks
    // again, so 4 + 3 more pods: at least 3 of them need nodes that do not exist yet.
    Set<String> beforeBeyond = names(nodes());
    Duration beyond = scaleAndTimeBinding("app", 11);
    Measurements.record("pod bind latency beyond the buffer, 7 more pods (ms, slowest pod)", beyond.toMillis());
    assertThat(pods("app")).as("some pods bound on nodes created for them")
        .anyMatch(p -> !beforeBeyond.contains(p.getSpec().getNodeName()));
    assertThat(audit.events(e -> e.user().equals(user) && e.resource().equals("nodes") && e.verb().equals("delete"))).hasSize(1);
  }

  private void deployment(String name, int replicas) {
    Deployment d = new DeploymentBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withReplicas(replicas)
        .withNewSelector().addToMatchLabels("app", name).endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
        .addNewContainer().withName(name).withImage("example.com/" + name + ":1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .withTerminationGracePeriodSeconds(0L).endSpec().endTemplate().endSpec().build();
    bed.create(ns, d);
  }

  /** Scales a Deployment and returns how long its slowest new pod took to be bound, measured from the scale call. */
  private Duration scaleAndTimeBinding(String name, int replicas) {
    Set<String> boundBefore = names(pods(name).stream().filter(p -> p.getSpec().getNodeName() != null).toList());
    Map<String, Long> boundAt = new HashMap<>();
    long start = System.nanoTime();
    admin.apps().deployments().inNamespace(ns).withName(name).scale(replicas);
    await(name + " scaled to " + replicas + " and bound").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20)).until(() -> {
      List<Pod> pods = pods(name);
      long now = System.nanoTime();
      for (Pod p : pods) {
        if (p.getSpec().getNodeName() != null && !boundBefore.contains(p.getMetadata().getName())) {
          boundAt.putIfAbsent(p.getMetadata().getName(), now - start);
        }
      }
      return pods.size() == replicas && pods.stream().allMatch(p -> p.getSpec().getNodeName() != null);
    });
    return Duration.ofNanos(boundAt.values().stream().mapToLong(Long::longValue).max().orElse(0));
  }

  private List<Pod> pods(String app) {
    return admin.pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private List<Node> nodes() {
    return admin.nodes().withLabel(GROUP_LABEL, group).list().getItems().stream()
        .filter(n -> n.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private static boolean ready(Node n) {
    return n.getStatus() != null && n.getStatus().getConditions() != null
        && n.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
  }

  private static Set<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).collect(Collectors.toCollection(HashSet::new));
  }

  @SuppressWarnings("unchecked")
  private boolean capacityAvailable(String name) {
    GenericKubernetesResource b = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND)
        .inNamespace(ns).withName(name).get();
    Object status = b.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> list)) {
      return false;
    }
    return ((List<Map<String, Object>>) list).stream()
        .anyMatch(c -> "CapacityAvailable".equals(c.get("type")) && "True".equals(c.get("status")));
  }
}
