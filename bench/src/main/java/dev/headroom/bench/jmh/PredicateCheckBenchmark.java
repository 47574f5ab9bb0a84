package dev.headroom.bench.jmh;

import dev.headroom.bench.DiverseWorkload;
import dev.headroom.bench.KarpenterDiverse;
import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.CompiledNode;
import dev.headroom.core.scheduling.CompiledPod;
import dev.headroom.core.scheduling.FitResult;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Inner loop: one predicate check ({@link ClusterSnapshot#check}) of each diverse pod kind against a node
 * of a 200-node cluster that already holds 1,000 diverse pods. Run with
 * {@code java -cp <bench classpath> org.openjdk.jmh.Main PredicateCheckBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PredicateCheckBenchmark {

  ClusterSnapshot snapshot;
  CompiledPod[] probes;
  int node;

  @Setup
  public void setUp() {
    SchedulingCompiler compiler = new SchedulingCompiler();
    snapshot = new ClusterSnapshot(compiler);
    List<CompiledNode> templates = DiverseWorkload.nodeGroups(20).stream().map(dev.headroom.core.nodegroup.NodeGroup::template).map(compiler::compile).toList();
    for (int i = 0; i < 200; i++) {
      snapshot.addNodeCopy(templates.get(templates.size() - 5 + i % 5), "n-" + i);
    }
    List<Pod> pods = DiverseWorkload.pods(1000, KarpenterDiverse.SEED);
    for (Pod p : pods) {
      snapshot.schedulePodOnAnyNode(compiler.compile(p));
    }
    List<Pod> probePods = DiverseWorkload.pods(5, 7);
    probes = probePods.stream().map(p -> compiler.compile(new io.fabric8.kubernetes.api.model.PodBuilder(p)
        .editMetadata().withUid("probe-" + p.getMetadata().getName()).endMetadata().build())).toArray(CompiledPod[]::new);
    node = 17;
  }

  @Benchmark
  public int checkEachKind() {
    int fits = 0;
    for (CompiledPod p : probes) {
      if (snapshot.check(p, node) instanceof FitResult.Fits) {
        fits++;
      }
    }
    return fits;
  }
}
