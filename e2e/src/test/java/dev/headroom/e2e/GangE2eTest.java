package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.controller.autoscaling.AutoscalerMetrics;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.core.autoscaler.Events;
import dev.headroom.core.autoscaler.PodGroups;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #19 in cluster mode: {@code headroom run --cloud-provider=kwok} with the real kube-scheduler (which has no
 * coscheduling plugin; Headroom's decision is what is tested). The PodGroup CRD is applied after Headroom started;
 * Headroom picks it up. A PodGroup with minMember 3 whose workers need one 4-CPU node each, in a node group whose
 * maxSize allows two: no node, an event naming the limit; maxSize raised: the three nodes in one loop. Gated pods are
 * never demand.
 */
class GangE2eTest {
  static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder().withGroup(PodGroups.COSCHEDULING_API_GROUP)
      .withVersion("v1alpha1").withPlural("podgroups").withKind(PodGroups.POD_GROUP_KIND).withNamespaced(true).build();

  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private String group;
  private HeadroomProcess headroom;

  @BeforeEach
  void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    bed.deletePodGroupCrd(); // a previous run's; Headroom must start without it
    ns = bed.namespace("gang");
    group = "gang-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    nodeGroups(2);
    headroom = HeadroomProcess.start(bed, "headroom-gang-" + group, List.of("--leader-elect=false", "--namespace=" + ns,
        "--leader-elect-resource-namespace=" + ns, "--cloud-provider=kwok", "--scan-interval=1s", "--max-node-provision-time=2m"));
  }

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    bed.deleteNamespace(ns);
    admin.nodes().withLabel(NodeGroupLabels.NODE_GROUP, group).delete();
    bed.deletePodGroupCrd();
  }

  /** The ConfigMap {@code headroom-node-groups} in the test namespace: one group of 4-CPU nodes, 0 to {@code maxSize}. */
  private void nodeGroups(int maxSize) {
    try {
      String doc = Files.readString(bed.nodeGroupFile(group, maxSize));
      admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName(NodeGroupConfig.CONFIG_MAP_NAME)
          .withNamespace(ns).endMetadata().addToData(NodeGroupConfig.CONFIG_MAP_KEY, doc).build()).serverSideApply();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A pod of {@code cpu} CPUs that only this test's node group can hold. */
  private void pod(String name, String cpu, Map<String, String> labels, boolean gated) {
    PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).withLabels(labels).endMetadata()
        .withNewSpec().addToNodeSelector(NodeGroupLabels.NODE_GROUP, group).withTerminationGracePeriodSeconds(0L)
        .addNewContainer().withName("app").withImage("registry.k8s.io/pause:3.10")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("256Mi"))).endResources()
        .endContainer().endSpec();
    if (gated) {
      b.editSpec().addNewSchedulingGate().withName("example.com/admission").endSchedulingGate().endSpec();
    }
    admin.pods().inNamespace(ns).resource(b.build()).create();
  }

  private String podScheduledReason(String name) {
    Pod p = admin.pods().inNamespace(ns).withName(name).get();
    if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    return p.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).map(PodCondition::getReason)
        .findFirst().orElse(null);
  }

  private int nodes() {
    return admin.nodes().withLabel(NodeGroupLabels.NODE_GROUP, group).list().getItems().size();
  }

  /** Iterations Headroom has finished ({@code headroom_function_duration_seconds_count{function="main"}}). */
  private long iterations() throws Exception {
    Matcher m = Pattern.compile("(?m)^" + AutoscalerMetrics.FUNCTION_DURATION + "_count\\{function=\"main\"[^}]*} ([0-9.eE+]+)$")
        .matcher(headroom.metrics());
    return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
  }

  private double metric(String series) throws Exception {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+]+)$").matcher(headroom.metrics());
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  /** Waits until Headroom has finished {@code n} more iterations. */
  private void iterationsPass(int n) throws Exception {
    long target = iterations() + n;
    await(n + " more iterations").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> iterations() >= target);
  }

  @Test
  void podGroupGetsCapacityForAllItsMembersOrNoneAndGatedPodsAreNotDemand() throws Exception {
    long start = System.nanoTime();
    // 1. Gated pods: kube-scheduler leaves them (SchedulingGated); Headroom counts them as gated, never as demand.
    pod("queued-1", "2", Map.of(), true);
    pod("queued-2", "2", Map.of(), true);
    await("kube-scheduler reports the gated pods").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> "SchedulingGated".equals(podScheduledReason("queued-1")) && "SchedulingGated".equals(podScheduledReason("queued-2")));
    String gatedSeries = AutoscalerMetrics.NOT_DEMAND_PODS + "{type=\"gated\"}";
    await("Headroom counts two gated pods").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> metric(gatedSeries) == 2.0);
    assertThat(headroom.logLines()).anyMatch(l -> l.contains("pending pods that are not demand: gated: 2, not yet tried by their scheduler: 0"));
    iterationsPass(2);
    assertThat(nodes()).as("nodes for gated pods").isZero();

    // 2. The PodGroup CRD appears while Headroom runs: it starts watching PodGroups without a restart.
    bed.applyPodGroupCrd();
    await("Headroom watches PodGroups").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(200))
        .until(() -> headroom.logLines().stream().anyMatch(l -> l.contains("watching coscheduling PodGroups")));

    // 3. minMember 3, one worker per 4-CPU node, maxSize 2: no node, and an event on a member naming the limit.
    admin.genericKubernetesResources(POD_GROUPS).inNamespace(ns).resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(PodGroups.COSCHEDULING_API_GROUP + "/v1alpha1").withKind(PodGroups.POD_GROUP_KIND)
        .withNewMetadata().withName("train").withNamespace(ns).endMetadata()
        .addToAdditionalProperties("spec", Map.of("minMember", 3)).build()).create();
    for (int i = 1; i <= 3; i++) {
      pod("worker-" + i, "3", Map.of(PodGroups.COSCHEDULING_LABEL, "train"), false);
    }
    String limit = "node group maxSize reached: " + group + " (maxSize 2)";
    String message = "pod group " + ns + "/train (coscheduling, minMember 3): 2 of 3 members would get capacity, so none is requested: " + limit;
    await("PodGroupNotTriggerScaleUp").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
        admin.v1().events().inNamespace(ns).list().getItems().stream().anyMatch(e -> isBlockedEvent(e, message)));
    assertThat(headroom.logLines()).anyMatch(l -> l.contains("no scale-up for " + message));
    iterationsPass(3);
    assertThat(nodes()).as("nodes while the group cannot be whole").isZero();

    // 4. maxSize raised: the three nodes are requested in one loop, and the workers bind.
    nodeGroups(10);
    await("three nodes").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> nodes() == 3);
    await("the workers bind").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
        admin.pods().inNamespace(ns).withLabel(PodGroups.COSCHEDULING_LABEL, "train").list().getItems().stream()
            .allMatch(p -> p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()));
    List<String> scaleUps = headroom.logLines().stream().filter(l -> l.contains("scale-up [ScaleUpDecision[nodeGroup=" + group + ",")).toList();
    assertThat(scaleUps).as("scale-up log lines").singleElement().satisfies(l -> assertThat(l).contains("delta=3"));

    // 5. The gated pods (2 CPUs each; a worker leaves 1 CPU per node) still get no node.
    iterationsPass(3);
    assertThat(nodes()).isEqualTo(3);
    assertThat(admin.pods().inNamespace(ns).withName("queued-1").get().getSpec().getNodeName()).isNull();
    assertThat(metric(gatedSeries)).isEqualTo(2.0);
    // No error spam about the optional CRDs: one INFO line each while missing, no WARN of Headroom's.
    List<String> log = headroom.logLines();
    assertThat(log).filteredOn(l -> l.contains("podgroups.scheduling.") && l.contains("is not installed")).hasSize(2);
    assertThat(log).filteredOn(l -> l.contains(" WARN  d.h.") && l.toLowerCase(java.util.Locale.ROOT).contains("podgroup")).isEmpty();
    Measurements.record("GangE2eTest: gated pods, PodGroup blocked by maxSize, then scaled in one loop (s)",
        String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9));
  }

  private static boolean isBlockedEvent(Event e, String message) {
    return Events.POD_GROUP_NOT_TRIGGER_SCALE_UP.equals(e.getReason()) && "Pod".equals(e.getInvolvedObject().getKind())
        && e.getInvolvedObject().getName().startsWith("worker-") && message.equals(e.getMessage());
  }
}
