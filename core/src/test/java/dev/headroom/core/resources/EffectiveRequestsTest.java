package dev.headroom.core.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EffectiveRequestsTest {

  private static Container c(String name, String cpu, String memory, String restartPolicy) {
    ContainerBuilder b = new ContainerBuilder().withName(name).withRestartPolicy(restartPolicy);
    b.withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory)).endResources();
    return b.build();
  }

  @Test
  void sumsContainers() {
    var spec = new PodSpecBuilder().withContainers(c("a", "1", "1Gi", null), c("b", "500m", "1Gi", null)).build();
    assertThat(EffectiveRequests.of(spec)).containsEntry("cpu", 1500L).containsEntry("memory", 2L * 1073741824000L);
  }

  @Test
  void ordinaryInitContainerPeakWins() {
    var spec = new PodSpecBuilder().withContainers(c("a", "1", "1Gi", null)).withInitContainers(c("init", "3", "512Mi", null)).build();
    assertThat(EffectiveRequests.of(spec)).containsEntry("cpu", 3000L).containsEntry("memory", 1073741824000L);
  }

  @Test
  void sidecarsAddToTheSumAndRunBesideLaterInits() {
    // sidecar 1 cpu (always), then an ordinary init of 2 cpu runs beside it: peak 3; sum = 1 + 1 = 2.
    var spec =
        new PodSpecBuilder()
            .withContainers(c("app", "1", "1Gi", null))
            .withInitContainers(c("side", "1", "100Mi", "Always"), c("init", "2", "100Mi", null))
            .build();
    assertThat(EffectiveRequests.of(spec)).containsEntry("cpu", 3000L);
    var noLateInit = new PodSpecBuilder().withContainers(c("app", "1", "1Gi", null)).withInitContainers(c("side", "1", "100Mi", "Always")).build();
    assertThat(EffectiveRequests.of(noLateInit)).containsEntry("cpu", 2000L);
  }

  @Test
  void podLevelRequestsReplaceAndOverheadAdds() {
    var spec =
        new PodSpecBuilder()
            .withContainers(c("a", "1", "1Gi", null))
            .withNewResources().addToRequests("cpu", new Quantity("4")).endResources()
            .withOverhead(Map.of("cpu", new Quantity("250m")))
            .build();
    assertThat(EffectiveRequests.of(spec)).containsEntry("cpu", 4250L).containsEntry("memory", 1073741824000L);
  }

  @Test
  void nullSpecHasNoRequests() {
    assertThat(EffectiveRequests.of(null)).isEmpty();
  }
}
