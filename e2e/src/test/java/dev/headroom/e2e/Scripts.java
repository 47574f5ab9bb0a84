package dev.headroom.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the project's scripts (e2e/cluster) and returns their standard output. */
final class Scripts {
  private Scripts() {}

  static String run(Path dir, Map<String, String> env, Duration timeout, String... command) {
    try {
      Path err = Files.createTempFile("e2e-script", ".err");
      Path outFile = Files.createTempFile("e2e-script", ".out");
      try {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
            .redirectOutput(outFile.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly();
          throw new IllegalStateException(String.join(" ", command) + ": no result within " + timeout);
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        if (!stderr.isBlank()) {
          System.err.print(stderr);
        }
        if (p.exitValue() != 0) {
          throw new IllegalStateException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + stderr.strip());
        }
        return Files.readString(outFile, StandardCharsets.UTF_8);
      } finally {
        Files.deleteIfExists(err);
        Files.deleteIfExists(outFile);
      }
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
