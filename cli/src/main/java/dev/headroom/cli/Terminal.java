package dev.headroom.cli;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * Whether the command line talks to a person: colour (picocli's help and error styles) only when a terminal is
 * attached and {@code NO_COLOR} is unset or empty (no-color.org), progress bars only when a terminal is attached.
 * Output redirected to a file or a pipe gets neither.
 *
 * @param interactive a terminal is attached (progress bars may be drawn)
 * @param colour ANSI colour may be used
 */
public record Terminal(boolean interactive, boolean colour) {

  /** The environment variable that turns colour off when set to a non-empty value. */
  public static final String NO_COLOR = "NO_COLOR";

  /** The terminal this JVM runs on: {@link System#console()} and the process environment. */
  public static Terminal detect() {
    return of(isTerminal(System.console()), System.getenv());
  }

  /** A terminal from whether one is attached and the environment (for {@value #NO_COLOR}). */
  public static Terminal of(boolean attached, Map<String, String> env) {
    String noColor = env.get(NO_COLOR);
    return new Terminal(attached, attached && (noColor == null || noColor.isEmpty()));
  }

  /**
   * True for a console that is a terminal. Up to Java 21 a console exists only then; from Java 22 on a console
   * may exist with redirected streams, and {@code Console.isTerminal()} tells.
   */
  static boolean isTerminal(Console console) {
    if (console == null) {
      return false;
    }
    try {
      Method m = Console.class.getMethod("isTerminal");
      return (Boolean) m.invoke(console);
    } catch (NoSuchMethodException e) {
      return true;
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }
}
