package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The node store alone: fork/commit/revert semantics, nested forks, removed nodes and copy-on-write isolation. */
class NodeStoreTest {

  private final SchedulingCompiler compiler = new SchedulingCompiler();

  private CompiledNode node(String name) {
    return compiler.compile(Fixtures.node(name, "4", "8Gi", 110).build());
  }

  private CompiledPod pod(String name, int milliCpu) {
    return compiler.compile(Fixtures.pod(name, milliCpu + "m", "10Mi").build());
  }

  /** What the store must show from its top layer: nodes by index, and which names and pods are live. */
  private static final class Model {
    final List<String> names = new ArrayList<>();
    final List<Boolean> removed = new ArrayList<>();
    final List<List<String>> pods = new ArrayList<>();
    final List<Long> cpu = new ArrayList<>();
    final List<Boolean> closed = new ArrayList<>();
    int lastMatch = -1;

    Model copy() {
      Model m = new Model();
      m.closed.addAll(closed);
      m.names.addAll(names);
      m.removed.addAll(removed);
      for (List<String> p : pods) {
        m.pods.add(new ArrayList<>(p));
      }
      m.cpu.addAll(cpu);
      m.lastMatch = lastMatch;
      return m;
    }

    int live() {
      int n = 0;
      for (boolean r : removed) {
        n += r ? 0 : 1;
      }
      return n;
    }

    int podTotal() {
      int n = 0;
      for (List<String> p : pods) {
        n += p.size();
      }
      return n;
    }
  }

  /**
   * Seeded random sequences of forks, commits, reverts, node and pod adds and removes (up to four forks deep) against
   * a model that deep-copies itself per fork: after every step the store's top layer shows exactly the model's
   * nodes, removed set, pods in order, request sums, name and pod look-ups and last match.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
  void layersMatchADeepCopyingModel(long seed) {
    Random r = new Random(seed);
    NodeStore store = new NodeStore(compiler.resources());
    List<Model> stack = new ArrayList<>(List.of(new Model()));
    Map<String, Integer> milli = new HashMap<>();
    Map<String, CompiledPod> compiled = new LinkedHashMap<>();
    List<String> allNames = new ArrayList<>();
    int serial = 0;
    for (int step = 0; step < 400; step++) {
      Model m = stack.get(stack.size() - 1);
      int op = r.nextInt(16);
      if (op == 0 && stack.size() < 5) {
        store.fork();
        stack.add(m.copy());
      } else if (op == 1 && stack.size() > 1) {
        store.revert();
        stack.remove(stack.size() - 1);
      } else if (op == 2 && stack.size() > 1) {
        store.commit();
        stack.remove(stack.size() - 2);
      } else if (op <= 4) {
        String name = "n-" + serial++;
        allNames.add(name);
        int id = store.addNode(node(name));
        assertThat(id).isEqualTo(m.names.size());
        m.names.add(name);
        m.removed.add(false);
        m.pods.add(new ArrayList<>());
        m.cpu.add(0L);
        m.closed.add(false);
      } else if (op == 5 && m.live() > 0) {
        int i = liveIndex(r, m);
        for (String uid : new ArrayList<>(m.pods.get(i))) {
          assertThat(store.removePod(uid, i).uid()).isEqualTo(uid);
        }
        store.removeNode(i);
        m.removed.set(i, true);
        m.pods.get(i).clear();
        m.cpu.set(i, 0L);
      } else if (op <= 8 && m.live() > 0) {
        int i = liveIndex(r, m);
        int cpu = 10 * (1 + r.nextInt(20));
        String name = "p-" + serial++;
        CompiledPod p = pod(name, cpu);
        compiled.put(p.uid(), p);
        milli.put(p.uid(), cpu);
        store.addPod(p, i);
        if (r.nextInt(4) == 0) {
          store.setLastMatchIndex(i);
          m.lastMatch = i;
        }
        m.pods.get(i).add(p.uid());
        m.cpu.set(i, m.cpu.get(i) + cpu);
      } else if (op <= 10 && m.podTotal() > 0) {
        int i = r.nextInt(m.names.size());
        while (m.pods.get(i).isEmpty()) {
          i = (i + 1) % m.names.size();
        }
        String uid = m.pods.get(i).get(r.nextInt(m.pods.get(i).size()));
        assertThat(store.nodeOfPod(uid)).isEqualTo(i);
        store.removePod(uid, i);
        m.pods.get(i).remove(uid);
        m.cpu.set(i, m.cpu.get(i) - milli.get(uid));
      } else if (op == 12 && m.podTotal() > 0) {
        // a drain's batch: a random subset of one node's pods, in the node's order or shuffled
        int i = r.nextInt(m.names.size());
        while (m.pods.get(i).isEmpty()) {
          i = (i + 1) % m.names.size();
        }
        List<String> batch = new ArrayList<>();
        for (String uid : m.pods.get(i)) {
          if (r.nextBoolean()) {
            batch.add(uid);
          }
        }
        if (r.nextInt(3) == 0) {
          java.util.Collections.shuffle(batch, r);
        }
        CompiledPod[] out = store.removePods(batch, i);
        assertThat(out).extracting(CompiledPod::uid).containsExactlyElementsOf(batch);
        for (String uid : batch) {
          m.pods.get(i).remove(uid);
          m.cpu.set(i, m.cpu.get(i) - milli.get(uid));
        }
      } else if (op == 13 && m.live() > 0) {
        int i = liveIndex(r, m);
        if (m.podTotal() > 0 && r.nextBoolean()) {
          // a UID already stored (on any node, in any layer): refused, nothing changes
          int k = r.nextInt(m.names.size());
          while (m.pods.get(k).isEmpty()) {
            k = (k + 1) % m.names.size();
          }
          CompiledPod again = compiled.get(m.pods.get(k).get(0));
          assertThat(store.addPodIfAbsent(again, i)).isFalse();
        } else {
          int cpu = 10 * (1 + r.nextInt(20));
          CompiledPod p = null;
          if (r.nextBoolean()) {
            // a UID removed before (on the base, a commit may have left it as -1): accepted again
            for (CompiledPod c : compiled.values()) {
              boolean stored = false;
              for (List<String> on : m.pods) {
                stored |= on.contains(c.uid());
              }
              if (!stored) {
                p = c;
                cpu = milli.get(c.uid());
                break;
              }
            }
          }
          if (p == null) {
            p = pod("p-" + serial++, cpu);
          }
          compiled.put(p.uid(), p);
          milli.put(p.uid(), cpu);
          assertThat(store.addPodIfAbsent(p, i)).isTrue();
          m.pods.get(i).add(p.uid());
          m.cpu.set(i, m.cpu.get(i) + cpu);
        }
      } else if (op == 14 && m.live() > 0) {
        int i = liveIndex(r, m);
        store.close(i);
        m.closed.set(i, true);
      } else if (op == 15 && !m.names.isEmpty()) {
        int i = r.nextInt(m.names.size());
        store.reopen(i);
        m.closed.set(i, false);
      } else if (op == 11 && stack.size() == 1 && m.podTotal() > 0) {
        int i = r.nextInt(m.names.size());
        if (!m.removed.get(i)) {
          store.clearPodsOnBase(i);
          m.pods.get(i).clear();
          m.cpu.set(i, 0L);
        }
      }
      assertMatches(store, stack.get(stack.size() - 1), stack.size() - 1, allNames, compiled.keySet());
    }
  }

  private static int liveIndex(Random r, Model m) {
    int i = r.nextInt(m.names.size());
    while (m.removed.get(i)) {
      i = (i + 1) % m.names.size();
    }
    return i;
  }

  private static void assertMatches(NodeStore store, Model m, int depth, List<String> allNames, Iterable<String> allPods) {
    assertThat(store.depth()).isEqualTo(depth);
    assertThat(store.forked()).isEqualTo(depth > 0);
    assertThat(store.nodeCount()).isEqualTo(m.names.size());
    assertThat(store.liveNodeCount()).isEqualTo(m.live());
    assertThat(store.podCount()).isEqualTo(m.podTotal());
    assertThat(store.lastMatchIndex()).isEqualTo(m.lastMatch);
    java.util.BitSet unavailable = store.unavailable();
    for (int i = 0; i < m.names.size(); i++) {
      assertThat(store.isClosed(i)).as("closed %d", i).isEqualTo(m.closed.get(i));
      assertThat(unavailable != null && unavailable.get(i)).as("unavailable %d", i).isEqualTo(m.closed.get(i) || m.removed.get(i));
      assertThat(store.node(i).name()).isEqualTo(m.names.get(i));
      assertThat(store.isRemoved(i)).as("removed %d", i).isEqualTo(m.removed.get(i));
      NodeState s = store.state(i);
      if (m.removed.get(i)) {
        assertThat(s).isSameAs(NodeStore.REMOVED);
        continue;
      }
      assertThat(s.podList()).extracting(CompiledPod::uid).containsExactlyElementsOf(m.pods.get(i));
      assertThat(s.requested[ResourceIds.CPU]).as("cpu on %d", i).isEqualTo(m.cpu.get(i));
    }
    for (String name : allNames) {
      int i = m.names.indexOf(name);
      assertThat(store.nodeIndex(name)).as("index of %s", name).isEqualTo(i >= 0 && !m.removed.get(i) ? i : -1);
    }
    for (String uid : allPods) {
      int on = -1;
      for (int i = 0; i < m.pods.size(); i++) {
        if (m.pods.get(i).contains(uid)) {
          on = i;
        }
      }
      assertThat(store.nodeOfPod(uid)).as("node of %s", uid).isEqualTo(on);
    }
  }

  @Test
  void aForkWritesACopyAndLeavesTheStateBelowUntouched() {
    NodeStore store = new NodeStore(compiler.resources());
    int n = store.addNode(node("a"));
    store.addPod(pod("p1", 100), n);
    NodeState base = store.state(n);

    store.fork();
    store.addPod(pod("p2", 200), n);
    assertThat(store.state(n)).isNotSameAs(base);
    assertThat(base.podList()).extracting(CompiledPod::uid).containsExactly("uid-p1");
    assertThat(base.requested[ResourceIds.CPU]).isEqualTo(100);
    store.revert();

    assertThat(store.state(n)).isSameAs(base);
    // the fork appended into the shared pod array past the base's count; a second fork does the same without harm
    store.fork();
    store.addPod(pod("p3", 300), n);
    assertThat(store.state(n).podList()).extracting(CompiledPod::uid).containsExactly("uid-p1", "uid-p3");
    assertThat(base.podList()).extracting(CompiledPod::uid).containsExactly("uid-p1");
    assertThat(store.nodeOfPod("uid-p2")).isEqualTo(-1);
  }

  @Test
  void aRemovalInANestedForkCopiesTheSharedPodsAndComesBackOnRevert() {
    NodeStore store = new NodeStore(compiler.resources());
    int n = store.addNode(node("a"));
    store.addPod(pod("p1", 100), n);
    store.addPod(pod("p2", 100), n);
    store.fork();
    store.addPod(pod("p3", 100), n);
    NodeState outer = store.state(n);
    store.fork();
    store.removePod("uid-p1", n);
    assertThat(store.state(n).podList()).extracting(CompiledPod::uid).containsExactly("uid-p2", "uid-p3");
    assertThat(outer.podList()).extracting(CompiledPod::uid).containsExactly("uid-p1", "uid-p2", "uid-p3");
    store.revert();
    assertThat(store.state(n)).isSameAs(outer);
    assertThat(store.nodeOfPod("uid-p1")).isEqualTo(n);
    store.commit();
    assertThat(store.state(n).podList()).extracting(CompiledPod::uid).containsExactly("uid-p1", "uid-p2", "uid-p3");
    assertThat(store.depth()).isZero();
  }

  @Test
  void aRemovedNodeKeepsItsIndexAndARevertFreesTheIndexForReuse() {
    NodeStore store = new NodeStore(compiler.resources());
    store.addNode(node("a"));
    int b = store.addNode(node("b"));
    store.fork();
    store.removeNode(b);
    assertThat(store.nodeCount()).isEqualTo(2);
    assertThat(store.liveNodeCount()).isEqualTo(1);
    assertThat(store.isRemoved(b)).isTrue();
    assertThat(store.removed().get(b)).isTrue();
    assertThat(store.nodeIndex("b")).isEqualTo(-1);
    store.revert();
    assertThat(store.isRemoved(b)).isFalse();
    assertThat(store.removed()).isNull();
    assertThat(store.nodeIndex("b")).isEqualTo(b);

    store.fork();
    int c = store.addNode(node("c"));
    assertThat(c).isEqualTo(2);
    store.revert();
    assertThat(store.nodeCount()).isEqualTo(2);
    assertThat(store.nodeIndex("c")).isEqualTo(-1);
    assertThat(store.slot(2).name()).as("the freed index still holds the dropped node").isEqualTo("c");
    assertThat(store.addNode(node("d"))).isEqualTo(2);
    assertThat(store.node(2).name()).isEqualTo("d");
  }

  @Test
  void revertAndCommitWithoutAForkAreRefused() {
    NodeStore store = new NodeStore(compiler.resources());
    assertThatThrownBy(store::revert).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(store::commit).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void podsOfAnotherStoreAreCopiedDetached() {
    NodeStore from = new NodeStore(compiler.resources());
    int f = from.addNode(node("a"));
    from.addPod(pod("p1", 100), f);
    NodeStore to = new NodeStore(compiler.resources());
    int t = to.addNode(node("a"));
    to.putPodsOf(t, from.state(f));
    to.addPod(pod("p2", 50), t);
    assertThat(to.podCount()).isEqualTo(2);
    assertThat(to.state(t).requested[ResourceIds.CPU]).isEqualTo(150);
    assertThat(from.state(f).podList()).extracting(CompiledPod::uid).containsExactly("uid-p1");
    assertThat(from.state(f).requested[ResourceIds.CPU]).isEqualTo(100);
    assertThatThrownBy(() -> to.putPodsOf(to.addNode(node("b")), from.state(f)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("uid-p1");
  }
}
