package dev.headroom.cli.sim;

import dev.headroom.core.nodegroup.GoDuration;
import dev.headroom.sim.recommend.BufferSizeSearch;
import dev.headroom.cli.Terminal;
import dev.headroom.sim.report.ProgressBar;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code headroom recommend SCENARIO.yaml --slo-p99 5s}: searches CapacityBuffer sizes for the cheapest one
 * whose p99 pod wait meets the SLO, and prints the curve of cost against p99 wait.
 */
@Command(
    name = RecommendCommand.NAME,
    mixinStandardHelpOptions = true,
    description = "Searches CapacityBuffer sizes (percentage and/or replicas) on the scenario's autoscaled workloads"
        + " and reports the cheapest one whose p99 pod wait meets the SLO, with the curve of cost against p99 wait.")
public final class RecommendCommand implements Callable<Integer> {

  /** The command name. */
  public static final String NAME = "recommend";
  /** SLO option. */
  public static final String OPT_SLO = "--slo-p99";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "Scenario file.")
  Path scenarioFile;

  @Option(names = OPT_SLO, required = true, paramLabel = "DURATION", description = "Target p99 pod wait, e.g. 5s.")
  String slo;

  @Option(names = "--percentages", split = ",", paramLabel = "P",
      description = "Buffer percentages to try (default: 0,5,10,20,30,50,75,100; with --replicas only: none).")
  List<Integer> percentages;

  @Option(names = "--replicas", split = ",", paramLabel = "N", description = "Fixed buffer replica counts to try.")
  List<Integer> replicas;

  @Option(names = "--workload", split = ",", paramLabel = "NAME",
      description = "Workloads to buffer (default: every autoscaled workload).")
  List<String> workloads;

  @Option(names = "--seed", paramLabel = "N", description = "Random seed (default: the scenario's seed).")
  Long seed;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = SimulateCommand.FORMAT_TEXT,
      description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    Duration target;
    try {
      target = GoDuration.parse(slo.trim());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), OPT_SLO + ": " + e.getMessage());
    }
    if (!SimulateCommand.FORMAT_TEXT.equals(format) && !SimulateCommand.FORMAT_JSON.equals(format)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "unknown output format \"" + format + "\" (use text or json)");
    }
    List<Integer> pct = percentages != null ? percentages
        : (replicas != null ? List.of() : BufferSizeSearch.DEFAULT_PERCENTAGES);
    List<Integer> reps = replicas == null ? List.of() : replicas;
    for (int v : pct) {
      if (v < 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--percentages must be >= 0");
      }
    }
    for (int v : reps) {
      if (v < 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--replicas must be >= 0");
      }
    }
    Scenario scenario;
    try {
      scenario = ScenarioInput.load(scenarioFile);
    } catch (ScenarioException e) {
      stderr.println(e.getMessage());
      return 1;
    }
    ProgressBar bar = ScenarioInput.progressBar(Terminal.detect(), format, System.err, "searching buffer sizes");
    BufferSizeSearch.Result r;
    try {
      r = BufferSizeSearch.search(scenario, seed == null ? scenario.seed() : seed, target, pct, reps,
          workloads == null ? List.of() : workloads, Runtime.getRuntime().availableProcessors(), bar);
    } catch (IllegalArgumentException e) {
      stderr.println("headroom recommend: " + e.getMessage());
      return 1;
    } finally {
      if (bar != null) {
        bar.finish();
      }
    }
    stdout.print(SimulateCommand.FORMAT_JSON.equals(format) ? json(r) : text(r));
    stdout.flush();
    return r.recommended().isPresent() ? 0 : 2;
  }

  static String text(BufferSizeSearch.Result r) {
    StringBuilder b = new StringBuilder();
    b.append("Scenario ").append(r.scenario()).append(", seed ").append(r.seed()).append(": buffers on ")
        .append(String.join(", ", r.workloads())).append(", target p99 pod wait <= ").append(num(r.sloP99Seconds(), 1))
        .append("s\n\n");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"buffer", "p95", "p99", "cost", "node-hours", "meets SLO"});
    for (BufferSizeSearch.Point p : r.curve()) {
      rows.add(new String[] {p.name(), num(p.p95(), 1) + "s", num(p.p99(), 1) + "s", num(p.cost(), 2),
          num(p.nodeHours(), 2), p.meetsSlo() ? "yes" : "no"});
    }
    int[] w = new int[6];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        w[i] = Math.max(w[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        b.append(i == 0 ? row[i] + " ".repeat(w[i] - row[i].length()) : "  " + " ".repeat(w[i] - row[i].length()) + row[i]);
      }
      b.append('\n');
    }
    b.append('\n');
    if (r.recommended().isPresent()) {
      BufferSizeSearch.Point p = r.recommended().get();
      b.append("Recommended: ").append(p.name()).append(" (p99 ").append(num(p.p99(), 1)).append("s, cost ")
          .append(num(p.cost(), 2)).append(")\n");
    } else {
      b.append("No size tried meets the SLO; try larger --percentages or --replicas.\n");
    }
    return b.toString();
  }

  static String json(BufferSizeSearch.Result r) {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"scenario\": \"").append(r.scenario().replace("\"", "\\\"")).append("\",\n");
    b.append("  \"seed\": ").append(r.seed()).append(",\n");
    b.append("  \"sloP99\": ").append(num(r.sloP99Seconds(), 3)).append(",\n");
    b.append("  \"recommended\": ").append(r.recommended().map(p -> "\"" + p.name() + "\"").orElse("null")).append(",\n");
    b.append("  \"curve\": [");
    for (int i = 0; i < r.curve().size(); i++) {
      BufferSizeSearch.Point p = r.curve().get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {\"name\": \"").append(p.name()).append("\", \"percentage\": ")
          .append(p.percentage()).append(", \"replicas\": ").append(p.replicas()).append(", \"p95\": ")
          .append(num(p.p95(), 3)).append(", \"p99\": ").append(num(p.p99(), 3)).append(", \"cost\": ")
          .append(num(p.cost(), 4)).append(", \"nodeHours\": ").append(num(p.nodeHours(), 3))
          .append(", \"meetsSlo\": ").append(p.meetsSlo()).append('}');
    }
    b.append("\n  ]\n}\n");
    return b.toString();
  }

  private static String num(double v, int scale) {
    return BigDecimal.valueOf(v).setScale(scale, RoundingMode.HALF_UP).toPlainString();
  }
}
