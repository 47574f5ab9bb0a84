package dev.headroom.sim.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The embedded default scenario that {@code headroom simulate} runs when no file is given. */
public final class DefaultScenario {

  /** The label used in error messages and reports for the embedded scenario. */
  public static final String LABEL = "<default scenario>";
  private static final String RESOURCE = "/dev/headroom/sim/default-scenario.yaml";

  private DefaultScenario() {}

  /** The YAML text. */
  public static String text() {
    try (InputStream in = DefaultScenario.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The parsed scenario. */
  public static Scenario load() {
    return ScenarioParser.parse(LABEL, text(), null);
  }
}
