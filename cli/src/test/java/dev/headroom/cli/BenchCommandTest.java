package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = Main.newCommandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  @Test
  void printsOneJsonLine() {
    assertThat(run("bench", "karpenter-diverse", "--pods", "50", "--warmup", "0", "--iterations", "1")).isZero();
    assertThat(out.toString().trim()).startsWith("{\"benchmark\":\"karpenter-diverse\",\"pods\":50,").endsWith("}");
  }

  @Test
  void typesSizeTheCatalogue() {
    assertThat(run("bench", "karpenter-diverse", "--pods", "50", "--types", "10", "--warmup", "0", "--iterations", "1")).isZero();
    assertThat(out.toString().trim()).contains("\"coldSeconds\":", "\"podsPerZone\":{");
  }

  /** The written catalogue and pods are a plan input: with --salvo-scale-up every pod gets a node. */
  @Test
  void writesAPlanInputThatPlanReads(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    java.nio.file.Path file = dir.resolve("diverse.yaml");
    assertThat(run("bench", "karpenter-diverse", "--pods", "20", "--types", "4", "--write-plan-input", file.toString())).isZero();
    assertThat(out.toString()).isEmpty();
    assertThat(run("plan", "-f", file.toString(), "--now", "2026-03-02T08:00:00Z", "-o", "json", "--salvo-scale-up")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"total\":20", "\"onNewNodes\":20", "\"unschedulable\":0");
  }

  @Test
  void typesOnAScenarioWithoutCatalogueIsExitOne() {
    assertThat(run("bench", "runonce-scaleup", "--pods", "50", "--types", "3")).isEqualTo(1);
    assertThat(err.toString()).contains("runonce-scaleup has no instance-type catalogue (--types)");
  }

  @Test
  void unknownScenarioIsExitOneWithTheKnownNames() {
    assertThat(run("bench", "nope")).isEqualTo(1);
    assertThat(err.toString()).contains("unknown scenario 'nope'", "karpenter-diverse");
  }
}
