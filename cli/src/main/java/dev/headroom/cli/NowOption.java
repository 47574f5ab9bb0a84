package dev.headroom.cli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;

/** The {@code --now RFC3339} option shared by commands that evaluate the cluster at one instant. */
final class NowOption {

  private NowOption() {}

  /**
   * The instant {@code text} names, or the current time when it is null.
   *
   * @throws CommandLine.ParameterException for a malformed value (a usage error: one line and a hint)
   */
  static Instant parse(String text, CommandLine cmd) {
    if (text == null) {
      return Instant.now();
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new CommandLine.ParameterException(cmd, "--now: \"" + text + "\" is not an RFC 3339 time such as 2026-03-02T08:30:00Z");
    }
  }
}
