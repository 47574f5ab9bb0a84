package dev.headroom.cli.sim;

import dev.headroom.cli.Terminal;
import dev.headroom.sim.report.ProgressBar;
import dev.headroom.sim.scenario.DefaultScenario;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.io.PrintStream;
import java.nio.file.Path;

/** Loads the scenario named on the command line, or the embedded default one. */
final class ScenarioInput {

  private ScenarioInput() {}

  static Scenario load(Path file) {
    return file == null ? DefaultScenario.load() : ScenarioParser.parseFile(file);
  }

  /**
   * The progress bar of a text-output run on a terminal, drawn on {@code err}; null (no progress output) when no
   * terminal is attached or the output is JSON.
   */
  static ProgressBar progressBar(Terminal terminal, String format, PrintStream err, String label) {
    return terminal.interactive() && SimulateCommand.FORMAT_TEXT.equals(format) ? new ProgressBar(err, System::nanoTime, label) : null;
  }
}
