package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BufferInjectorTest {

  private final BufferInjector injector = new BufferInjector(Set.of(BufferConditions.STRATEGY_ACTIVE_CAPACITY), 10000);

  @Test
  void virtualPodsFollowSpecSection74() {
    Fixtures.World w = new Fixtures.World();
    var tpl = podTemplate("tpl", "1", "1Gi");
    tpl.getTemplate().getSpec().setNodeName("somewhere");
    tpl.getTemplate().getSpec().setVolumes(List.of(
        new VolumeBuilder().withName("data").withNewPersistentVolumeClaim().withClaimName("c").endPersistentVolumeClaim().build(),
        new VolumeBuilder().withName("cfg").withNewConfigMap().withName("x").endConfigMap().build()));
    tpl.getTemplate().getSpec().getContainers().get(0).setVolumeMounts(List.of(
        new VolumeMountBuilder().withName("data").withMountPath("/d").build(),
        new VolumeMountBuilder().withName("cfg").withMountPath("/c").build()));
    w.templates.put("tpl", tpl);
    w.buffers.add(buffer("buf", "tpl", 3));
    BufferInjector.Injection inj = injector.inject(w.buffers(), w);
    assertThat(inj.pods()).extracting(p -> p.getMetadata().getName())
        .containsExactly("capacity-buffer-buf-1", "capacity-buffer-buf-2", "capacity-buffer-buf-3");
    Pod p = inj.pods().get(1);
    assertThat(p.getMetadata().getUid()).isEqualTo("buf-uid-2");
    assertThat(p.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(p.getMetadata().getLabels()).containsEntry("app", "buffer");
    assertThat(p.getMetadata().getAnnotations()).containsEntry("podType", "capacityBufferFakePod")
        .containsEntry("cluster-autoscaler.kubernetes.io/safe-to-evict", "true");
    assertThat(p.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getApiVersion()).isEqualTo("autoscaling.x-k8s.io/v1beta1");
      assertThat(o.getKind()).isEqualTo("CapacityBuffer");
      assertThat(o.getName()).isEqualTo("buf");
      assertThat(o.getUid()).isEqualTo("buf-uid");
      assertThat(o.getController()).isTrue();
      assertThat(o.getBlockOwnerDeletion()).isNull();
    });
    assertThat(p.getSpec().getNodeName()).isNull();
    assertThat(p.getSpec().getPriority()).isEqualTo(Integer.MIN_VALUE);
    assertThat(p.getSpec().getVolumes()).extracting(v -> v.getName()).containsExactly("cfg");
    assertThat(p.getSpec().getContainers().get(0).getVolumeMounts()).extracting(m -> m.getName()).containsExactly("cfg");
    assertThat(VirtualPods.isVirtual(p)).isTrue();
    assertThat(inj.registry()).hasSize(3);
    // the template itself is untouched
    assertThat(tpl.getTemplate().getSpec().getVolumes()).hasSize(2);
  }

  @Test
  void provisioningDecisions() {
    Fixtures.World w = new Fixtures.World();
    w.templates.put("tpl", podTemplate("tpl", "1", "1Gi"));
    CapacityBuffer missing = buffer("a-missing", "nope", 1);
    CapacityBuffer empty = buffer("b-empty", "tpl", 0);
    CapacityBuffer tooMany = buffer("c-many", "tpl", 20000);
    CapacityBuffer otherStrategy = buffer("d-other", "tpl", 1);
    otherStrategy.getStatus().setProvisioningStrategy("strategy_2");
    CapacityBuffer staleTemplate = buffer("e-stale", "tpl", 1);
    staleTemplate.getStatus().setPodTemplateGeneration(7L);
    CapacityBuffer notReady = buffer("f-notready", "tpl", 1);
    notReady.getStatus().setConditions(new java.util.ArrayList<>(List.of(BufferConditions.notReady(null, 0))));
    BufferInjector.Injection inj = injector.inject(List.of(tooMany, missing, empty, otherStrategy, staleTemplate, notReady), w);
    assertThat(inj.entries()).extracting(e -> e.buffer().getMetadata().getName()).containsExactly("a-missing", "b-empty", "c-many");
    assertThat(inj.entries().get(0).provisioning().getMessage())
        .isEqualTo("failed to get pod template with error: capacity buffer client can't get pod template: podtemplates \"nope\" not found");
    assertThat(inj.entries().get(1).provisioning().getReason()).isEqualTo("BufferIsEmpty");
    assertThat(inj.entries().get(2).provisioning().getMessage())
        .isEqualTo("failed to create fake pods with error: buffer replicas 20000 exceed the limit of 10000 virtual pods per buffer");
    assertThat(inj.pods()).isEmpty();
  }
}
