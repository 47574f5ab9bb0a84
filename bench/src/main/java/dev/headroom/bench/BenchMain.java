package dev.headroom.bench;

/** Runs one scenario from the command line without the CLI: {@code BenchMain NAME [PODS [WARMUP ITERATIONS]]}. */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) {
    Scenario s = Scenarios.byName(args[0]).orElseThrow(() -> new IllegalArgumentException("unknown " + args[0]));
    int pods = args.length > 1 ? Integer.parseInt(args[1]) : s.defaultPods();
    int warmup = args.length > 3 ? Integer.parseInt(args[2]) : 2;
    int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    System.out.println(BenchRunner.run(s, pods, warmup, iterations).toJson());
  }
}
