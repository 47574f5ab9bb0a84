package dev.headroom.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/** What the tier measured, one line each in {@code target/e2e/measurements.txt} (and on standard output). */
final class Measurements {
  private Measurements() {}

  static synchronized void record(String what, Object value) {
    String line = Instant.now() + " " + what + ": " + value;
    System.out.println("MEASURED " + line);
    Path f = TestBed.get().out().resolve("measurements.txt");
    try {
      Files.writeString(f, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
