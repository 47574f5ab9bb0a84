package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Item 3, second half: {@code headroom run} under a copy of deploy/'s ClusterRole without {@code list} on pods logs
 * one line naming the missing permission, reports not-ready with it, and does not spin (its requests over a window
 * are bounded); with the verb restored it becomes ready and logs that the problem is resolved.
 */
class RbacRemovalE2eTest {
  static final String MISSING = "missing permission: list pods";
  static final Duration WINDOW = Duration.ofSeconds(20);
  static final int MAX_REQUESTS_IN_WINDOW = 30;
  private TestBed bed;
  private KubernetesClient admin;
  private HeadroomProcess headroom;
  private String role;
  private final List<String> namespaces = new ArrayList<>();

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    if (role != null) {
      admin.rbac().clusterRoleBindings().withName(role).delete();
      admin.rbac().clusterRoles().withName(role).delete();
    }
    namespaces.forEach(bed::deleteNamespace);
  }

  @Test
  void aRemovedVerbIsOneClearLineNotReadyAndNoSpinUntilItIsRestored() throws Exception {
    bed = TestBed.get();
    admin = bed.admin();
    bed.applyCrd();
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    String user = "headroom-rbac-removal-" + suffix;
    role = user;
    ClusterRole deployed = deployedControllerRole();
    List<PolicyRule> withoutList = new ArrayList<>();
    for (PolicyRule r : deployed.getRules()) {
      if (r.getApiGroups().equals(List.of("")) && r.getResources().equals(List.of("pods"))) {
        assertThat(r.getVerbs()).contains("list");
        withoutList.add(new PolicyRuleBuilder(r).withVerbs(r.getVerbs().stream().filter(v -> !v.equals("list")).toList()).build());
      } else {
        withoutList.add(r);
      }
    }
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(role).endMetadata()
        .withRules(withoutList).build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(role).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName(role).endRoleRef()
        .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName(user).endSubject().build()).create();
    ClusterExplain.Applied a = ClusterExplain.apply(bed, ClusterExplain.load(bed.root().resolve("examples/buffers/quickstart.yaml")),
        "rbac-removal-" + suffix);
    namespaces.addAll(a.namespaces().values());

    // As deployed (all namespaces), without leader election (the copy has no Lease role).
    headroom = HeadroomProcess.launch(bed, user, bed.user(user), List.of("--leader-elect=false", "--resync-period=2s"));
    await("the missing-permission line").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> !missingLines().isEmpty());
    assertThat(missingLines()).as("lines naming the missing permission").hasSize(1);
    assertThat(missingLines().get(0)).contains("WARN").contains(user);

    // Not ready with that reason, and not spinning: its requests over the window are bounded.
    Instant from = Instant.now();
    await("not ready, naming the permission").during(WINDOW).atMost(WINDOW.plusSeconds(5)).pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> {
          headroom.checkAlive();
          HeadroomProcess.Answer ready = headroom.readyz();
          assertThat(ready.code()).as("/readyz").isEqualTo(503);
          assertThat(ready.body()).as("/readyz body").contains(MISSING);
        });
    Instant to = Instant.now();
    AuditLog audit = bed.audit(); // blocking mode: an event is written before its response is sent
    List<AuditLog.Event> inWindow = audit.events(e -> e.user().equals(user) && !e.received().isBefore(from) && e.received().isBefore(to));
    Measurements.record("requests of Headroom without list pods in " + WINDOW.toSeconds() + " s", inWindow.size());
    assertThat(inWindow).as("requests of %s in %s", user, WINDOW).hasSizeLessThan(MAX_REQUESTS_IN_WINDOW);
    assertThat(missingLines()).as("still one line").hasSize(1);

    // Restore the verb: ready, resolved, and the buffer gets its status.
    admin.rbac().clusterRoles().withName(role).edit(r -> new ClusterRoleBuilder(r).withRules(deployed.getRules()).build());
    Instant restored = Instant.now();
    await("ready after the verb is restored").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(headroom::ready);
    Measurements.record("verb restored to /readyz 200 (ms)", Duration.between(restored, Instant.now()).toMillis());
    assertThat(headroom.logLines()).filteredOn(l -> l.contains("resolved: " + MISSING)).hasSize(1);
    await("statuses equal explain's").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
        assertThat(ClusterExplain.clusterStatuses(admin, namespaces))
            .isNotEmpty()
            .isEqualTo(ClusterExplain.explainStatuses(admin, namespaces, Instant.now())));
  }

  private ClusterRole deployedControllerRole() throws Exception {
    try (InputStream in = Files.newInputStream(bed.root().resolve("deploy/rbac.yaml"))) {
      for (HasMetadata o : admin.load(in).items()) {
        if (o instanceof ClusterRole r && r.getMetadata().getName().equals("headroom-controller")) {
          return r;
        }
      }
    }
    throw new IllegalStateException("deploy/rbac.yaml has no ClusterRole headroom-controller");
  }

  private List<String> missingLines() {
    return headroom.logLines().stream().filter(l -> l.contains(MISSING) && !l.contains("resolved:")).toList();
  }
}
