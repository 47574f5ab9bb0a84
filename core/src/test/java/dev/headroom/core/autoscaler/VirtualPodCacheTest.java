package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kept virtual pods equal freshly built ones whatever the history of chunk counts, and a changed count keeps
 * the chunks both counts have.
 */
class VirtualPodCacheTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void keptPodsEqualAFreshBuild(long seed) {
    Random r = new Random(seed);
    CapacityBuffer b = buffer("b", "t", 1);
    b.getMetadata().setUid("b-uid");
    PodTemplate t = podTemplate("t", "500m", "1Gi");
    t.getMetadata().setUid("t-uid");
    t.getMetadata().setResourceVersion("1");
    t.getTemplate().getMetadata().setAnnotations(java.util.Map.of("team", "web"));
    VirtualPodCache cache = new VirtualPodCache();
    List<Pod> before = List.of();
    for (int loop = 0; loop < 40; loop++) {
      cache.nextLoop();
      int replicas = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(30);
      if (r.nextInt(8) == 0) {
        t.getMetadata().setResourceVersion(Integer.toString(loop + 2)); // a new template version
      }
      List<Pod> pods = cache.pods(b, t, replicas);
      assertThat(pods).as("loop %d", loop).isEqualTo(VirtualPods.build(b, t, replicas));
      if (!before.isEmpty() && !pods.isEmpty() && before.get(0).getSpec() == pods.get(0).getSpec()) {
        // same template version: the chunks both counts have are the same objects
        for (int i = 0; i < Math.min(before.size(), pods.size()); i++) {
          assertThat(pods.get(i)).isSameAs(before.get(i));
        }
      }
      for (Pod p : pods) {
        assertThat(p.getSpec()).isSameAs(pods.get(0).getSpec());
      }
      before = pods;
    }
  }
}
