package dev.headroom.cli.input;

/** A malformed input file; {@link #getMessage()} is the one-line {@code FILE:LINE: what is wrong}. */
public final class InputException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Position position;
  private final String detail;

  /** An error at {@code position}. */
  public InputException(Position position, String detail) {
    super(position + ": " + detail);
    this.position = position;
    this.detail = detail;
  }

  /** Where the problem is. */
  public Position position() {
    return position;
  }

  /** The message without the position. */
  public String detail() {
    return detail;
  }
}
