package dev.headroom.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.sim.engine.EventQueue;
import dev.headroom.sim.engine.VirtualClock;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pods share a template token exactly when they were made from one template object with the same namespace,
 * priority and labels, so the buffer controller may reuse a template extracted from any of them.
 */
class TemplateTokenTest {

  private final SimCluster cluster = new SimCluster(new EventQueue(new VirtualClock()), (pod, wait, bound) -> {});
  private final PodSpec template = new PodSpecBuilder().withContainers(new ContainerBuilder().withName("c").withImage("app:1").build()).build();
  private int names;

  private SimPod create(PodSpec spec, String ns, int priority, Map<String, String> labels) {
    return cluster.createPod(SimPod.Origin.WORKLOAD, "rs", ns, labels, spec, priority, "ReplicaSet", "rs", "uid-rs", "p" + names++);
  }

  @Test
  void podsOfOneTemplateShareATokenAndAnyDifferenceSplitsIt() {
    SimPod a = create(template, "default", 0, Map.of("app", "web"));
    SimPod b = create(template, "default", 0, Map.of("app", "web"));
    assertThat(a.uid()).isNotEqualTo(b.uid());
    assertThat(a.templateToken()).isNotNull().isEqualTo(b.templateToken());

    PodSpec equalButAnotherObject = new PodSpecBuilder(template).build();
    assertThat(create(equalButAnotherObject, "default", 0, Map.of("app", "web")).templateToken()).isNotEqualTo(a.templateToken());
    assertThat(create(template, "default", 5, Map.of("app", "web")).templateToken()).isNotEqualTo(a.templateToken());
    assertThat(create(template, "default", 0, Map.of("app", "api")).templateToken()).isNotEqualTo(a.templateToken());
    assertThat(create(template, "other", 0, Map.of("app", "web")).templateToken()).isNotEqualTo(a.templateToken());
  }
}
