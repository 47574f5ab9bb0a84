package dev.headroom.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.controller.manager.InformerCache;
import dev.headroom.controller.testing.ApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Differential: a reader of some namespaces served by a cluster-wide informer it shares ({@link InformerCache#covering})
 * sees exactly what the same reader over its own namespaced informers sees — lists, look-ups, index queries and the
 * events its handler receives — over a seeded random history of pods in watched and other namespaces.
 */
class KindCacheSharedInformerTest {
  private static final List<String> WATCHED = List.of("shop", "web");
  private static final List<String> ALL = List.of("shop", "web", "other", "kube-system");
  private static final String BY_APP = "byApp";
  private static final Map<String, Function<Pod, List<String>>> INDEXERS = Map.of(BY_APP,
      p -> List.of(p.getMetadata().getLabels() == null ? "" : p.getMetadata().getLabels().getOrDefault("app", "")));

  private final ApiServer api = new ApiServer(false);
  private final List<InformerCache> caches = new ArrayList<>();

  @AfterEach
  void tearDown() {
    caches.forEach(InformerCache::close);
    api.close();
  }

  /** Records every event as text, in order. */
  static final class Recorder implements ResourceEventHandler<Pod> {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onAdd(Pod p) {
      events.add("add " + key(p) + " " + app(p));
    }

    @Override
    public void onUpdate(Pod o, Pod n) {
      events.add("update " + key(n) + " " + app(o) + "->" + app(n));
    }

    @Override
    public void onDelete(Pod p, boolean unknown) {
      events.add("delete " + key(p));
    }
  }

  static String key(Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  static String app(Pod p) {
    return p.getMetadata().getLabels() == null ? "" : p.getMetadata().getLabels().get("app");
  }

  private InformerCache cache(KubernetesClient client) {
    InformerCache c = new InformerCache(client, null);
    caches.add(c);
    return c;
  }

  private static List<String> keys(List<Pod> pods) {
    return pods.stream().map(KindCacheSharedInformerTest::key).sorted().toList();
  }

  @Test
  void aSharedClusterWideInformerServesANamespacedReaderAsItsOwnInformersWould() {
    KubernetesClient admin = api.admin();
    // the plain path: the reader's own informers, one per watched namespace
    InformerCache plainCache = cache(api.client("plain"));
    Recorder plainEvents = new Recorder();
    KindCache<Pod> plain = KindCache.covering("Pod", WATCHED, ns -> plainCache.covering(Pod.class, ns, Duration.ZERO), INDEXERS, plainEvents);
    // the shared path: a cluster-wide informer asked for first (the autoscaler's), then the same reader
    InformerCache sharedCache = cache(api.client("shared"));
    sharedCache.informer(Pod.class);
    Recorder sharedEvents = new Recorder();
    KindCache<Pod> shared = KindCache.covering("Pod", WATCHED, ns -> sharedCache.covering(Pod.class, ns, Duration.ZERO), INDEXERS, sharedEvents);
    assertThat(plainCache.keys()).containsExactly(new InformerCache.Key("Pod", "shop"), new InformerCache.Key("Pod", "web"));
    assertThat(sharedCache.keys()).containsExactly(new InformerCache.Key("Pod", null));
    assertThat(shared.informers()).hasSize(1);

    Random random = new Random(23);
    List<String> live = new ArrayList<>();
    for (int i = 0; i < 20; i++) { // some pods before the informers list
      live.add(create(admin, ALL.get(random.nextInt(ALL.size())), "p" + i, "a" + random.nextInt(3)));
    }
    plainCache.start().join();
    sharedCache.start().join();
    for (int step = 0; step < 120; step++) {
      int op = random.nextInt(3);
      if (op == 0 || live.isEmpty()) {
        live.add(create(admin, ALL.get(random.nextInt(ALL.size())), "q" + step, "a" + random.nextInt(3)));
      } else {
        String k = live.get(random.nextInt(live.size()));
        String[] nsName = k.split("/");
        if (op == 1) {
          admin.pods().inNamespace(nsName[0]).withName(nsName[1]).edit(p -> new PodBuilder(p).editMetadata()
              .addToLabels("app", "a" + random.nextInt(3)).endMetadata().build());
        } else {
          admin.pods().inNamespace(nsName[0]).withName(nsName[1]).delete();
          live.remove(k);
        }
      }
    }
    List<String> expected = live.stream().filter(k -> WATCHED.contains(k.split("/")[0])).sorted().toList();
    await().atMost(Duration.ofSeconds(30)).until(() -> keys(plain.all()).equals(expected) && keys(shared.all()).equals(expected)
        && plainEvents.events.size() == sharedEvents.events.size());

    // the same events, in the same order per object (informers of different scopes interleave objects differently)
    assertThat(byObject(sharedEvents.events)).isEqualTo(byObject(plainEvents.events));
    for (String ns : ALL) {
      assertThat(keys(shared.list(ns))).as("list " + ns).isEqualTo(keys(plain.list(ns)));
      assertThat(shared.covers(ns)).isEqualTo(plain.covers(ns));
    }
    for (String app : List.of("a0", "a1", "a2")) {
      assertThat(keys(shared.byIndex(BY_APP, app))).as("index " + app).isEqualTo(keys(plain.byIndex(BY_APP, app)));
    }
    for (String k : live) {
      String[] nsName = k.split("/");
      assertThat(shared.get(nsName[0], nsName[1]) == null).as("get " + k).isEqualTo(plain.get(nsName[0], nsName[1]) == null);
    }
    assertThat(shared.get("other", "p0")).isNull();
  }

  private static Map<String, List<String>> byObject(List<String> events) {
    Map<String, List<String>> out = new java.util.TreeMap<>();
    for (String e : List.copyOf(events)) {
      out.computeIfAbsent(e.split(" ")[1], x -> new ArrayList<>()).add(e);
    }
    return out;
  }

  private static String create(KubernetesClient admin, String ns, String name, String app) {
    admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).addToLabels("app", app)
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build()).create();
    return ns + "/" + name;
  }
}
