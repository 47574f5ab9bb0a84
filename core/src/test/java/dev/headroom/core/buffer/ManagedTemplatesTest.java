package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.container;
import static dev.headroom.core.buffer.Fixtures.q;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.5 (managed template creation), §9.6 (naming and extraction) and the §3.6 upsert rule. */
class ManagedTemplatesTest {

  static final String LONG_NAME =
      "this-is-a-very-long-buffer-name-that-will-exceed-the-maximum-allowed-length-for-a-pod-template-name-which-is-two-hundred-and-fifty-three-characters-in-total-so-it-will-be-truncated-to-fit-the-limit-and-we-need-to-make-sure-it-does-not-exceed-the-limit-whatsoever";
  static final String LONG_TEMPLATE =
      "capacitybuffer-this-is-a-very-long-buffer-name-that-will-exceed-the-maximum-allowed-length-for-a-pod-template-name-which-is-two-hundred-and-fifty-three-characters-in-total-so-it-will-be-truncated-to-fit-the-limit-and-we-need-to-make-sure-it-pod-template";

  static OwnerReference owner(String name, String uid) {
    return new OwnerReferenceBuilder().withApiVersion("autoscaling.x-k8s.io/v1beta1").withKind("CapacityBuffer").withName(name).withUid(uid).withController(true).build();
  }

  static VolumeMount mount(String name, String path) {
    return new io.fabric8.kubernetes.api.model.VolumeMountBuilder().withName(name).withMountPath(path).build();
  }

  @Test
  void v9_5_managedTemplateCreation() {
    InMemoryClusterView view = new InMemoryClusterView();
    view.add(Fixtures.template("test-pod-template", 0, new PodSpecBuilder().withContainers(new ContainerBuilder().withName("test").withImage("test")
        .withNewResources().withLimits(q("cpu=1000m")).endResources().build()).build()));
    InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT);
    CapacityBuffer buffer = Fixtures.templateBuffer("test-buffer", "test-pod-template", null, null);

    var err = new BufferTranslator(view, store, new DefaultingPodResolver(), Instant.EPOCH).translatePodTemplate(buffer);

    assertThat(err).isEmpty();
    assertThat(buffer.getStatus().getConditions().get(0).getMessage()).isEqualTo(PodTemplateTranslatorTest.NRD);
    PodTemplate t = store.get("default", "capacitybuffer-test-buffer-pod-template").orElseThrow();
    assertThat(t.getMetadata().getOwnerReferences()).containsExactly(owner("test-buffer", ""));
    assertThat(t.getMetadata().getOwnerReferences().get(0).getBlockOwnerDeletion()).isNull();
    PodTemplateSpec expected = new PodTemplateSpecBuilder().withNewMetadata().endMetadata()
        .withSpec(new PodSpecBuilder().withContainers(new ContainerBuilder().withName("test").withImage("test")
            .withNewResources().withRequests(q("cpu=1000m")).withLimits(q("cpu=1000m")).endResources().build()).build())
        .build();
    assertThat(ManagedTemplates.semanticallyEqual(t.getTemplate(), expected)).isTrue();
    assertThat(t.getTemplate().getSpec().getContainers().get(0).getResources().getRequests()).containsEntry("cpu", q("cpu=1000m").get("cpu"));
  }

  @Test
  void v9_6_basicPodTemplateSpec() {
    CapacityBuffer buffer = Fixtures.buffer("test-buffer");
    buffer.getMetadata().setNamespace("test-ns");
    buffer.getMetadata().setUid("123-uid");
    PodTemplateSpec spec = new PodTemplateSpecBuilder().withNewMetadata().withLabels(Map.of("app", "foo")).withAnnotations(Map.of("anno", "bar")).endMetadata()
        .withNewSpec().withContainers(container("c1", null, null)).endSpec().build();

    PodTemplate t = ManagedTemplates.desired(buffer, spec);

    assertThat(t.getMetadata().getName()).isEqualTo("capacitybuffer-test-buffer-pod-template");
    assertThat(t.getMetadata().getNamespace()).isEqualTo("test-ns");
    assertThat(t.getMetadata().getOwnerReferences()).containsExactly(owner("test-buffer", "123-uid"));
    assertThat(t.getMetadata().getLabels()).isNullOrEmpty();
    assertThat(t.getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(t.getTemplate().getMetadata().getLabels()).isEqualTo(Map.of("app", "foo"));
    assertThat(t.getTemplate().getMetadata().getAnnotations()).isEqualTo(Map.of("anno", "bar"));
    assertThat(t.getTemplate().getSpec()).isEqualTo(spec.getSpec());
  }

  @Test
  void v9_6_longBufferName() {
    CapacityBuffer buffer = Fixtures.buffer(LONG_NAME);
    PodTemplate t = ManagedTemplates.desired(buffer, new PodTemplateSpec());
    assertThat(LONG_NAME).hasSize(262);
    assertThat(t.getMetadata().getName()).isEqualTo(LONG_TEMPLATE).hasSize(253);
    assertThat(t.getMetadata().getOwnerReferences().get(0).getName()).isEqualTo(LONG_NAME);
  }

  static Stream<Arguments> names() {
    return Stream.of(
        Arguments.of("empty name", "", "capacitybuffer--pod-template"),
        Arguments.of("null name", null, "capacitybuffer--pod-template"),
        Arguments.of("225 characters kept", "a".repeat(225), "capacitybuffer-" + "a".repeat(225) + "-pod-template"),
        Arguments.of("226 characters cut", "a".repeat(226), "capacitybuffer-" + "a".repeat(225) + "-pod-template"));
  }

  @ParameterizedTest(name = "9.6 naming: {0}")
  @MethodSource("names")
  void naming(String name, String bufferName, String expected) {
    assertThat(ManagedTemplates.name(bufferName)).isEqualTo(expected);
  }

  @Test
  void v9_6_podWithoutServiceAccountVolumes() {
    Pod pod = new PodBuilder().withNewMetadata().withLabels(Map.of("app", "foo")).withAnnotations(Map.of("anno", "bar")).endMetadata()
        .withNewSpec().withContainers(container("c1", null, null)).endSpec().build();
    PodTemplateSpec t = ManagedTemplates.extract(pod);
    assertThat(t.getMetadata().getLabels()).isEqualTo(Map.of("app", "foo"));
    assertThat(t.getMetadata().getAnnotations()).isEqualTo(Map.of("anno", "bar"));
    assertThat(t.getSpec()).isEqualTo(pod.getSpec()).isNotSameAs(pod.getSpec());
  }

  @Test
  void v9_6_podWithServiceAccountVolumes() {
    List<VolumeMount> mounts = List.of(mount("vol-1", "/vol-1"),
        mount("kube-api-access-abcde", "/var/run/secrets/kubernetes.io/serviceaccount"));
    Pod pod = new PodBuilder().withNewMetadata().withLabels(Map.of("app", "foo")).endMetadata()
        .withNewSpec()
        .withVolumes(new VolumeBuilder().withName("vol-1").withNewEmptyDir().endEmptyDir().build(),
            new VolumeBuilder().withName("kube-api-access-abcde").withNewProjected().endProjected().build())
        .withContainers(new ContainerBuilder().withName("c1").withVolumeMounts(mounts).build())
        .withInitContainers(new ContainerBuilder().withName("i1").withVolumeMounts(mounts).build())
        .endSpec().build();
    PodTemplateSpec t = ManagedTemplates.extract(pod);
    assertThat(t.getSpec().getVolumes()).extracting(Volume::getName).containsExactly("vol-1");
    List<VolumeMount> expected = List.of(mount("vol-1", "/vol-1"));
    assertThat(t.getSpec().getContainers().get(0).getVolumeMounts()).isEqualTo(expected);
    assertThat(t.getSpec().getInitContainers().get(0).getVolumeMounts()).isEqualTo(expected);
    assertThat(pod.getSpec().getVolumes()).as("input untouched").hasSize(2);
  }

  @Test
  void semanticEqualityComparesQuantitiesByValueAndNullAsEmpty() {
    PodTemplateSpec a = new PodTemplateSpecBuilder().withNewSpec().withContainers(container("c", "cpu=1,memory=1Gi", null)).endSpec().build();
    PodTemplateSpec b = new PodTemplateSpecBuilder().withNewMetadata().withLabels(Map.of()).endMetadata()
        .withNewSpec().withContainers(container("c", "cpu=1000m,memory=1024Mi", null)).withVolumes(List.of()).endSpec().build();
    PodTemplateSpec c = new PodTemplateSpecBuilder().withNewSpec().withContainers(container("c", "cpu=1001m,memory=1Gi", null)).endSpec().build();
    assertThat(ManagedTemplates.semanticallyEqual(a, b)).isTrue();
    assertThat(ManagedTemplates.semanticallyEqual(a, c)).isFalse();
  }

  @Test
  void upsertWritesOnlyOnChangeAndKeepsForeignLabels() throws Exception {
    InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
    CapacityBuffer buffer = Fixtures.buffer("b");
    buffer.getMetadata().setUid("u1");
    PodTemplateSpec spec = new PodTemplateSpecBuilder().withNewSpec().withContainers(container("c", "cpu=1", null)).endSpec().build();

    PodTemplate created = ManagedTemplates.upsert(store, ManagedTemplates.desired(buffer, spec));
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    PodTemplate same = ManagedTemplates.upsert(store, ManagedTemplates.desired(buffer, spec));
    assertThat(same.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(store.creates()).isEqualTo(1);
    assertThat(store.updates()).isZero();

    PodTemplate labelled = store.get("default", created.getMetadata().getName()).orElseThrow();
    labelled.getMetadata().setLabels(Map.of("team", "x"));
    labelled.getMetadata().setOwnerReferences(List.of());
    store.update(labelled);
    assertThat(ManagedTemplates.upsert(store, ManagedTemplates.desired(buffer, spec)).getMetadata().getOwnerReferences())
        .as("owner references are replaced only when the content changed (quirk §10 #19)").isEmpty();

    buffer.getMetadata().setUid("u2");
    PodTemplateSpec changed = new PodTemplateSpecBuilder().withNewSpec().withContainers(container("c", "cpu=2", null)).endSpec().build();
    PodTemplate updated = ManagedTemplates.upsert(store, ManagedTemplates.desired(buffer, changed));
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(updated.getMetadata().getLabels()).containsEntry("team", "x");
    assertThat(updated.getMetadata().getOwnerReferences()).containsExactly(owner("b", "u2"));
  }
}
