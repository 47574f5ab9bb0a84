package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class VersionCommandTest {

  record Run(int exit, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.newCommandLine(new Terminal(false, false));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void versionSubcommandAndFlagPrintTheEmbeddedBuildInfo() throws Exception {
    Run sub = run("version");
    assertThat(sub.exit()).as(sub.err()).isZero();
    Properties p = new Properties();
    try (var in = BuildInfo.class.getResourceAsStream(BuildInfo.RESOURCE)) {
      p.load(in);
    }
    // the build filtered the file: the project version and the declared build date are real values
    assertThat(p.getProperty("version")).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    assertThat(sub.out().lines().toList()).containsExactly(
        "headroom " + p.getProperty("version"),
        "commit:     " + BuildInfo.current().commit(),
        "build date: " + p.getProperty("buildDate"),
        "java:       " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
    assertThat(p.getProperty("buildDate")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");
    Run flag = run("--version");
    assertThat(flag.exit()).isZero();
    assertThat(flag.out()).isEqualTo(sub.out());
  }

  @Test
  void theCommitIsTheCheckoutsHeadWhenTheBuildRanInAGitTree() throws Exception {
    String commit = BuildInfo.current().commit();
    // a checkout (a git worktree too) gives the abbreviated hash of its HEAD; a tree without .git gives "unknown"
    assertThat(commit).matches("[0-9a-f]{12}|unknown");
    Path root = Path.of("..").toAbsolutePath().normalize();
    if (!commit.equals("unknown") && Files.exists(root.resolve(".git"))) {
      Process git;
      try {
        git = new ProcessBuilder("git", "rev-parse", "HEAD").directory(root.toFile()).redirectErrorStream(true).start();
      } catch (java.io.IOException noGit) {
        return;
      }
      String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (git.waitFor() == 0) {
        // built from this checkout; a commit made after the build is the only way they differ
        assertThat(head).matches("[0-9a-f]{40}");
        assertThat(commitIsAncestorOrHead(root, commit)).as(commit + " is in the history of " + head).isTrue();
      }
    }
  }

  private static boolean commitIsAncestorOrHead(Path root, String commit) throws Exception {
    Process p = new ProcessBuilder("git", "merge-base", "--is-ancestor", commit, "HEAD").directory(root.toFile()).start();
    return p.waitFor() == 0;
  }

  @Test
  void valuesTheBuildCouldNotFillInReadAsUnknown() {
    Properties p = new Properties();
    p.setProperty("version", "1.2.3");
    p.setProperty("commit", "${buildNumber}");
    p.setProperty("buildDate", "");
    assertThat(BuildInfo.of(p, "17")).isEqualTo(new BuildInfo("1.2.3", "unknown", "unknown", "17"));
    p.setProperty("commit", "0123456789ab");
    p.setProperty("buildDate", "2026-12-01T00:00:00Z");
    assertThat(BuildInfo.of(p, "17")).isEqualTo(new BuildInfo("1.2.3", "0123456789ab", "2026-12-01T00:00:00Z", "17"));
  }

  @Test
  void completionPrintsABashScriptCoveringSubcommandsAndOptions() {
    Run r = run("completion");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("#!/usr/bin/env bash")
        .contains("complete -F _complete_headroom", "simulate", "recommend", "plan", "explain", "version", "completion",
            "--capacity-buffer-pod-dry-run-enabled", "--seed");
  }
}
