package dev.headroom.cli.sim;

import dev.headroom.cli.Terminal;
import dev.headroom.sim.report.ProgressBar;
import dev.headroom.sim.report.ReportFiles;
import dev.headroom.sim.report.SummaryJson;
import dev.headroom.sim.report.TextTable;
import dev.headroom.sim.run.ScenarioRunner;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code headroom simulate [SCENARIO.yaml]}: replays a workload against a simulated cluster once per strategy
 * and prints the side-by-side comparison of pod wait and cost.
 */
@Command(
    name = SimulateCommand.NAME,
    mixinStandardHelpOptions = true,
    description = {
      "Replays a scenario against a simulated cluster once per strategy (no buffer, balloon pods, CapacityBuffers,"
          + " a warm pool) and compares pod wait with node-hours and cost.",
      "Without a file it runs the built-in scenario: an HPA-scaled web service behind a queue on three node groups,"
          + " hit by a traffic spike."
    })
public final class SimulateCommand implements Callable<Integer> {

  /** The command name. */
  public static final String NAME = "simulate";
  /** Output directory option. */
  public static final String OPT_OUT = "--out";
  /** Seed option. */
  public static final String OPT_SEED = "--seed";
  /** Output format option. */
  public static final String OPT_OUTPUT = "--output";
  /** Text output. */
  public static final String FORMAT_TEXT = "text";
  /** JSON output. */
  public static final String FORMAT_JSON = "json";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO.yaml",
      description = "Scenario file (default: the built-in scenario).")
  Path scenarioFile;

  @Option(names = OPT_OUT, paramLabel = "DIR", description = "Also write report.html, summary.json and ticks.csv into DIR.")
  Path out;

  @Option(names = OPT_SEED, paramLabel = "N", description = "Random seed (default: the scenario's seed).")
  Long seed;

  @Option(names = {"-o", OPT_OUTPUT}, paramLabel = "FORMAT", defaultValue = FORMAT_TEXT,
      description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "1",
      description = "Seeds per strategy, pooled: the first seed, then the next ones (default: ${DEFAULT-VALUE}).")
  int seeds;

  @Option(names = "--threads", paramLabel = "N", description = "Runs simulated in parallel (default: available processors).")
  Integer threads;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    if (!FORMAT_TEXT.equals(format) && !FORMAT_JSON.equals(format)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "unknown output format \"" + format + "\" (use text or json)");
    }
    if (threads != null && threads < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be at least 1, not " + threads);
    }
    if (seeds < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--seeds must be at least 1, not " + seeds);
    }
    Scenario scenario;
    try {
      scenario = ScenarioInput.load(scenarioFile);
    } catch (ScenarioException e) {
      stderr.println(e.getMessage());
      return 1;
    }
    long s = seed == null ? scenario.seed() : seed;
    ProgressBar bar = ScenarioInput.progressBar(Terminal.detect(), format, System.err, "simulating " + scenario.name());
    SimulationReport report;
    try {
      report = ScenarioRunner.run(scenario, ScenarioRunner.seeds(s, seeds), threads == null ? Runtime.getRuntime().availableProcessors() : threads, bar);
    } catch (IllegalArgumentException e) {
      // a combination the core refuses (its own validation) that the scenario reader did not catch first
      stderr.println("headroom simulate: " + scenario.file() + ": " + e.getMessage());
      return 1;
    } finally {
      if (bar != null) {
        bar.finish();
      }
    }
    if (FORMAT_JSON.equals(format)) {
      stdout.print(SummaryJson.render(report));
    } else {
      stdout.print(TextTable.render(report));
    }
    if (out != null) {
      try {
        List<Path> files = ReportFiles.write(report, out);
        if (FORMAT_TEXT.equals(format)) {
          stdout.println();
          for (Path f : files) {
            stdout.println("wrote " + f);
          }
        }
      } catch (IOException e) {
        stderr.println("headroom simulate: cannot write " + out + ": " + e.getMessage());
        return 1;
      }
    }
    stdout.flush();
    return 0;
  }
}
