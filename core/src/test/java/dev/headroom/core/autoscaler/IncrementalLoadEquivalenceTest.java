package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.buffer;
import static dev.headroom.core.autoscaler.Fixtures.group;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static dev.headroom.core.autoscaler.Fixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The incremental path of an iteration (pod index fed by a change log, snapshot base kept across loops,
 * virtual pods kept) decides exactly what the full path (every pod read, snapshot rebuilt) decides, over
 * seeded random histories of pods created, bound, nominated, deleted and nodes added and removed.
 */
class IncrementalLoadEquivalenceTest {

  /** A world that logs every pod change, as the simulator and informer handlers do. */
  static final class LoggingWorld extends Fixtures.World {
    final PodChangeLog log = new PodChangeLog();

    void changed(Pod p) {
      log.changed(p);
    }

    void deleted(Pod p) {
      log.deleted(p);
    }

    @Override
    public Optional<ClusterView.PodChanges> podChangesSince(long cursor) {
      return log.since(cursor);
    }

    @Override
    public void deleteNodes(String id, List<Node> ns) {
      for (Node n : ns) {
        for (Pod p : pods) {
          if (n.getMetadata().getName().equals(p.getSpec().getNodeName())) {
            deleted(p);
          }
        }
      }
      super.deleteNodes(id, ns);
    }
  }

  /**
   * Seeds, and the node naming: plain numbers put new nodes between kept ones in name order (the snapshot is
   * built again); zero-padded numbers put them after every kept one (the kept snapshot takes them in place).
   */
  static Stream<org.junit.jupiter.params.provider.Arguments> seeds() {
    return Stream.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L).flatMap(s -> Stream.of(
        org.junit.jupiter.params.provider.Arguments.of(s, "%s-%d"),
        org.junit.jupiter.params.provider.Arguments.of(s, "%s-%03d")));
  }

  @ParameterizedTest(name = "seed {0}, nodes {1}")
  @MethodSource("seeds")
  void incrementalAndFullLoopsDecideAlike(long seed, String nodeNames) {
    Fixtures.World full = new Fixtures.World();
    LoggingWorld incremental = new LoggingWorld();
    for (Fixtures.World w : List.of(full, incremental)) {
      w.nodeNameFormat = nodeNames;
      w.group(group("small", 0, 40, 2, "4", "16Gi")).group(group("large", 0, 20, 1, "16", "64Gi"));
      w.registerNodes("small", true, T0);
      w.registerNodes("large", true, T0);
      w.templates.put("buf", podTemplate("buf", "1", "2Gi"));
      w.buffers.add(buffer("b", "buf", 3));
    }
    AutoscalerOptions options = AutoscalerOptions.DEFAULTS;
    Autoscaler a = full.autoscaler(options, new AutoscalerState(options));
    CompileCache cache = new CompileCache();
    Autoscaler b = new Autoscaler(options, incremental, incremental, incremental, incremental, new AutoscalerState(options),
        () -> new SnapshotSimulation(cache));
    Random ra = new Random(seed);
    Random rb = new Random(seed);
    for (int loop = 0; loop < 60; loop++) {
      java.time.Instant now = T0.plusSeconds(30L * (loop + 1));
      mutate(full, null, ra, loop, now);
      mutate(incremental, incremental, rb, loop, now);
      IterationResult x = a.runOnce(now);
      IterationResult y = b.runOnce(now);
      assertThat(y).as("loop %d", loop).isEqualTo(x);
      assertThat(incremental.calls).isEqualTo(full.calls);
    }
    assertThat(cache.baseReuses()).as("loops that applied only the changes").isGreaterThan(20);

    if (nodeNames.contains("%03d")) {
      assertThat(cache.nodeChangesInPlace()).as("loops that changed nodes of the kept snapshot in place").isGreaterThan(8);
    }
  }

  /** One step of history: the same random choices on both worlds. */
  private static void mutate(Fixtures.World w, LoggingWorld logged, Random r, int loop, java.time.Instant now) {
    int creates = r.nextInt(6);
    for (int i = 0; i < creates; i++) {
      String cpu = List.of("500m", "1", "2", "3").get(r.nextInt(4));
      Pod p = pod("p-" + loop + "-" + i, cpu, (1 + r.nextInt(4)) + "Gi", null);
      p.getMetadata().setCreationTimestamp(now.minusSeconds(60).toString());
      w.pods.add(p);
      if (logged != null) {
        logged.changed(p);
      }
    }
    // bind some pending pods in place to a random ready node, as a scheduler does
    List<Node> ready = w.nodes.stream().filter(Nodes::isReady).toList();
    for (Pod p : new ArrayList<>(w.pods)) {
      if (p.getSpec().getNodeName() == null && !ready.isEmpty() && r.nextInt(3) == 0) {
        p.getSpec().setNodeName(ready.get(r.nextInt(ready.size())).getMetadata().getName());
        if (logged != null) {
          logged.changed(p);
        }
      }
    }
    // nominate one pending pod now and then
    if (r.nextInt(5) == 0 && !ready.isEmpty()) {
      for (Pod p : w.pods) {
        if (p.getSpec().getNodeName() == null) {
          p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
              .withNominatedNodeName(ready.get(r.nextInt(ready.size())).getMetadata().getName()).build());
          if (logged != null) {
            logged.changed(p);
          }
          break;
        }
      }
    }
    // delete a few pods
    int deletes = w.pods.isEmpty() ? 0 : r.nextInt(Math.min(4, w.pods.size()) + 1);
    for (int i = 0; i < deletes; i++) {
      Pod p = w.pods.remove(r.nextInt(w.pods.size()));
      if (logged != null) {
        logged.deleted(p);
      }
    }
    // a node that was not Ready turns Ready: a new version of the Node object, as an informer delivers it
    if (r.nextInt(3) == 0) {
      for (int i = 0; i < w.nodes.size(); i++) {
        Node n = w.nodes.get(i);
        if (!Nodes.isReady(n)) {
          Node readyNow = new io.fabric8.kubernetes.api.model.NodeBuilder(n).editStatus()
              .withConditions(new io.fabric8.kubernetes.api.model.NodeConditionBuilder().withType("Ready").withStatus("True").build())
              .endStatus().build();
          w.nodes.set(i, readyNow);
          break;
        }
      }
    }
    // nodes come and go outside the autoscaler: one is retired with its pods, another joins (numbered from 100,
    // so plain numbers fall between kept names and padded ones after them)
    if (r.nextInt(4) == 0 && w.nodes.size() > 2) {
      Node gone = w.nodes.remove(r.nextInt(w.nodes.size()));
      for (Pod p : new ArrayList<>(w.pods)) {
        if (gone.getMetadata().getName().equals(p.getSpec().getNodeName())) {
          w.pods.remove(p);
          if (logged != null) {
            logged.deleted(p);
          }
        }
      }
    }
    if (r.nextInt(4) == 0) {
      String name = String.format(w.nodeNameFormat, "small", 100 + loop);
      w.nodes.add(Fixtures.node(name, "small", "4", "16Gi", r.nextBoolean(), now));
      // a pod bound as the node joins (as a DaemonSet's would be)
      if (r.nextBoolean()) {
        for (Pod p : w.pods) {
          if (p.getSpec().getNodeName() == null) {
            p.getSpec().setNodeName(name);
            if (logged != null) {
              logged.changed(p);
            }
            break;
          }
        }
      }
    }
    // a node gets or loses a NoSchedule taint: a new version of it that places pods differently
    if (r.nextInt(4) == 0 && !w.nodes.isEmpty()) {
      int i = r.nextInt(w.nodes.size());
      Node n = w.nodes.get(i);
      boolean tainted = n.getSpec().getTaints() != null && !n.getSpec().getTaints().isEmpty();
      Node changed = new io.fabric8.kubernetes.api.model.NodeBuilder(n).editSpec()
          .withTaints(tainted ? List.of() : List.of(new io.fabric8.kubernetes.api.model.TaintBuilder()
              .withKey("dedicated").withValue("batch").withEffect("NoSchedule").build()))
          .endSpec().build();
      w.nodes.set(i, changed);
    }
    // requested nodes appear, some Ready at once
    if (r.nextInt(3) == 0) {
      w.registerNodes("small", r.nextBoolean(), now);
      w.registerNodes("large", true, now);
    }
  }
}
