package dev.headroom.cli;

import dev.headroom.bench.BenchResult;
import dev.headroom.bench.BenchRunner;
import dev.headroom.bench.DiverseWorkload;
import dev.headroom.bench.KarpenterDiverse;
import dev.headroom.bench.Scenario;
import dev.headroom.bench.Scenarios;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code headroom bench NAME [--pods N] [--types T]}: runs a benchmark scenario and prints one JSON line. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Runs a benchmark scenario after a warm-up and prints {benchmark, pods, nodes, seconds, "
        + "podsPerSecond, peakHeapBytes, cores, jvm, cpuSeconds, coldSeconds, coldCpuSeconds, "
        + "provisionedPerRequestedCpu, podsPerZone[, metrics]} as one JSON line (metrics: the scenario's further figures, e.g. scaledown-efficiency's utilisation before and after).")
public final class BenchCommand implements Callable<Integer> {

  /** Flag for the pod count. */
  public static final String PODS_FLAG = "--pods";
  /** The scenario {@code --write-plan-input} writes. */
  static final String KARPENTER_DIVERSE = "karpenter-diverse";
  /** The name under which {@code --write-cluster-dump} writes a large cluster's dump (not a timed scenario). */
  static final String CLUSTER_DUMP = "cluster-dump";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "NAME", description = "Scenario name.")
  String name;

  @Option(names = PODS_FLAG, paramLabel = "N", description = "Pod count (default: the scenario's).")
  Integer pods;

  @Option(names = "--types", paramLabel = "T", description = "Instance types of the catalogue (karpenter-diverse; default 400).")
  Integer types;

  @Option(names = "--write-plan-input", paramLabel = "FILE",
      description = "karpenter-diverse: instead of running, write its node groups and pending pods (--types, --pods) as a plan input file.")
  java.nio.file.Path planInput;

  @Option(names = "--write-cluster-dump", paramLabel = "DIR",
      description = CLUSTER_DUMP + ": write a seeded kubectl get nodes,deployments,pods -A -o yaml of --nodes nodes "
          + "(default 5000) and --pods pods (default 150000) to DIR/dump.yaml and its node groups to DIR/node-groups.yaml.")
  java.nio.file.Path clusterDump;

  @Option(names = "--nodes", paramLabel = "N", description = "Nodes of " + CLUSTER_DUMP + " (default 5000).")
  Integer nodes;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "2", description = "Warm-up iterations (default 2).")
  int warmup;

  @Option(names = "--iterations", paramLabel = "N", defaultValue = "3", description = "Measured iterations; the median is reported (default 3).")
  int iterations;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (name.equals(CLUSTER_DUMP)) {
      return writeClusterDump(err);
    }
    Optional<Scenario> scenario = Scenarios.byName(name);
    if (scenario.isEmpty()) {
      err.println("headroom bench: unknown scenario '" + name + "'; known: "
          + Scenarios.all().stream().map(Scenario::name).collect(Collectors.joining(", ")));
      err.flush();
      return 1;
    }
    int n = pods == null ? scenario.get().defaultPods() : pods;
    if (n <= 0 || warmup < 0 || iterations <= 0) {
      err.println("headroom bench: " + PODS_FLAG + " and --iterations must be positive, --warmup not negative");
      err.flush();
      return 1;
    }
    Scenario chosen = scenario.get();
    if (types != null) {
      try {
        chosen = chosen.withTypes(types);
      } catch (IllegalArgumentException e) {
        err.println("headroom bench: " + e.getMessage());
        err.flush();
        return 1;
      }
    }
    if (planInput != null) {
      if (!chosen.name().equals(KARPENTER_DIVERSE)) {
        err.println("headroom bench: --write-plan-input is for " + KARPENTER_DIVERSE + " only");
        err.flush();
        return 1;
      }
      try {
        PlanInputWriter.write(planInput, types == null ? DiverseWorkload.INSTANCE_TYPES : types, n, KarpenterDiverse.SEED);
      } catch (java.io.IOException e) {
        err.println(planInput + ": cannot write: " + e.getMessage());
        err.flush();
        return 1;
      }
      return 0;
    }
    try {
      BenchResult r = BenchRunner.run(chosen, n, warmup, iterations);
      out.println(r.toJson());
      out.flush();
      return 0;
    } catch (IllegalStateException e) {
      err.println("headroom bench: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private int writeClusterDump(PrintWriter err) {
    int n = nodes == null ? 5000 : nodes;
    int p = pods == null ? 150_000 : pods;
    if (clusterDump == null || n <= 0 || p <= 0) {
      err.println("headroom bench: " + CLUSTER_DUMP + " needs --write-cluster-dump DIR, and positive --nodes and " + PODS_FLAG);
      err.flush();
      return 1;
    }
    try {
      java.nio.file.Files.createDirectories(clusterDump);
      try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(clusterDump.resolve("dump.yaml"), java.nio.charset.StandardCharsets.UTF_8)) {
        dev.headroom.bench.ClusterDump.write(w, n, p, KarpenterDiverse.SEED);
      }
      try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(clusterDump.resolve("node-groups.yaml"), java.nio.charset.StandardCharsets.UTF_8)) {
        dev.headroom.bench.ClusterDump.writeGroups(w, n);
      }
    } catch (java.io.IOException e) {
      err.println(clusterDump + ": cannot write: " + e.getMessage());
      err.flush();
      return 1;
    }
    return 0;
  }
}
