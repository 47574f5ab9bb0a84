package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.IterationResult.BufferOutcome;
import org.junit.jupiter.api.Test;

/** Free room that holds a buffer's chunk in total but on no single node ({@link SchedulingSimulation.ChunkRoom}). */
class FragmentationTest {

  private static Fixtures.World eightNodesWithOneCpuFree() {
    Fixtures.World w = new Fixtures.World();
    w.group(Fixtures.group("ng", 0, 8, 8, "8", "32Gi"));
    for (int i = 0; i < 8; i++) {
      w.nodes.add(Fixtures.node("ng-" + i, "ng", "8", "32Gi", true, Fixtures.T0.minusSeconds(3600)));
      w.pods.add(Fixtures.pod("busy-" + i, "7", "1Gi", "ng-" + i));
    }
    return w;
  }

  private static BufferOutcome outcome(Fixtures.World w, String name) {
    AutoscalerOptions o = AutoscalerOptions.builder().set(AutoscalerOptions.SCALE_DOWN_ENABLED, false).build();
    IterationResult r = w.autoscaler(o, new AutoscalerState(o)).runOnce(Fixtures.T0);
    return r.buffers().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void eightFreeCpusOverEightNodesHoldNoEightCpuChunk() {
    Fixtures.World w = eightNodesWithOneCpuFree();
    w.templates.put("big", Fixtures.podTemplate("big", "8", "1Gi"));
    w.buffers.add(Fixtures.buffer("big", "big", 1));
    BufferOutcome b = outcome(w, "big");
    assertThat(b.freeRoom()).isEqualTo(new SchedulingSimulation.ChunkRoom(0, 1));
    assertThat(b.freeRoom().fragmented()).isEqualTo(1);
  }

  @Test
  void smallChunksLoseNothingAndVirtualPodsDoNotTakeTheRoom() {
    Fixtures.World w = eightNodesWithOneCpuFree();
    w.templates.put("small", Fixtures.podTemplate("small", "1", "1Gi"));
    w.buffers.add(Fixtures.buffer("small", "small", 8));
    BufferOutcome b = outcome(w, "small");
    // the 8 chunks sit in the free room, which still counts as free room for real pods
    assertThat(b.onExistingNodes()).isEqualTo(8);
    assertThat(b.freeRoom()).isEqualTo(new SchedulingSimulation.ChunkRoom(8, 8));
  }

  @Test
  void theDefaultImplementationAgreesWithTheSnapshot() {
    Fixtures.World w = eightNodesWithOneCpuFree();
    SnapshotSimulation fast = new SnapshotSimulation();
    for (var n : w.nodes) {
      fast.addNode(n);
    }
    for (var p : w.pods) {
      fast.addPod(p, p.getSpec().getNodeName());
    }
    SchedulingSimulation generic = new SchedulingSimulation() {
      @Override public void addNode(io.fabric8.kubernetes.api.model.Node node) { fast.addNode(node); }
      @Override public void removeNode(String nodeName) { fast.removeNode(nodeName); }
      @Override public void addPod(io.fabric8.kubernetes.api.model.Pod pod, String nodeName) { fast.addPod(pod, nodeName); }
      @Override public void removePod(io.fabric8.kubernetes.api.model.Pod pod) { fast.removePod(pod); }
      @Override public void removePods(String nodeName, java.util.List<io.fabric8.kubernetes.api.model.Pod> pods) { fast.removePods(nodeName, pods); }
      @Override public void closeNode(String nodeName) { fast.closeNode(nodeName); }
      @Override public void reopenNode(String nodeName) { fast.reopenNode(nodeName); }
      @Override public java.util.List<io.fabric8.kubernetes.api.model.Pod> podsOn(String nodeName) { return fast.podsOn(nodeName); }
      @Override public java.util.Optional<String> schedule(io.fabric8.kubernetes.api.model.Pod pod, java.util.function.Predicate<String> ok) { return fast.schedule(pod, ok); }
      @Override public void fork() { fast.fork(); }
      @Override public void revert() { fast.revert(); }
      @Override public void commit() { fast.commit(); }
      @Override public java.util.Optional<String> checkOnTemplate(io.fabric8.kubernetes.api.model.Pod pod, io.fabric8.kubernetes.api.model.Node t) { return fast.checkOnTemplate(pod, t); }
      @Override public boolean fitsEmptyNode(io.fabric8.kubernetes.api.model.Pod pod, io.fabric8.kubernetes.api.model.Node node) { return fast.fitsEmptyNode(pod, node); }
      @Override public java.util.List<java.util.List<io.fabric8.kubernetes.api.model.Pod>> equivalenceGroups(java.util.List<io.fabric8.kubernetes.api.model.Pod> pods) { return fast.equivalenceGroups(pods); }
      @Override public java.util.Map<String, Long> requests(io.fabric8.kubernetes.api.model.Pod pod) { return fast.requests(pod); }
      @Override public Estimate estimate(java.util.List<io.fabric8.kubernetes.api.model.Pod> pods, io.fabric8.kubernetes.api.model.Node t, String prefix, int max) { return fast.estimate(pods, t, prefix, max); }
      @Override public java.util.List<NewNode> provision(java.util.List<io.fabric8.kubernetes.api.model.Pod> pods, java.util.List<io.fabric8.kubernetes.api.model.Node> templates, boolean[] open, int maxNodes, Preference preference, boolean ownNodesFirst) { return fast.provision(pods, templates, open, maxNodes, preference, ownNodesFirst); }
    };
    for (String cpu : new String[] {"1", "2", "8"}) {
      var chunk = Fixtures.pod("chunk-" + cpu, cpu, "1Gi", null);
      assertThat(generic.chunkRoom(chunk, w.nodes)).isEqualTo(fast.chunkRoom(chunk, w.nodes));
    }
    assertThat(fast.chunkRoom(Fixtures.pod("c2", "2", "1Gi", null), w.nodes)).isEqualTo(new SchedulingSimulation.ChunkRoom(0, 4));
  }
}
