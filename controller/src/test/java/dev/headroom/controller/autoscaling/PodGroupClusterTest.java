package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.controller.provider.kwok.KwokProvider;
import dev.headroom.core.autoscaler.Events;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.PodGroups;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * PodGroups in cluster mode: the production listers and informers over the CRUD mock server, with API discovery
 * answered by expectations (a kind is served only once its discovery answers).
 */
@EnableKubernetesMockClient(crud = true)
class PodGroupClusterTest {
  static final String COSCHEDULING_VERSION = "v1alpha1";
  static final String VOLCANO_VERSION = "v1beta1";

  KubernetesMockServer server;
  KubernetesClient client;

  /** Makes API discovery report {@code podgroups} served in {@code group/version}. */
  private void serve(String group, String version) {
    server.expect().get().withPath("/apis/" + group).andReturn(200, new APIGroupBuilder().withName(group)
        .addNewVersion().withGroupVersion(group + "/" + version).withVersion(version).endVersion()
        .withNewPreferredVersion().withGroupVersion(group + "/" + version).withVersion(version).endPreferredVersion()
        .build()).always();
    server.expect().get().withPath("/apis/" + group + "/" + version).andReturn(200, new APIResourceListBuilder()
        .withGroupVersion(group + "/" + version)
        .addNewResource().withName(PodGroupInformers.PLURAL).withKind(PodGroups.POD_GROUP_KIND).withNamespaced(true)
        .withVerbs("list", "watch", "get").endResource()
        .build()).always();
  }

  private void podGroup(String group, String version, String name, Object minMember) {
    GenericKubernetesResource g = new GenericKubernetesResourceBuilder().withApiVersion(group + "/" + version).withKind(PodGroups.POD_GROUP_KIND)
        .withNewMetadata().withName(name).withNamespace(ClusterFixture.NS).endMetadata()
        .addToAdditionalProperties("spec", Map.of("minMember", minMember)).build();
    client.genericKubernetesResources(PodGroupInformers.context(group, version)).inNamespace(ClusterFixture.NS).resource(g).create();
  }

  /** {@code count} pods of {@code cpu} each; with a group they carry the coscheduling label. */
  private void pods(String prefix, int count, String cpu, String group, boolean gated) {
    for (int i = 1; i <= count; i++) {
      PodBuilder b = new PodBuilder().withNewMetadata().withName(prefix + "-" + i).withNamespace(ClusterFixture.NS).endMetadata()
          .withSpec(ClusterFixture.spec(cpu, "1Gi"));
      if (group != null) {
        b.editMetadata().addToLabels(PodGroups.COSCHEDULING_LABEL, group).endMetadata();
      }
      if (gated) {
        b.editSpec().addNewSchedulingGate().withName("example.com/queue").endSchedulingGate().endSpec();
      }
      client.pods().inNamespace(ClusterFixture.NS).resource(b.build()).create();
    }
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
  void aPodGroupThatMaxSizeCannotHoldGetsNoNodeAndAnEventNamingTheLimitThenAllItsNodesInOneLoop() {
    serve(PodGroups.COSCHEDULING_API_GROUP, COSCHEDULING_VERSION);
    podGroup(PodGroups.COSCHEDULING_API_GROUP, COSCHEDULING_VERSION, "train", 3);
    AtomicReference<List<NodeGroup>> groups = new AtomicReference<>(groups(2));
    ClusterFixture f = fixture(groups);
    pods("worker", 3, "3", "train", false); // one 3-cpu worker per 4-cpu node: three nodes needed, maxSize 2
    f.scheduler.schedule();

    IterationResult blocked = f.step();
    assertThat(requested(blocked)).isZero();
    assertThat(f.nodes()).isEmpty();
    assertThat(blocked.podGroups()).singleElement().satisfies(g -> {
      assertThat(g.status()).isEqualTo(IterationResult.PodGroupOutcome.BLOCKED);
      assertThat(g.source()).isEqualTo("coscheduling");
      assertThat(g.limit()).isEqualTo("node group maxSize reached: general (maxSize 2)");
    });
    List<Event> events = f.events(Events.POD_GROUP_NOT_TRIGGER_SCALE_UP);
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
      assertThat(e.getInvolvedObject().getName()).startsWith("worker-");
      assertThat(e.getMessage()).isEqualTo("pod group default/train (coscheduling, minMember 3): 2 of 3 members would get capacity,"
          + " so none is requested: node group maxSize reached: general (maxSize 2)");
    });

    groups.set(groups(5));
    IterationResult scaled = f.step();
    assertThat(requested(scaled)).isEqualTo(3);
    assertThat(f.nodes()).hasSize(3);
    assertThat(scaled.podGroups()).singleElement().satisfies(g -> assertThat(g.status()).isEqualTo(IterationResult.PodGroupOutcome.SCALED_UP));
  }

  @Test
  void withoutPodGroupCrdsTheSamePodsAreScaledForOneByOne() {
    AtomicReference<List<NodeGroup>> groups = new AtomicReference<>(groups(2));
    ClusterFixture f = fixture(groups);
    pods("worker", 3, "3", "train", false);
    f.scheduler.schedule();
    IterationResult r = f.step();
    assertThat(r.podGroups()).isEmpty();
    assertThat(requested(r)).isEqualTo(2);
    assertThat(f.events(Events.POD_GROUP_NOT_TRIGGER_SCALE_UP)).isEmpty();
  }

  @Test
  void gatedPodsAreNotDemandAndAreCountedInTheMetric() {
    AtomicReference<List<NodeGroup>> groups = new AtomicReference<>(groups(5));
    ClusterFixture f = fixture(groups);
    pods("queued", 2, "1", null, true);
    f.scheduler.schedule();
    IterationResult r = f.step();
    assertThat(requested(r)).isZero();
    assertThat(f.nodes()).isEmpty();
    assertThat(r.notDemand().gated()).isEqualTo(2);
    assertThat(r.notDemand().notYetTried()).isZero();
    assertThat(f.metric(AutoscalerMetrics.NOT_DEMAND_PODS + "{type=\"gated\"")).isEqualTo(2.0);
    assertThat(f.metric(AutoscalerMetrics.NOT_DEMAND_PODS + "{type=\"not_yet_tried\"")).isEqualTo(0.0);
    assertThat(f.metric(AutoscalerMetrics.UNSCHEDULABLE_PODS + "{type=\"scheduler_unprocessed\"")).isEqualTo(0.0);
    assertThat(f.metric(AutoscalerMetrics.UNSCHEDULABLE_PODS + "{type=\"unschedulable\"")).isEqualTo(0.0);

    // A pod no scheduler has tried yet (the test scheduler has not run) is not demand either.
    pods("fresh", 1, "1", null, false);
    IterationResult next = f.step(Duration.ofSeconds(10));
    assertThat(next.notDemand().notYetTried()).isEqualTo(1);
    assertThat(f.metric(AutoscalerMetrics.NOT_DEMAND_PODS + "{type=\"not_yet_tried\"")).isEqualTo(1.0);
  }

  @Test
  void informersStartWithoutTheCrdsAndPickUpAKindWhenItIsServedLater() {
    podGroup(PodGroups.VOLCANO_API_GROUP, VOLCANO_VERSION, "job", 4);
    podGroup(PodGroups.VOLCANO_API_GROUP, VOLCANO_VERSION, "broken", 0);
    try (PodGroupInformers informers = new PodGroupInformers(client, null, new CrdWait.Backoff(Duration.ofMillis(20), Duration.ofMillis(100)))) {
      informers.start();
      await().atMost(Duration.ofSeconds(10)).until(informers::hasSynced);
      assertThat(informers.watched()).isEmpty();
      assertThat(informers.podGroups().isEmpty()).isTrue();

      serve(PodGroups.VOLCANO_API_GROUP, VOLCANO_VERSION);
      await().atMost(Duration.ofSeconds(10)).until(() -> !informers.podGroups().isEmpty());
      assertThat(informers.watched()).containsExactly(PodGroups.Source.VOLCANO);
      assertThat(informers.hasSynced()).isTrue();
      io.fabric8.kubernetes.api.model.Pod member = new PodBuilder().withNewMetadata().withName("p").withNamespace(ClusterFixture.NS)
          .addToAnnotations(PodGroups.VOLCANO_ANNOTATION, "job").endMetadata().build();
      assertThat(informers.podGroups().groupOf(member)).get().satisfies(g -> {
        assertThat(g.minMember()).isEqualTo(4);
        assertThat(g.key()).isEqualTo(new PodGroups.Key(PodGroups.Source.VOLCANO, ClusterFixture.NS, "job"));
      });
      // minMember 0 is not a gang.
      io.fabric8.kubernetes.api.model.Pod other = new PodBuilder().withNewMetadata().withName("q").withNamespace(ClusterFixture.NS)
          .addToAnnotations(PodGroups.VOLCANO_ANNOTATION, "broken").endMetadata().build();
      assertThat(informers.podGroups().groupOf(other)).isEmpty();
    }
  }
}
