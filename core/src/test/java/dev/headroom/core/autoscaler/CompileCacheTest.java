package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompileCacheTest {

  private static SnapshotSimulation loop(CompileCache cache, List<Node> nodes, List<Pod> bound) {
    SnapshotSimulation sim = new SnapshotSimulation(cache);
    nodes.forEach(sim::addNode);
    for (Pod p : bound) {
      sim.addPod(p, p.getSpec().getNodeName());
    }
    return sim;
  }

  @Test
  void reusesCompiledFormsOfUnchangedObjectsAcrossLoops() {
    CompileCache cache = new CompileCache();
    Node n = Fixtures.node("n1", "g", "4", "8Gi", true, Fixtures.T0);
    Pod p = Fixtures.pod("p1", "1", "1Gi", "n1");
    CompileCache.Session first = cache.begin();
    var c1 = first.pod(CompileCache.Kind.AS_IS, p, first.compiler()::compile);
    var n1 = first.node(CompileCache.Kind.AS_IS, n, first.compiler()::compile);
    CompileCache.Session second = cache.begin();
    assertThat(second.pod(CompileCache.Kind.AS_IS, p, second.compiler()::compile)).isSameAs(c1);
    assertThat(second.node(CompileCache.Kind.AS_IS, n, second.compiler()::compile)).isSameAs(n1);
  }

  @Test
  void theCompilersSpecMemoLastsOneLoop() {
    // issue #28's soak: informer objects come with a spec each, so a memo kept across loops filled with the specs of
    // pods deleted long ago; across loops the cache by pod identity serves instead
    CompileCache cache = new CompileCache();
    CompileCache.Session first = cache.begin();
    for (int i = 0; i < 50; i++) {
      Pod p = Fixtures.pod("p" + i, "1", "1Gi", null);
      first.pod(CompileCache.Kind.AS_IS, p, first.compiler()::compile);
    }
    assertThat(first.compiler().specMemoSize()).isEqualTo(50);
    CompileCache.Session second = cache.begin();
    assertThat(second.compiler()).isSameAs(first.compiler());
    assertThat(second.compiler().specMemoSize()).isZero();
  }

  @Test
  void recompilesAPodWhoseNodeNameChangedInPlace() {
    CompileCache cache = new CompileCache();
    Node n1 = Fixtures.node("n1", "g", "4", "8Gi", true, Fixtures.T0);
    Node n2 = Fixtures.node("n2", "g", "4", "8Gi", true, Fixtures.T0);
    Pod p = Fixtures.pod("p1", "3", "1Gi", "n1");
    SnapshotSimulation a = loop(cache, List.of(n1, n2), List.of(p));
    assertThat(a.podsOn("n1")).containsExactly(p);
    p.getSpec().setNodeName("n2");
    SnapshotSimulation b = loop(cache, List.of(n1, n2), List.of(p));
    assertThat(b.podsOn("n1")).isEmpty();
    assertThat(b.podsOn("n2")).containsExactly(p);
    // the pod pins to its (new) node: a second 3-CPU pod fits only on n1
    Pod q = Fixtures.pod("q", "3", "1Gi", null);
    assertThat(b.schedule(q, x -> true)).isEqualTo(Optional.of("n1"));
  }

  @Test
  void recompilesANodeWhoseTaintsChangedInPlace() {
    CompileCache cache = new CompileCache();
    Node n = Fixtures.node("n1", "g", "4", "8Gi", true, Fixtures.T0);
    n.getSpec().setTaints(new java.util.ArrayList<>(List.of(new TaintBuilder().withKey("k").withEffect("NoSchedule").build())));
    Pod q = Fixtures.pod("q", "1", "1Gi", null);
    assertThat(loop(cache, List.of(n), List.of()).schedule(q, x -> true)).isEmpty();
    n.getSpec().getTaints().clear();
    assertThat(loop(cache, List.of(n), List.of()).schedule(q, x -> true)).isEqualTo(Optional.of("n1"));
  }

  @Test
  void anOlderSessionCompilesWithoutTouchingTheCache() {
    CompileCache cache = new CompileCache();
    Pod p = Fixtures.pod("p1", "1", "1Gi", null);
    CompileCache.Session old = cache.begin();
    CompileCache.Session now = cache.begin();
    var fromOld = old.pod(CompileCache.Kind.AS_IS, p, old.compiler()::compile);
    var fromNow = now.pod(CompileCache.Kind.AS_IS, p, now.compiler()::compile);
    assertThat(fromNow).isNotSameAs(fromOld);
    assertThat(now.pod(CompileCache.Kind.AS_IS, p, now.compiler()::compile)).isSameAs(fromNow);
  }

  @Test
  void dropsEntriesUnusedForTwoLoopsAtTheNextSweep() {
    CompileCache cache = new CompileCache();
    Pod p = Fixtures.pod("p1", "1", "1Gi", null);
    CompileCache.Session s = cache.begin();
    var c = s.pod(CompileCache.Kind.AS_IS, p, s.compiler()::compile);
    cache.begin();
    CompileCache.Session soon = cache.begin();
    assertThat(soon.pod(CompileCache.Kind.AS_IS, p, soon.compiler()::compile)).isSameAs(c);
    // unused again for more than EVICT_AFTER_LOOPS loops: gone after the next sweep
    for (int i = 0; i < CompileCache.SWEEP_EVERY_LOOPS; i++) {
      cache.begin();
    }
    CompileCache.Session later = cache.begin();
    assertThat(later.pod(CompileCache.Kind.AS_IS, p, later.compiler()::compile)).isNotSameAs(c);
  }

  @Test
  void keepsAListsCompiledPodsOnlyWhileTheListHoldsTheSamePods() {
    CompileCache cache = new CompileCache();
    Pod a = Fixtures.pod("a", "1", "1Gi", null);
    Pod b = Fixtures.pod("b", "1", "1Gi", null);
    java.util.List<Pod> list = new java.util.ArrayList<>(List.of(a, b));
    CompileCache.Session s = cache.begin();
    assertThat(s.cachedList(list)).isNull();
    var compiled = new dev.headroom.core.scheduling.CompiledPod[] {s.compiler().compile(a), s.compiler().compile(b)};
    s.rememberList(list, compiled);
    CompileCache.Session next = cache.begin();
    assertThat(next.cachedList(list)).isSameAs(compiled);
    // another list object with the same pods is not the remembered list
    assertThat(next.cachedList(new java.util.ArrayList<>(list))).isNull();
    // the list changed in place: element by element, the forms no longer match
    list.set(1, Fixtures.pod("c", "1", "1Gi", null));
    assertThat(next.cachedList(list)).isNull();
    list.add(b);
    assertThat(next.cachedList(list)).isNull();
  }

  @Test
  void schedulingAListPlacesLikeSchedulingItsPodsOneByOne() {
    java.util.Random r = new java.util.Random(5);
    for (int round = 0; round < 20; round++) {
      List<Node> nodes = new java.util.ArrayList<>();
      for (int i = 0; i < 6; i++) {
        nodes.add(Fixtures.node("n" + i, "g", Integer.toString(2 + r.nextInt(4)), "16Gi", true, Fixtures.T0));
      }
      java.util.List<Pod> pods = new java.util.ArrayList<>();
      for (int i = 0; i < 12; i++) {
        pods.add(Fixtures.pod("v" + i, Integer.toString(1 + r.nextInt(2)), "1Gi", null));
      }
      java.util.function.Predicate<String> notN0 = n -> !n.equals("n0");
      CompileCache cache = new CompileCache();
      for (int loop = 0; loop < 2; loop++) {
        SnapshotSimulation one = loop(new CompileCache(), nodes, List.of());
        java.util.List<String> expected = new java.util.ArrayList<>();
        for (Pod p : pods) {
          expected.add(one.schedule(p, notN0).orElse(null));
        }
        SnapshotSimulation all = loop(cache, nodes, List.of());
        // the second loop reads the compiled chunks remembered by the first
        assertThat(all.scheduleAll(pods, notN0)).as("round %d loop %d", round, loop).isEqualTo(expected);
      }
    }
  }
}
