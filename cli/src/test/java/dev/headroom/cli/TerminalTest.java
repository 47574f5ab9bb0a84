package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TerminalTest {

  private static String help(Terminal t) {
    StringWriter out = new StringWriter();
    CommandLine cli = Main.newCommandLine(t);
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("simulate", "--help")).isZero();
    return out.toString();
  }

  private static String usageError(Terminal t) {
    StringWriter err = new StringWriter();
    CommandLine cli = Main.newCommandLine(t);
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("simulate", "--no-such-flag")).isEqualTo(Main.USAGE_ERROR);
    return err.toString();
  }

  @Test
  void colourOnlyOnATerminalWithoutNoColor() {
    assertThat(Terminal.of(true, Map.of())).isEqualTo(new Terminal(true, true));
    assertThat(Terminal.of(true, Map.of("NO_COLOR", "1"))).isEqualTo(new Terminal(true, false));
    assertThat(Terminal.of(true, Map.of("NO_COLOR", ""))).as("an empty NO_COLOR does not count").isEqualTo(new Terminal(true, true));
    assertThat(Terminal.of(false, Map.of())).isEqualTo(new Terminal(false, false));
    assertThat(Terminal.of(false, Map.of("NO_COLOR", "1"))).isEqualTo(new Terminal(false, false));
    assertThat(Terminal.isTerminal(null)).isFalse();
  }

  @Test
  void helpAndUsageErrorsAreColouredOnlyWhenAllowed() {
    assertThat(help(Terminal.of(true, Map.of()))).contains("\u001b[");
    // a usage error is one plain line and a hint, on a terminal too
    assertThat(usageError(Terminal.of(true, Map.of()))).doesNotContain("\u001b[").contains("--no-such-flag");
    assertThat(help(Terminal.of(true, Map.of("NO_COLOR", "1")))).doesNotContain("\u001b[").contains("--seed");
    assertThat(usageError(Terminal.of(true, Map.of("NO_COLOR", "1")))).doesNotContain("\u001b[").contains("--no-such-flag");
    assertThat(help(Terminal.of(false, Map.of()))).doesNotContain("\u001b[").contains("--seed");
    assertThat(usageError(Terminal.of(false, Map.of()))).doesNotContain("\u001b[");
  }
}
