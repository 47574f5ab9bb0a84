package dev.headroom.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code headroom simulate} and {@code headroom recommend} end to end on a small scenario. */
class SimulateCommandTest {

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.newCommandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  static String tiny() throws URISyntaxException {
    return Path.of(SimulateCommandTest.class.getResource("/tiny-scenario.yaml").toURI()).toString();
  }

  @Test
  void jsonSummaryHasEveryStrategy() throws Exception {
    Run r = run(SimulateCommand.NAME, tiny(), "-o", "json", "--seed", "5");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode n = JsonMapper.builder().build().readTree(r.out());
    assertThat(n.get("scenario").asText()).isEqualTo("tiny");
    assertThat(n.get("seed").asLong()).isEqualTo(5);
    assertThat(n.get("strategies")).hasSize(2);
    JsonNode none = n.get("strategies").get(0);
    assertThat(none.get("name").asText()).isEqualTo("none");
    for (String f : new String[] {"podsOverSlo", "nodeHours", "cost", "peakNodes", "meanUtilization"}) {
      assertThat(none.has(f)).as(f).isTrue();
    }
    for (String f : new String[] {"p50", "p95", "p99", "max"}) {
      assertThat(none.get("podWait").has(f)).as(f).isTrue();
    }
    assertThat(n.get("strategies").get(1).get("name").asText()).isEqualTo("buffer-50pct");
    // same seed, same bytes
    assertThat(run(SimulateCommand.NAME, tiny(), "-o", "json", "--seed", "5").out()).isEqualTo(r.out());
  }

  private static String uplotVersion() throws java.io.IOException {
    java.util.Properties p = new java.util.Properties();
    try (var in = SimulateCommandTest.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
      p.load(in);
    }
    return p.getProperty("version");
  }

  @Test
  void progressIsDrawnOnlyOnATerminalAndOnlyForTextOutput() {
    java.io.PrintStream err = new java.io.PrintStream(new java.io.ByteArrayOutputStream());
    assertThat(ScenarioInput.progressBar(new dev.headroom.cli.Terminal(true, true), SimulateCommand.FORMAT_TEXT, err, "x")).isNotNull();
    assertThat(ScenarioInput.progressBar(new dev.headroom.cli.Terminal(true, false), SimulateCommand.FORMAT_TEXT, err, "x"))
        .as("NO_COLOR turns off colour, not progress").isNotNull();
    assertThat(ScenarioInput.progressBar(new dev.headroom.cli.Terminal(false, false), SimulateCommand.FORMAT_TEXT, err, "x")).isNull();
    assertThat(ScenarioInput.progressBar(new dev.headroom.cli.Terminal(true, true), SimulateCommand.FORMAT_JSON, err, "x")).isNull();
  }

  @Test
  void textTableAndReportFiles(@TempDir Path dir) throws Exception {
    Run r = run(SimulateCommand.NAME, tiny(), "--out", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("Scenario tiny", "strategy", "wait p50", "none", "buffer-50pct", "wrote ");
    assertThat(dir.resolve("report.html")).exists();
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html).contains("uPlot", "buffer-50pct");
    // the inlined chart library keeps its MIT licence notice, the webjar's own LICENSE text, ahead of its code
    String license = new String(SimulateCommandTest.class.getResourceAsStream(
        "/META-INF/resources/webjars/uplot/" + uplotVersion() + "/LICENSE").readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(license).contains("The MIT License", "Permission is hereby granted");
    assertThat(html).contains(license.strip().replace("*/", "* /"));
    assertThat(html.indexOf("Permission is hereby granted")).isLessThan(html.indexOf("new uPlot("));
    assertThat(Files.readString(dir.resolve("summary.json"))).contains("\"strategies\"");
    assertThat(Files.readAllLines(dir.resolve("ticks.csv"))).hasSize(1 + 2 * (30 * 6 + 1));
  }

  @Test
  void aBrokenScenarioIsReportedAsFileAndLineWithExitCode1(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, Files.readString(Path.of(tiny())).replace("perReplicaCapacity: 10", "perReplicaCapacity: ten"));
    Run r = run(SimulateCommand.NAME, bad.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo(bad + ":29: spec.workloads[0].load.perReplicaCapacity: must be a number, not \"ten\"");
    assertThat(r.err()).doesNotContain("Exception", "\tat ");
    Run missing = run(SimulateCommand.NAME, dir.resolve("nope.yaml").toString());
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).startsWith(dir.resolve("nope.yaml") + ":1: cannot read the scenario");
    assertThat(run(SimulateCommand.NAME, tiny(), "-o", "xml").code()).isEqualTo(1);
  }

  @Test
  void recommendFindsTheCheapestBufferMeetingTheSlo() throws Exception {
    Run r = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,100", "-o", "json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode n = JsonMapper.builder().build().readTree(r.out());
    assertThat(n.get("curve").size()).isGreaterThanOrEqualTo(2);
    JsonNode first = n.get("curve").get(0);
    assertThat(first.get("name").asText()).isEqualTo("buffer-0pct");
    assertThat(first.get("meetsSlo").asBoolean()).isFalse();
    String best = n.get("recommended").asText();
    assertThat(best).startsWith("buffer-").endsWith("pct");
    int pct = Integer.parseInt(best.substring(7, best.length() - 3));
    assertThat(pct).isBetween(1, 100);
    // the search bisected down from 100%: every size below the recommendation that was tried fails the SLO
    for (JsonNode p : n.get("curve")) {
      if (p.get("percentage").asInt() < pct) {
        assertThat(p.get("meetsSlo").asBoolean()).as(p.get("name").asText()).isFalse();
      }
    }
    Run text = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,100");
    assertThat(text.out()).contains("Recommended: " + best, "p99", "cost");
    assertThat(run(RecommendCommand.NAME, tiny(), "--slo-p99", "soon").code()).isEqualTo(1);
  }
}
