package dev.headroom.bench.jmh;

import dev.headroom.bench.DiverseWorkload;
import dev.headroom.core.scheduling.BinpackingEstimator;
import dev.headroom.core.scheduling.ClusterSnapshot;
import dev.headroom.core.scheduling.CompiledNode;
import dev.headroom.core.scheduling.CompiledPod;
import dev.headroom.core.scheduling.Estimate;
import dev.headroom.core.scheduling.NodeLimiter;
import dev.headroom.core.scheduling.PodClass;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
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
 * Inner loop: class placement. One binpacking estimate (fork, first-fit-decreasing onto template copies,
 * revert) of 5,000 identical 200m pods onto a 10-CPU template, the CA RunOnce shape (expected 100 nodes),
 * and of 1,000 diverse pods onto the largest diverse template.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ClassPlacementBenchmark {

  ClusterSnapshot snapshot;
  CompiledNode identicalTemplate;
  List<PodClass> identical;
  CompiledNode diverseTemplate;
  List<PodClass> diverse;

  @Setup
  public void setUp() {
    SchedulingCompiler compiler = new SchedulingCompiler();
    snapshot = new ClusterSnapshot(compiler);
    List<CompiledNode> templates = DiverseWorkload.nodeGroups(10).stream().map(dev.headroom.core.nodegroup.NodeGroup::template).map(compiler::compile).toList();
    identicalTemplate = templates.get(templates.size() - 1);
    List<CompiledPod> pods = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      pods.add(compiler.compile(new io.fabric8.kubernetes.api.model.PodBuilder()
          .withNewMetadata().withName("p" + i).withUid("u" + i).withNamespace("default").endMetadata()
          .withNewSpec().addNewContainer().withName("c").withNewResources()
          .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("200m"))
          .endResources().endContainer().endSpec().build()));
    }
    identical = PodClass.group(pods);
    diverseTemplate = compiler.compile(DiverseWorkload.nodeGroups(DiverseWorkload.INSTANCE_TYPES).get(1995).template());
    List<CompiledPod> d = new ArrayList<>();
    for (Pod p : DiverseWorkload.pods(1000, 42)) {
      d.add(compiler.compile(p));
    }
    diverse = PodClass.group(d);
  }

  @Benchmark
  public Estimate identicalPods() {
    return BinpackingEstimator.estimate(snapshot, identicalTemplate, identical, NodeLimiter.ofLimits(10_000));
  }

  @Benchmark
  public Estimate diversePods() {
    return BinpackingEstimator.estimate(snapshot, diverseTemplate, diverse, NodeLimiter.ofLimits(10_000));
  }
}
