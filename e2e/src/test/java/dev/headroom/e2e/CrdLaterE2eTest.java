package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Item 6, second half: {@code headroom run} started before the CapacityBuffer CRD exists says so in one WARN line,
 * is live but not ready while it is absent, and starts working, without a restart, once the CRD is installed. The CRD
 * is cluster-wide, so this test deletes it first (every other test applies it in its own setup) and leaves it applied.
 */
class CrdLaterE2eTest {
  static final String NOT_INSTALLED = "is not installed";
  private TestBed bed;
  private HeadroomProcess headroom;
  private final List<String> namespaces = new ArrayList<>();

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    bed.applyCrd();
    namespaces.forEach(bed::deleteNamespace);
  }

  @Test
  void startedBeforeTheCrdItWaitsInOneLineAndStartsWorkingWhenItIsInstalled() throws Exception {
    bed = TestBed.get();
    KubernetesClient admin = bed.admin();
    bed.deleteCrd();
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 30), 36);
    String user = "headroom-crd-later-" + suffix;
    // All namespaces (as deployed), no leader election: with the CRD gone there is no buffer anywhere.
    headroom = HeadroomProcess.launch(bed, user, bed.user(user, "system:masters"),
        List.of("--leader-elect=false", "--resync-period=2s"));

    await("the not-installed line").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> notInstalledLines().size() == 1);
    // While the CRD is absent (several backoff rounds): live, not ready with the reason, still one line.
    await("not ready while the CRD is absent").during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12))
        .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
          headroom.checkAlive();
          assertThat(headroom.healthz().code()).as("/healthz").isEqualTo(200);
          HeadroomProcess.Answer ready = headroom.readyz();
          assertThat(ready.code()).as("/readyz").isEqualTo(503);
          assertThat(ready.body()).as("/readyz body").contains(NOT_INSTALLED);
        });
    assertThat(notInstalledLines()).as("lines saying the CRD is not installed").hasSize(1);
    assertThat(notInstalledLines().get(0)).contains("WARN");

    bed.applyCrd();
    Instant installed = Instant.now();
    ClusterExplain.Applied a = ClusterExplain.apply(bed, ClusterExplain.load(bed.root().resolve("examples/buffers/quickstart.yaml")),
        "crd-later-" + suffix);
    namespaces.addAll(a.namespaces().values());
    await("ready after the CRD is installed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(headroom::ready);
    Measurements.record("CRD installed to /readyz 200 (ms)", Duration.between(installed, Instant.now()).toMillis());
    await("statuses equal explain's").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
        assertThat(ClusterExplain.clusterStatuses(admin, namespaces))
            .isNotEmpty()
            .isEqualTo(ClusterExplain.explainStatuses(admin, namespaces, Instant.now())));
    // The same process did it: never restarted, and it said the CRD was missing exactly once.
    assertThat(headroom.alive()).isTrue();
    assertThat(notInstalledLines()).hasSize(1);
    assertThat(headroom.logLines()).filteredOn(l -> l.contains("starting the informers")).hasSize(1);
  }

  private List<String> notInstalledLines() {
    return headroom.logLines().stream().filter(l -> l.contains(NOT_INSTALLED)).toList();
  }
}
