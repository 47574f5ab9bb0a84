package dev.headroom.controller.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.testing.RunningController;
import dev.headroom.controller.testing.ApiCall;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LeaderElectionE2eTest {
  private static final String NS = "team";
  private final ApiServer api = new ApiServer();
  private RunningController a;
  private RunningController b;

  @AfterEach
  void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
    api.close();
  }

  private Integer replicas(String name) {
    CapacityBuffer buf = api.admin().resources(CapacityBuffer.class).inNamespace(NS).withName(name).get();
    return buf == null || buf.getStatus() == null ? null : buf.getStatus().getReplicas();
  }

  private static List<ApiCall> bufferWrites(ApiServer api, String agent) {
    return api.writesBy(agent).stream().filter(c -> !c.resource().equals("leases")).toList();
  }

  @Test
  void onlyTheLeaderWritesAndTheOtherTakesOverAfterItStops() {
    api.admin().resource(Fixtures.podTemplate(NS, "worker", "1")).create();
    api.admin().resource(Fixtures.templateBuffer(NS, "first", "worker", 2, null)).create();
    a = Fixtures.start(api, "replica-a", Fixtures.options("replica-a", true, Duration.ofMinutes(5), true));
    await().atMost(Duration.ofSeconds(30)).until(a::isLeader);
    b = Fixtures.start(api, "replica-b", Fixtures.options("replica-b", true, Duration.ofMinutes(5), true));
    await().atMost(Duration.ofSeconds(30)).until(b::isReady);
    await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(2).equals(replicas("first")));

    api.admin().resource(Fixtures.templateBuffer(NS, "second", "worker", 3, null)).create();
    await().atMost(Duration.ofSeconds(10)).until(() -> Integer.valueOf(3).equals(replicas("second")));
    assertThat(b.isLeader()).isFalse();
    assertThat(bufferWrites(api, "replica-b")).as("the standby writes nothing").isEmpty();
    assertThat(bufferWrites(api, "replica-a")).isNotEmpty();

    a.close();
    Lease lease = api.admin().leases().inNamespace("headroom-system").withName("headroom-buffer-controller").get();
    // fabric8 releases by shortening the lease to one second (a merge patch cannot clear the holder)
    assertThat(lease.getSpec().getLeaseDurationSeconds()).as("the lease was released on shutdown").isEqualTo(1);
    await().atMost(Duration.ofSeconds(10)).until(b::isLeader);

    api.admin().resource(Fixtures.templateBuffer(NS, "third", "worker", 4, null)).create();
    await().atMost(Duration.ofSeconds(10)).until(() -> Integer.valueOf(4).equals(replicas("third")));
    assertThat(bufferWrites(api, "replica-b")).isNotEmpty().allSatisfy(c -> assertThat(c.name()).isIn("third", "capacitybuffer-third-pod-template", null));
  }
}
