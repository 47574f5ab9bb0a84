package dev.headroom.core.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link ProvisioningRequests.Loop}: the view an autoscaler is built over once, and the pod change log passed through
 * it only between rounds without requests, filtered as the view's pods are.
 */
class ProvisioningRequestsLoopTest {
  private static final Instant T = Instant.parse("2026-03-02T08:00:00Z");

  private static final class Base implements ClusterView {
    final List<Pod> pods = new ArrayList<>();
    final List<ProvisioningRequest> requests = new ArrayList<>();

    @Override public List<Node> nodes() { return List.of(); }
    @Override public List<Pod> pods() { return List.copyOf(pods); }
    @Override public Optional<PodChanges> podChangesSince(long cursor) {
      return Optional.of(new PodChanges(cursor + 1, List.copyOf(pods), List.of("gone-uid")));
    }
    @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return List.of(); }
    @Override public List<ProvisioningRequest> provisioningRequests() { return List.copyOf(requests); }
    @Override public List<CapacityBuffer> buffers() { return List.of(); }
    @Override public Optional<PodTemplate> podTemplate(String namespace, String name) { return Optional.empty(); }
  }

  private static Pod pending(String name, boolean consumer) {
    PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid(name + "-uid").endMetadata()
        .withNewSpec().endSpec();
    if (consumer) {
      b.editMetadata().withAnnotations(Map.of(ProvisioningRequest.CONSUME_ANNOTATION, "job")).endMetadata();
    }
    return b.build();
  }

  private static IterationResult noResult(Instant now) {
    return null;
  }

  @Test
  void changesPassOnlyBetweenRoundsWithoutRequestsWithPendingConsumersAsDeleted() {
    Base base = new Base();
    base.pods.add(pending("web", false));
    base.pods.add(pending("worker", true));
    ProvisioningRequests.Loop loop = new ProvisioningRequests(ProvisioningRequests.Settings.DEFAULTS, SnapshotSimulation::new)
        .loop(base, ProvisioningRequestStatusWriter.NONE);
    List<Optional<ClusterView.PodChanges>> seen = new ArrayList<>();
    List<List<Pod>> pods = new ArrayList<>();
    java.util.function.Function<Instant, IterationResult> autoscaler = now -> {
      seen.add(loop.view().podChangesSince(0));
      pods.add(loop.view().pods());
      return noResult(now);
    };
    loop.runOnce(autoscaler, T); // the first round: no log (nothing known of the round before)
    loop.runOnce(autoscaler, T.plusSeconds(10)); // no requests now nor before: the filtered log
    base.requests.add(Requests.request("job", ProvisioningRequest.CLASS_CHECK_CAPACITY, "t", 1, T));
    loop.runOnce(autoscaler, T.plusSeconds(20)); // requests: no log
    base.requests.clear();
    loop.runOnce(autoscaler, T.plusSeconds(30)); // the round before had requests: no log
    loop.runOnce(autoscaler, T.plusSeconds(40));
    assertThat(seen.get(0)).isEmpty();
    assertThat(seen.get(1)).get().satisfies(c -> {
      assertThat(c.changed()).extracting(p -> p.getMetadata().getName()).containsExactly("web");
      assertThat(c.deleted()).containsExactly("gone-uid", "worker-uid");
    });
    assertThat(seen.get(2)).isEmpty();
    assertThat(seen.get(3)).isEmpty();
    assertThat(seen.get(4)).isPresent();
    assertThat(pods).allSatisfy(p -> assertThat(p).extracting(x -> x.getMetadata().getName()).containsExactly("web"));
  }
}
