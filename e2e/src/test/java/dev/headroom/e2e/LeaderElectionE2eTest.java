package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.controller.runtime.Leadership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Item 4 (and issue #28 item 3's SIGKILL): two {@code headroom run} replicas; only the Lease holder writes; a leader
 * stopped with SIGTERM or killed with SIGKILL hands over in time, and no write of the old leader lands after the new
 * leader's first.
 */
class LeaderElectionE2eTest {
  static final String LEASE = "headroom-e2e";
  private TestBed bed;
  private KubernetesClient admin;
  private String ns;
  private HeadroomProcess a;
  private HeadroomProcess b;

  @BeforeEach
  void setUp() {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    ns = bed.namespace("leader");
  }

  @AfterEach
  void tearDown() {
    for (HeadroomProcess p : new HeadroomProcess[] {a, b}) {
      if (p != null) {
        p.close();
      }
    }
    bed.deleteNamespace(ns);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"SIGTERM", "SIGKILL"})
  void onlyTheLeaderWritesAndAStoppedLeaderHandsOverInTime(String signal) {
    PodTemplate template = new PodTemplateBuilder().withNewMetadata().withName("worker").endMetadata()
        .withNewTemplate().withNewSpec().addNewContainer().withName("w").withImage("example.com/w:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("250m"))).endResources().endContainer().endSpec().endTemplate()
        .build();
    bed.create(ns, template);
    var buffers = admin.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND).inNamespace(ns);
    GenericKubernetesResource buffer = new GenericKubernetesResource();
    buffer.setApiVersion(CapacityBufferVersion.GROUP + "/v1beta1");
    buffer.setKind(CapacityBufferVersion.KIND);
    buffer.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("spare").withNamespace(ns).build());
    buffer.setAdditionalProperty("spec", Map.of("podTemplateRef", Map.of("name", "worker"), "replicas", 2));
    buffers.resource(buffer).create();

    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    a = HeadroomProcess.start(bed, "headroom-a-" + suffix, args("headroom-a-" + suffix));
    b = HeadroomProcess.start(bed, "headroom-b-" + suffix, args("headroom-b-" + suffix));

    await("a leader").atMost(Leadership.Timing.DEFAULT.leaseDuration().plusSeconds(5)).pollInterval(Duration.ofMillis(100))
        .until(() -> holder() != null && !holder().isEmpty());
    HeadroomProcess leader = holder().equals(a.user()) ? a : b;
    HeadroomProcess standby = leader == a ? b : a;
    await("status written").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> replicas(buffers.withName("spare").get()) == 2);

    AuditLog audit = bed.audit();
    assertThat(audit.writesBy(standby.user())).as("writes by the standby").isEmpty();
    assertThat(audit.writesBy(leader.user())).as("the leader wrote the status")
        .anyMatch(e -> e.bufferWrite() && e.subresource().equals("status") && e.code() == 200);

    // SIGTERM releases the Lease: the standby takes it at its next try (within the lease duration). SIGKILL leaves it
    // held: the standby takes it once it expires, within the lease duration plus the renew deadline.
    boolean kill = signal.equals("SIGKILL");
    Leadership.Timing t = Leadership.Timing.DEFAULT;
    Duration bound = kill ? t.leaseDuration().plus(t.renewDeadline()) : t.leaseDuration();
    long stop = System.nanoTime();
    if (kill) {
      leader.kill();
    } else {
      leader.close();
    }
    await("hand-over to " + standby.user()).atMost(bound).pollInterval(Duration.ofMillis(50))
        .until(() -> standby.user().equals(holder()));
    Duration handover = Duration.ofNanos(System.nanoTime() - stop);
    Measurements.record("leader hand-over after " + signal + " (ms)", handover.toMillis());

    // The new leader reconciles a change.
    GenericKubernetesResource current = buffers.withName("spare").get();
    current.setAdditionalProperty("spec", Map.of("podTemplateRef", Map.of("name", "worker"), "replicas", 3));
    buffers.resource(current).update();
    await("the new leader writes").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> replicas(buffers.withName("spare").get()) == 3);

    List<AuditLog.Event> old = audit.writesBy(leader.user());
    List<AuditLog.Event> next = audit.writesBy(standby.user());
    assertThat(next).anyMatch(e -> e.bufferWrite() && e.subresource().equals("status") && e.code() == 200);
    Instant oldLast = old.stream().map(AuditLog.Event::completed).max(Comparator.naturalOrder()).orElseThrow();
    Instant nextFirst = next.stream().map(AuditLog.Event::received).min(Comparator.naturalOrder()).orElseThrow();
    assertThat(oldLast).as("the old leader's last write ends before the new leader's first write").isBefore(nextFirst);
  }

  private List<String> args(String identity) {
    return List.of("--leader-elect=true", "--leader-elect-lease-namespace=" + ns, "--leader-elect-lease-name=" + LEASE,
        "--leader-elect-identity=" + identity, "--namespace=" + ns, "--resync-period=2s");
  }

  private String holder() {
    Lease l = admin.resources(Lease.class).inNamespace(ns).withName(LEASE).get();
    return l == null || l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
  }

  @SuppressWarnings("unchecked")
  private static int replicas(GenericKubernetesResource b) {
    Object status = b.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> s && s.get("replicas") instanceof Number n ? n.intValue() : -1;
  }
}
