package dev.headroom.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code headroom} command: a thin picocli front end over {@code core}. */
@Command(
    name = "headroom",
    mixinStandardHelpOptions = true,
    version = "headroom 0.1.0-SNAPSHOT",
    description = "Spare capacity ahead of demand for Kubernetes clusters.",
    subcommands = {CommandLine.HelpCommand.class, ExplainCommand.class, DemoCommand.class, BenchCommand.class,
        RunCommand.class, dev.headroom.cli.sim.SimulateCommand.class, dev.headroom.cli.sim.RecommendCommand.class,
        dev.headroom.cli.sim.ScenarioCommand.class,
        PlanCommand.class})
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (used by tests to avoid {@link System#exit}). */
  public static int run(String... args) {
    return newCommandLine().execute(args);
  }

  static CommandLine newCommandLine() {
    return new CommandLine(new Main());
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
