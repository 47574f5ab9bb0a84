package dev.headroom.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Reading fabric8 pods into what the HPA classification needs. */
class PodInfoTest {

  @Test
  void readsPhaseReadinessStartAndRequestsIncludingSidecars() {
    Pod pod = new PodBuilder()
        .withNewMetadata().withName("web-1").endMetadata()
        .withNewSpec()
        .addNewContainer().withName("app").withNewResources().addToRequests("cpu", new Quantity("500m")).endResources().endContainer()
        .addNewInitContainer().withName("proxy").withRestartPolicy("Always")
        .withNewResources().addToRequests("cpu", new Quantity("100m")).endResources().endInitContainer()
        .addNewInitContainer().withName("migrate")
        .withNewResources().addToRequests("cpu", new Quantity("2")).endResources().endInitContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").withStartTime("2025-06-01T11:00:00Z")
        .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2025-06-01T11:00:20Z").endCondition()
        .endStatus()
        .build();
    PodInfo p = PodInfo.from(pod);
    assertThat(p.name()).isEqualTo("web-1");
    assertThat(p.phase()).isEqualTo(PodPhase.RUNNING);
    assertThat(p.ready()).isTrue();
    assertThat(p.runningAndReady()).isTrue();
    assertThat(p.startTime()).isEqualTo(Instant.parse("2025-06-01T11:00:00Z"));
    assertThat(p.readyTransition()).isEqualTo(Instant.parse("2025-06-01T11:00:20Z"));
    assertThat(p.request("cpu", null)).isEqualTo(600);
    assertThat(p.request("cpu", "proxy")).isEqualTo(100);
    assertThatThrownBy(() -> p.request("memory", null)).hasMessage("missing request for memory in container app of Pod web-1");
  }

  @Test
  void podLevelRequestsWinUnlessAContainerIsNamed() {
    Pod pod = new PodBuilder()
        .withNewMetadata().withName("p").withDeletionTimestamp("2025-06-01T11:00:00Z").endMetadata()
        .withNewSpec()
        .withNewResources().addToRequests("cpu", new Quantity("1")).endResources()
        .addNewContainer().withName("app").withNewResources().addToRequests("cpu", new Quantity("300m")).endResources().endContainer()
        .endSpec()
        .build();
    PodInfo p = PodInfo.from(pod);
    assertThat(p.terminating()).isTrue();
    assertThat(p.phase()).isEqualTo(PodPhase.UNKNOWN);
    assertThat(p.ready()).isNull();
    assertThat(p.request("cpu", null)).isEqualTo(1000);
    assertThat(p.request("cpu", "app")).isEqualTo(300);
  }
}
