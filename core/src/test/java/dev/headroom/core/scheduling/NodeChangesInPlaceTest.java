package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The base-snapshot edits the autoscaler's kept snapshot uses — all pods of a node removed at once, a node
 * replaced by a new version of itself — leave the snapshot placing pods exactly as one built afresh.
 */
class NodeChangesInPlaceTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void editedBaseSchedulesLikeAFreshOne(long seed) {
    Random r = new Random(seed);
    SchedulingCompiler compiler = new SchedulingCompiler();
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      nodes.add(RandomClusters.node(r, String.format("n-%02d", i)));
    }
    List<List<Pod>> podsOn = new ArrayList<>();
    Pod template = RandomClusters.template(r);
    int serial = 0;
    ClusterSnapshot edited = new ClusterSnapshot(compiler);
    for (Node n : nodes) {
      int i = edited.addNode(compiler.compile(n));
      List<Pod> on = new ArrayList<>();
      for (int k = r.nextInt(4); k > 0; k--) {
        Pod p = RandomClusters.instance(template, "p-" + serial++);
        on.add(p);
        edited.addPod(compiler.compile(p), i);
      }
      podsOn.add(on);
    }
    // edit: clear a few nodes (some get other pods back), replace some nodes by a new version of themselves
    for (int i = 0; i < nodes.size(); i++) {
      if (r.nextInt(3) == 0) {
        edited.removePodsOn(i);
        List<Pod> back = new ArrayList<>();
        for (int k = r.nextInt(3); k > 0; k--) {
          Pod p = RandomClusters.instance(template, "p-" + serial++);
          back.add(p);
          edited.addPod(compiler.compile(p), i);
        }
        podsOn.set(i, back);
      }
      if (r.nextInt(3) == 0) {
        Node changed = new NodeBuilder(RandomClusters.node(r, nodes.get(i).getMetadata().getName())).build();
        if (edited.replaceNode(i, compiler.compile(changed))) {
          nodes.set(i, changed);
        } else {
          // refused only where per-domain counts would have to move
          assertThat(edited.hasTopologyCounters()).isTrue();
        }
      }
    }
    ClusterSnapshot fresh = new ClusterSnapshot(compiler);
    for (int i = 0; i < nodes.size(); i++) {
      int at = fresh.addNode(compiler.compile(nodes.get(i)));
      for (Pod p : podsOn.get(i)) {
        fresh.addPod(compiler.compile(p), at);
      }
    }
    assertThat(edited.podCount()).isEqualTo(fresh.podCount());
    for (int i = 0; i < nodes.size(); i++) {
      assertThat(edited.podCountOn(i)).isEqualTo(fresh.podCountOn(i));
      for (int res = 0; res < compiler.resources().size(); res++) {
        assertThat(edited.requested(i, res)).isEqualTo(fresh.requested(i, res));
      }
    }
    // the same pods land on the same nodes
    edited.fork();
    fresh.fork();
    for (int k = 0; k < 40; k++) {
      Pod p = RandomClusters.instance(RandomClusters.template(r), "new-" + k);
      CompiledPod c = compiler.compile(p);
      assertThat(edited.schedulePodOnAnyNode(c)).isEqualTo(fresh.schedulePodOnAnyNode(c));
    }
  }
}
