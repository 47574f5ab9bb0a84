package dev.headroom.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** The {@code --now RFC3339} option shared by commands that evaluate the cluster at one instant. */
final class NowOption {

  private NowOption() {}

  /**
   * The instant {@code text} names, or the current time when it is null. A malformed value is reported on
   * {@code err} as one line and gives an empty result (the command then exits 1).
   */
  static Optional<Instant> parse(String text, PrintWriter err) {
    if (text == null) {
      return Optional.of(Instant.now());
    }
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      err.println("--now: \"" + text + "\" is not an RFC 3339 time such as 2026-03-02T08:30:00Z");
      err.flush();
      return Optional.empty();
    }
  }
}
