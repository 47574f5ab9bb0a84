package dev.headroom.sim.scenario;

/** A scenario file error located at a line: its message reads {@code FILE:LINE: what is wrong}. */
public final class ScenarioException extends RuntimeException {

  private final String file;
  private final int line;
  private final String problem;

  /** An error at a 1-based line of a file (or of the embedded default scenario). */
  public ScenarioException(String file, int line, String problem) {
    super(file + ":" + line + ": " + problem);
    this.file = file;
    this.line = line;
    this.problem = problem;
  }

  /** The file label as given on the command line. */
  public String file() {
    return file;
  }

  /** The 1-based line. */
  public int line() {
    return line;
  }

  /** The message without the location. */
  public String problem() {
    return problem;
  }
}
