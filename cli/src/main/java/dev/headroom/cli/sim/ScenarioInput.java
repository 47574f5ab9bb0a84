package dev.headroom.cli.sim;

import dev.headroom.sim.scenario.DefaultScenario;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioParser;
import java.nio.file.Path;

/** Loads the scenario named on the command line, or the embedded default one. */
final class ScenarioInput {

  private ScenarioInput() {}

  static Scenario load(Path file) {
    return file == null ? DefaultScenario.load() : ScenarioParser.parseFile(file);
  }

  /** True when standard output is a terminal (progress bars are drawn only then). */
  static boolean terminal() {
    return System.console() != null;
  }
}
