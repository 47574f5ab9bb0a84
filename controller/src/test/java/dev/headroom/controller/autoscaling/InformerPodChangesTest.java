package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.controller.runtime.Ticker;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * In cluster mode the autoscaler's view carries the pod informer's change log (also through the phase timer),
 * so its loops take the incremental path the simulator takes.
 */
@EnableKubernetesMockClient(crud = true)
class InformerPodChangesTest {

  KubernetesClient client;

  private Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().addNewContainer().withName("app").withImage("app:1").endContainer().endSpec().build();
  }

  @Test
  void theViewReportsCreatedUpdatedAndDeletedPodsSinceItsCursor() throws Exception {
    try (dev.headroom.controller.manager.InformerCache cache = new dev.headroom.controller.manager.InformerCache(client, null);
        PodGroupInformers podGroups = new PodGroupInformers(client, null, dev.headroom.controller.health.CrdWait.Backoff.DEFAULT)) {
      ClusterListers listers = AutoscalerRuntime.listers(cache, new PodChangeFeed(), podGroups, new java.util.ArrayList<>());
      cache.start().get();
      ClusterView view = new PhaseTimer(Ticker.SYSTEM).timed(new InformerClusterView(listers));
      long cursor = view.podChangesSince(-1).orElseThrow().cursor();

      client.pods().inNamespace("default").resource(pod("a")).create();
      client.pods().inNamespace("default").resource(pod("b")).create();
      List<String> seen = new ArrayList<>();
      long[] at = {cursor};
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        ClusterView.PodChanges c = view.podChangesSince(at[0]).orElseThrow();
        at[0] = c.cursor();
        c.changed().forEach(p -> seen.add(p.getMetadata().getName()));
        assertThat(seen).contains("a", "b");
      });

      Pod bound = client.pods().inNamespace("default").withName("a").get();
      bound.getSpec().setNodeName("node-1");
      client.pods().inNamespace("default").resource(bound).update();
      String bUid = client.pods().inNamespace("default").withName("b").get().getMetadata().getUid();
      client.pods().inNamespace("default").withName("b").delete();
      List<String> nodes = new ArrayList<>();
      List<String> deleted = new ArrayList<>();
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        ClusterView.PodChanges c = view.podChangesSince(at[0]).orElseThrow();
        at[0] = c.cursor();
        c.changed().forEach(p -> nodes.add(p.getSpec().getNodeName()));
        deleted.addAll(c.deleted());
        assertThat(nodes).contains("node-1");
        assertThat(deleted).containsExactly(bUid);
      });
    }
  }
}
