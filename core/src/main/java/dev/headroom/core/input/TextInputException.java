package dev.headroom.core.input;

/**
 * Input text that cannot be read as a document: not UTF-8, over a limit, or not valid YAML. The message is plain
 * words (no library or Java type names); {@link #line()} is 1-based, or 0 for the whole file.
 */
public final class TextInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int line;

  /** A problem at {@code line} (0 = the whole input). */
  public TextInputException(int line, String problem) {
    super(problem);
    this.line = line;
  }

  /** The 1-based line of the problem, 0 when it concerns the whole input. */
  public int line() {
    return line;
  }
}
