package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The newest-pod rule and its incremental form ({@link NewestPods.Tracker}) against the plain fold. */
class NewestPodsTest {

  /** Few distinct values, so that ties on time, on name and on both are common; includes absent and bad times. */
  private static final String[] TIMES = {null, "", "not-a-time", "2026-03-02T10:00:00Z", "2026-03-02T10:00:00.000Z",
      "2026-03-02T10:00:01Z", "2026-03-02T10:00:02Z", "2026-03-02T09:59:59Z"};
  private static final String[] NAMES = {null, "", "a", "b", "c", "web-1", "web-2"};

  static Pod pod(Random r, long position) {
    Pod p = new Pod();
    if (r.nextInt(20) != 0) {
      ObjectMeta m = new ObjectMeta();
      m.setName(NAMES[r.nextInt(NAMES.length)]);
      m.setCreationTimestamp(TIMES[r.nextInt(TIMES.length)]);
      m.setUid("pod-" + position);
      p.setMetadata(m);
    }
    return p;
  }

  static LongStream seeds() {
    return LongStream.range(1, 41);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void trackerEqualsThePlainRuleAfterEveryChange(long seed) {
    Random r = new Random(seed);
    NewestPods.Tracker tracker = new NewestPods.Tracker();
    TreeMap<Long, Pod> set = new TreeMap<>();
    long next = 0;
    for (int step = 0; step < 300; step++) {
      int op = r.nextInt(10);
      if (op < 5 || set.isEmpty()) {
        // join at a new position (mostly at the end, sometimes in between, as a view's order allows)
        long position = r.nextInt(4) == 0 && next > 0 ? r.nextLong(next) * 2 + 1 : (next += 2);
        Pod p = pod(r, position);
        set.put(position, p);
        tracker.add(p, position);
      } else if (op < 9) {
        Long position = randomKey(r, set);
        set.remove(position);
        tracker.remove(position);
      } else {
        // leaving twice, or a position never held, changes nothing
        tracker.remove(r.nextBoolean() ? -1 - r.nextInt(5) : randomKey(r, set) + 100_000);
      }
      Optional<Pod> expected = NewestPods.of(new ArrayList<>(set.values()));
      assertThat(tracker.newest().orElse(null)).isSameAs(expected.orElse(null));
      assertThat(tracker.size()).isEqualTo(set.size());
    }
  }

  @Test
  void ruleOnTies() {
    Pod older = named("z", "2026-03-02T10:00:00Z");
    Pod newerB = named("b", "2026-03-02T10:00:01Z");
    Pod newerA = named("a", "2026-03-02T10:00:01.000Z");
    Pod newerA2 = named("a", "2026-03-02T10:00:01Z");
    assertThat(NewestPods.of(List.of(older, newerB, newerA, newerA2))).containsSame(newerA);
    assertThat(NewestPods.of(List.of(older, newerB, newerA2, newerA))).containsSame(newerA2);
    assertThat(NewestPods.of(List.of())).isEmpty();
    NewestPods.Tracker t = new NewestPods.Tracker();
    t.add(newerA2, 4);
    t.add(newerA, 3);
    t.add(older, 1);
    assertThat(t.newest()).containsSame(newerA);
    t.add(newerB, 3);
    assertThat(t.newest()).containsSame(newerA2);
    t.remove(4);
    assertThat(t.newest()).containsSame(newerB);
  }

  @Test
  void defaultViewMethodIsTheRuleOverPods() throws Exception {
    InMemoryClusterView view = new InMemoryClusterView();
    view.add(named("x", "2026-03-02T10:00:00Z", Map.of("app", "w")));
    view.add(named("y", "2026-03-02T10:00:05Z", Map.of("app", "w")));
    view.add(named("z", "2026-03-02T10:00:09Z", Map.of("app", "other")));
    SelectorExpression app = SelectorExpression.parse("app=w");
    assertThat(view.newestPod("default", app).map(p -> p.getMetadata().getName())).contains("y");
    assertThat(view.newestPod("default", SelectorExpression.parse("app=none"))).isEmpty();
  }

  private static Long randomKey(Random r, TreeMap<Long, Pod> set) {
    List<Long> keys = new ArrayList<>(set.keySet());
    return keys.get(r.nextInt(keys.size()));
  }

  private static Pod named(String name, String time) {
    return named(name, time, Map.of());
  }

  private static Pod named(String name, String time, Map<String, String> labels) {
    Pod p = new Pod();
    ObjectMeta m = new ObjectMeta();
    m.setName(name);
    m.setNamespace("default");
    m.setCreationTimestamp(time);
    m.setLabels(new TreeMap<>(labels));
    p.setMetadata(m);
    return p;
  }
}
