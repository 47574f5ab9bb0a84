package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's "Try it on a local control plane" commands, exactly as printed there (the block between the
 * {@code e2e:walkthrough} markers), run by bash against this bed.
 */
class WalkthroughE2eTest {
  static final String BEGIN = "<!-- e2e:walkthrough -->";
  static final String END = "<!-- /e2e:walkthrough -->";

  @Test
  void theReadmeWalkthroughRuns() throws Exception {
    TestBed bed = TestBed.get();
    String readme = Files.readString(bed.root().resolve("README.md"), StandardCharsets.UTF_8);
    int from = readme.indexOf(BEGIN);
    int to = readme.indexOf(END);
    assertThat(from).as("README marks the walkthrough").isNotNegative();
    String block = readme.substring(from + BEGIN.length(), to).strip();
    assertThat(block).startsWith("```bash").endsWith("```");
    String commands = block.substring("```bash".length(), block.length() - 3).strip();
    Path log = bed.out().resolve("walkthrough.log");
    // Whatever the block leaves running in the background is stopped when it ends, even on failure.
    String script = "trap 'jobs -p | xargs -r kill 2>/dev/null' EXIT\nset -x\n" + commands + "\n";
    ProcessBuilder pb = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script).directory(bed.root().toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(bed.scriptEnv());
    Process p = pb.start();
    boolean done = p.waitFor(10, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    Path headroomLog = bed.root().resolve("headroom-run.log");
    if (Files.exists(headroomLog)) {
      Files.move(headroomLog, bed.out().resolve("walkthrough-headroom-run.log"), StandardCopyOption.REPLACE_EXISTING);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(done).as("the walkthrough finished within 10 minutes; log: %s", log).isTrue();
    assertThat(p.exitValue()).as("exit status of the walkthrough; log %s:%n%s", log, output).isZero();
    assertThat(output).contains("web-headroom").contains("general-");
  }
}
