package dev.headroom.controller.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.testing.RunningController;
import dev.headroom.controller.testing.ApiCall;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The 10,000-buffer measurement of docs/performance.md (on demand, not part of {@code verify}):
 * <pre>
 * ./mvnw -B -pl controller -am test -Dtest=ControllerPerformanceBench -Dheadroom.bench=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * {@code -Dheadroom.bench.namespaces=N} scales it (default 1000 namespaces × 10 buffers). Each namespace holds five
 * Deployments with one percentage buffer each, and one PodTemplate referenced by five buffers with limits.
 */
@EnabledIfSystemProperty(named = "headroom.bench", matches = "true")
class ControllerPerformanceBench {
  private static final int NAMESPACES = Integer.getInteger("headroom.bench.namespaces", 1000);
  private static final Duration RESYNC = Duration.ofSeconds(Long.getLong("headroom.bench.resyncSeconds", 30));

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static double count(RunningController c, String meter, String tag, String value) {
    var counter = c.metrics().registry().find(meter).tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }

  private static double reconciles(RunningController c) {
    var t = c.metrics().registry().find("headroom.reconcile.duration").tag("result", "success").timer();
    return t == null ? 0 : t.count();
  }

  @Test
  void tenThousandBuffersInAThousandNamespaces() throws Exception {
    int buffers = NAMESPACES * 10;
    try (ApiServer api = new ApiServer()) {
      KubernetesClient admin = api.admin();
      long seedStart = System.nanoTime();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      for (int n = 0; n < NAMESPACES; n++) {
        String ns = "ns-" + n;
        pool.submit(() -> {
          admin.resource(Fixtures.podTemplate(ns, "worker", "500m")).create();
          for (int i = 0; i < 5; i++) {
            admin.resource(Fixtures.deployment(ns, "web-" + i, 10, "250m")).create();
            admin.resource(Fixtures.percentageBuffer(ns, "web-" + i + "-headroom", "apps", "Deployment", "web-" + i, 20)).create();
            admin.resource(Fixtures.templateBuffer(ns, "spare-" + i, "worker", 4, Map.of("cpu", "1500m"))).create();
          }
          return null;
        });
      }
      pool.shutdown();
      assertThat(pool.awaitTermination(30, TimeUnit.MINUTES)).isTrue();
      System.out.printf("BENCH seeded %d namespaces / %d buffers in %.1f s%n", NAMESPACES, buffers, (System.nanoTime() - seedStart) / 1e9);
      long heapBefore = heapAfterGc();

      long start = System.nanoTime();
      RunningController controller = Fixtures.start(api, "bench", Fixtures.options("bench", false, RESYNC, true));
      try {
        await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofMillis(200))
            .until(() -> count(controller, "headroom.status.writes", "result", "written") >= buffers);
        double allWritten = (System.nanoTime() - start) / 1e9;
        long synced = System.nanoTime();
        List<CapacityBuffer> all = admin.resources(CapacityBuffer.class).inAnyNamespace().list().getItems();
        assertThat(all).hasSize(buffers).allSatisfy(b -> assertThat(b.getStatus().getReplicas()).isNotNull());
        System.out.printf("BENCH start to all %d statuses written: %.1f s (caches synced and reconciled)%n", buffers, allWritten);
        await().atMost(Duration.ofMinutes(5)).until(() -> controller.queue().depth() == 0);
        long heapAfter = heapAfterGc();
        System.out.printf("BENCH heap after GC: %.0f MiB with controller, %.0f MiB before it (mock server and seed); controller share %.0f MiB%n",
            heapAfter / 1048576.0, heapBefore / 1048576.0, (heapAfter - heapBefore) / 1048576.0);

        Deployment d = admin.apps().deployments().inNamespace("ns-7").withName("web-3").get();
        d.getSpec().setReplicas(50);
        d.getStatus().setReplicas(50);
        long change = System.nanoTime();
        admin.resource(d).update();
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(10)).until(() -> {
          CapacityBuffer b = admin.resources(CapacityBuffer.class).inNamespace("ns-7").withName("web-3-headroom").get();
          return b.getStatus().getReplicas() == 10;
        });
        System.out.printf("BENCH one Deployment 10 -> 50 replicas absorbed in %d ms%n", (System.nanoTime() - change) / 1_000_000);

        api.dispatcher().clearCalls();
        double before = reconciles(controller);
        long resyncStart = System.nanoTime();
        await().atMost(RESYNC.multipliedBy(4).plusMinutes(5)).pollInterval(Duration.ofMillis(200))
            .until(() -> reconciles(controller) >= before + 2L * NAMESPACES);
        List<ApiCall> calls = api.callsBy("bench");
        long writes = calls.stream().filter(ApiCall::mutating).count();
        long dryRuns = calls.stream().filter(ApiCall::dryRun).count();
        System.out.printf("BENCH steady state: %d namespace reconciles (2 resyncs) in %.1f s, %d write requests, %d dry runs, %d requests in all (watches only)%n",
            (long) (reconciles(controller) - before), (System.nanoTime() - resyncStart) / 1e9, writes, dryRuns, calls.stream().filter(c -> !c.verb().equals("watch")).count());
        System.out.printf("BENCH reconcile duration: mean %.2f ms, max %.1f ms%n",
            controller.metrics().registry().find("headroom.reconcile.duration").tag("result", "success").timer().mean(TimeUnit.MILLISECONDS),
            controller.metrics().registry().find("headroom.reconcile.duration").tag("result", "success").timer().max(TimeUnit.MILLISECONDS));
        assertThat(writes).isZero();
        System.out.printf("BENCH done %.1f s after sync%n", (System.nanoTime() - synced) / 1e9);
      } finally {
        controller.close();
      }
    }
  }
}
