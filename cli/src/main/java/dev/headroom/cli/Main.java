package dev.headroom.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code headroom} command: a thin picocli front end over {@code core}. */
@Command(
    name = "headroom",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Spare capacity ahead of demand for Kubernetes clusters.",
    subcommands = {CommandLine.HelpCommand.class, ExplainCommand.class, DemoCommand.class, BenchCommand.class,
        RunCommand.class, dev.headroom.cli.sim.SimulateCommand.class, dev.headroom.cli.sim.RecommendCommand.class,
        dev.headroom.cli.sim.ScenarioCommand.class,
        PlanCommand.class, VersionCommand.class, CompletionCommand.class})
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (used by tests to avoid {@link System#exit}). */
  public static int run(String... args) {
    return newCommandLine().execute(args);
  }

  /**
   * Exit status of a usage error (an unknown option, a missing or malformed argument or option value): 1, as for
   * a bad input file; 2 is reserved for {@code recommend}'s "no size meets the SLO".
   */
  public static final int USAGE_ERROR = 1;

  /** The command line with Headroom's error handling (one-line usage errors, no stack traces). */
  public static CommandLine newCommandLine() {
    return newCommandLine(Terminal.detect());
  }

  /** The command line, with colour only when {@code terminal} allows it (help, usage errors). */
  static CommandLine newCommandLine(Terminal terminal) {
    CommandLine cli = new CommandLine(new Main());
    cli.setColorScheme(CommandLine.Help.defaultColorScheme(terminal.colour() ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
    cli.setParameterExceptionHandler(Main::usageError);
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      // never a stack trace: a failure the command did not report itself is one plain line
      cmd.getErr().println(commandName(cmd) + ": " + PlainError.message(e));
      cmd.getErr().flush();
      return 1;
    });
    return cli;
  }

  /** One line with what is wrong and a hint where the usage is, instead of the whole help text. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    java.io.PrintWriter err = cmd.getErr();
    String m = String.valueOf(e.getMessage())
        .replaceAll("is not an? (long|int|short|byte)\\b", "is not an integer")
        .replaceAll("is not an? (double|float)\\b", "is not a number");
    err.println(commandName(cmd) + ": " + m);
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("see '" + commandName(cmd) + " --help'");
    err.flush();
    return USAGE_ERROR;
  }

  private static String commandName(CommandLine cmd) {
    return cmd.getCommandSpec().qualifiedName();
  }

  /** Plain words for an unexpected exception (its own message, without Java type names). */
  static final class PlainError {
    private PlainError() {}

    static String message(Throwable e) {
      String m = e.getMessage();
      if (m == null || m.isBlank()) {
        return "unexpected error";
      }
      int nl = m.indexOf('\n');
      return (nl >= 0 ? m.substring(0, nl) : m).replaceAll("\\b(?:java|javax|jdk|tools\\.jackson|io\\.fabric8|org)\\.[\\w.$]+", "").trim();
    }
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
