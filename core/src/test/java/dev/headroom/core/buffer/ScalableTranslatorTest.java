package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.container;
import static dev.headroom.core.buffer.Fixtures.notReady;
import static dev.headroom.core.buffer.Fixtures.ready;
import static dev.headroom.core.buffer.Fixtures.scalableBuffer;
import static dev.headroom.core.buffer.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.7 (scalable-object translator), the workload rows of §9.19 and §9.20, and the live-pod path. */
class ScalableTranslatorTest {

  static final String MT = "capacitybuffer-buffer1-pod-template";
  static final String NRD = PodTemplateTranslatorTest.NRD;
  static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

  static ReplicaSet replicaSet(String name, int replicas, PodSpec spec) {
    return new ReplicaSetBuilder().withMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build())
        .withNewSpec().withReplicas(replicas).withNewTemplate().withSpec(spec).endTemplate().endSpec().build();
  }

  /** The §9.7 fixture: two templates, two ReplicaSets, no scale client. */
  static InMemoryClusterView fixture() {
    InMemoryClusterView view = new InMemoryClusterView().withoutScale("no scale client configured");
    view.add(Fixtures.template("podTemp1", 3, new PodSpec()));
    view.add(Fixtures.template("podTemp2", 4, new PodSpec()));
    view.add(replicaSet("replicaSet1", 10, new PodSpec()));
    view.add(replicaSet("replicaSetWithResources", 10, spec(container("c", "cpu=100m,memory=4Gi", null))));
    return view;
  }

  static CapacityBuffer rs(String target, Integer percentage, Integer replicas, String limits) {
    return scalableBuffer("buffer1", "apps", target == null ? null : "ReplicaSet", target, percentage, replicas, limits);
  }

  static ExpectedStatus readyWith(int n) {
    return ExpectedStatus.of(MT, n, 0L, null, ready());
  }

  static Stream<Arguments> v9_7() {
    return Stream.of(
        Arguments.of("9.7 no scalable ref", rs(null, null, null, null), ExpectedStatus.EMPTY),
        Arguments.of("9.7 fixed number of replicas", rs("replicaSet1", null, 2, null), readyWith(2)),
        Arguments.of("9.7 percentage 50%", rs("replicaSet1", 50, null, null), readyWith(5)),
        Arguments.of("9.7 percentage 200%", rs("replicaSet1", 200, null, null), readyWith(20)),
        Arguments.of("9.7 percentage 200% and replicas 15", rs("replicaSet1", 200, 15, null), readyWith(20)),
        Arguments.of("9.7 percentage 50% and replicas 15", rs("replicaSet1", 50, 15, null), readyWith(15)),
        Arguments.of("9.7 nil percentage and replicas", rs("replicaSet1", null, null, null), ExpectedStatus.of(MT, null, 0L, null, notReady(NRD))),
        Arguments.of("9.7 percentage 50% and limits", rs("replicaSetWithResources", 50, null, "memory=9Gi,cpu=200m"), readyWith(2)),
        Arguments.of("9.7 Limits exist and no replicas", rs("replicaSetWithResources", null, null, "memory=9Gi,cpu=200m"), readyWith(2)),
        Arguments.of("9.7 Limits exist with smaller replicas", rs("replicaSetWithResources", null, 1, "memory=9Gi,cpu=200m"), readyWith(1)),
        Arguments.of("9.7 Limits exist with bigger replicas", rs("replicaSetWithResources", null, 5, "memory=9Gi,cpu=200m"), readyWith(2)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v9_7")
  void scalableTranslator(String name, CapacityBuffer buffer, ExpectedStatus expected) {
    var err = new BufferTranslator(fixture(), new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT), new DefaultingPodResolver(), NOW)
        .translateScalable(buffer);
    assertThat(err).isEmpty();
    expected.assertMatches(buffer);
  }

  private static Optional<String> translate(InMemoryClusterView view, InMemoryTemplateStore store, CapacityBuffer buffer) {
    return new BufferTranslator(view, store, new DefaultingPodResolver(), NOW).translateScalable(buffer);
  }

  private static InMemoryTemplateStore fake() {
    return new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT);
  }

  @Test
  void v9_19_jobParallelismIsTheBase() {
    InMemoryClusterView view = new InMemoryClusterView();
    view.add(new JobBuilder().withNewMetadata().withName("j").withNamespace("default").endMetadata()
        .withNewSpec().withParallelism(4).withNewTemplate().withSpec(spec(container("c", "cpu=1", null))).endTemplate().endSpec().build());
    CapacityBuffer b = scalableBuffer("buffer1", "batch", "Job", "j", 50, null, null);
    assertThat(translate(view, fake(), b)).isEmpty();
    readyWith(2).assertMatches(b);
  }

  @Test
  void v9_19_deploymentWithLivePodsUsesObservedReplicasAndTheNewestPod() {
    InMemoryClusterView view = new InMemoryClusterView();
    view.add(new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
        .withNewSpec().withReplicas(10).withNewSelector().withMatchLabels(Map.of("app", "web")).endSelector()
        .withNewTemplate().withNewMetadata().withLabels(Map.of("app", "web")).endMetadata().withSpec(spec(container("c", "cpu=1", null))).endTemplate().endSpec()
        .withNewStatus().withReplicas(7).endStatus().build());
    view.add(pod("web-old", "2026-03-01T00:00:00Z", "app", "web", "cpu=1"));
    view.add(pod("web-b", "2026-03-02T00:00:00Z", "app", "web", "cpu=2"));
    view.add(pod("web-a", "2026-03-02T00:00:00Z", "app", "web", "cpu=3"));
    view.add(pod("other", "2026-03-03T00:00:00Z", "app", "db", "cpu=4"));
    InMemoryTemplateStore store = fake();
    CapacityBuffer b = scalableBuffer("buffer1", "apps", "Deployment", "web", 10, null, null);

    assertThat(translate(view, store, b)).isEmpty();

    readyWith(1).assertMatches(b);
    PodTemplate managed = store.get("default", MT).orElseThrow();
    assertThat(managed.getTemplate().getSpec().getContainers().get(0).getResources().getRequests().get("cpu").toString())
        .as("newest pod; tie broken by name ascending").isEqualTo("3");
    assertThat(managed.getTemplate().getSpec().getNodeName()).isNull();
    assertThat(managed.getTemplate().getSpec().getVolumes()).extracting(v -> v.getName()).containsExactly("data");
    assertThat(managed.getTemplate().getMetadata().getLabels()).containsEntry("app", "web");
  }

  static Pod pod(String name, String created, String key, String value, String requests) {
    return new PodBuilder().withMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").withCreationTimestamp(created).withLabels(Map.of(key, value)).build())
        .withNewSpec().withNodeName("node-1").withContainers(container("c", requests, null))
        .withVolumes(new VolumeBuilder().withName("data").withNewEmptyDir().endEmptyDir().build(),
            new VolumeBuilder().withName("kube-api-access-x1y2z").withNewProjected().endProjected().build())
        .endSpec().build();
  }

  static Stream<Arguments> replicationControllerGroups() {
    return Stream.of(Arguments.of("9.20 [H-FIX] apiGroup \"\"", ""), Arguments.of("apiGroup core", "core"), Arguments.of("apiGroup absent", null));
  }

  @ParameterizedTest(name = "ReplicationController with {0}")
  @MethodSource("replicationControllerGroups")
  void v9_20_replicationControllerInTheCoreGroup(String name, String group) {
    InMemoryClusterView view = new InMemoryClusterView();
    view.add(new ReplicationControllerBuilder().withNewMetadata().withName("rc").withNamespace("default").endMetadata()
        .withNewSpec().withReplicas(4).withSelector(Map.of("app", "rc")).withNewTemplate().withSpec(spec(container("c", "cpu=1", null))).endTemplate().endSpec().build());
    CapacityBuffer b = scalableBuffer("buffer1", group, "ReplicationController", "rc", 50, null, null);
    assertThat(translate(view, fake(), b)).isEmpty();
    readyWith(2).assertMatches(b);
  }

  @Test
  void v9_20_missingReplicaSetNamesItsRealKind() {
    CapacityBuffer b = scalableBuffer("buffer1", "apps", "ReplicaSet", "x", 50, null, null);
    Optional<String> err = translate(fixture(), fake(), b);
    assertThat(err).isPresent();
    assertThat(b.getStatus().getConditions().get(0).getMessage())
        .startsWith("Buffer not ready for provisioning: ")
        .endsWith("failed to resolve scalable object: failed to get ReplicaSet: replicaset.apps \"x\" not found");

    CapacityBuffer c = scalableBuffer("buffer1", "apps", "ReplicaSet", "x", 50, null, null);
    translate(new InMemoryClusterView(), fake(), c);
    ExpectedStatus.of(null, null, null, null, notReady("Buffer not ready for provisioning: failed to resolve live pod: failed to get scale object: "
        + "failed to get scale sub resource: replicasets.apps \"x\" not found, "
        + "failed to resolve scalable object: failed to get ReplicaSet: replicaset.apps \"x\" not found")).assertMatches(c);
  }

  static Stream<Arguments> unsupported() {
    return Stream.of(
        Arguments.of("3.4 apiGroup \"\" for a Deployment is not defaulted to apps", "", "Deployment",
            "Buffer not ready for provisioning: failed to resolve live pod: failed to get scale object: "
                + "no matches for kind \"Deployment\" in version \"\", failed to resolve scalable object: kind /Deployment is not supported to use pod template"),
        Arguments.of("3.3 a kind discovery cannot map is returned unwrapped after 'failed to get scale object: '", "batch", "Deployment",
            "Buffer not ready for provisioning: failed to resolve live pod: failed to get scale object: "
                + "no matches for kind \"Deployment\" in version \"batch/\", failed to resolve scalable object: kind batch/Deployment is not supported to use pod template"),
        Arguments.of("3.3 custom kind with /scale but no pods", "example.com", "Foo",
            "Buffer not ready for provisioning: failed to resolve scalable object: kind example.com/Foo is not supported to use pod template"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unsupported")
  void unsupportedKinds(String name, String group, String kind, String message) {
    InMemoryClusterView view = new InMemoryClusterView();
    view.addScale("default", "example.com", "Foo", "f", new ScaleView(3, "app=foo"));
    CapacityBuffer b = scalableBuffer("buffer1", group, kind, "f", 50, null, null);
    assertThat(translate(view, fake(), b)).contains(message.substring("Buffer not ready for provisioning: ".length()));
    ExpectedStatus.of(null, null, null, null, notReady(message)).assertMatches(b);
  }

  @Test
  void customKindWithLivePodsWorksThroughScale() {
    InMemoryClusterView view = new InMemoryClusterView();
    view.addScale("default", "example.com", "Foo", "f", new ScaleView(3, "app=foo"));
    view.add(pod("foo-1", "2026-03-01T00:00:00Z", "app", "foo", "cpu=1"));
    CapacityBuffer b = scalableBuffer("buffer1", "example.com", "Foo", "f", 100, null, null);
    assertThat(translate(view, fake(), b)).isEmpty();
    readyWith(3).assertMatches(b);
  }

  @Test
  void unparsableSelectorIsReportedOnlyWhenTheFallbackFails() {
    InMemoryClusterView view = new InMemoryClusterView();
    view.addScale("default", "example.com", "Foo", "f", new ScaleView(3, "app in foo"));
    CapacityBuffer b = scalableBuffer("buffer1", "example.com", "Foo", "f", 100, null, null);
    assertThat(translate(view, fake(), b)).hasValueSatisfying(m -> assertThat(m)
        .startsWith("failed to resolve live pod: failed to get existing pod for scale object: failed to parse label selector: ")
        .endsWith(", failed to resolve scalable object: kind example.com/Foo is not supported to use pod template"));
  }
}
