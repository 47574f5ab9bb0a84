package dev.headroom.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    assertThat(n.get("seeds")).hasSize(1);
    assertThat(none.get("pods").asInt()).isPositive();
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
  void seedsArePooledAndTheOutputDoesNotDependOnThePoolSize() throws Exception {
    Run one = run(SimulateCommand.NAME, tiny(), "-o", "json", "--seed", "5", "--seeds", "3", "--threads", "1");
    Run two = run(SimulateCommand.NAME, tiny(), "-o", "json", "--seed", "5", "--seeds", "3", "--threads", "2");
    assertThat(one.code()).as(one.err()).isZero();
    assertThat(two.out()).isEqualTo(one.out());
    JsonNode n = JsonMapper.builder().build().readTree(one.out());
    assertThat(n.get("seeds").toString()).isEqualTo("[5,6,7]");
    JsonNode single = JsonMapper.builder().build().readTree(run(SimulateCommand.NAME, tiny(), "-o", "json", "--seed", "5").out());
    int pods = 0;
    for (long s = 5; s <= 7; s++) {
      pods += JsonMapper.builder().build().readTree(run(SimulateCommand.NAME, tiny(), "-o", "json", "--seed", Long.toString(s))
          .out()).get("strategies").get(0).get("pods").asInt();
    }
    assertThat(n.get("strategies").get(0).get("pods").asInt()).isEqualTo(pods)
        .isGreaterThan(single.get("strategies").get(0).get("pods").asInt());
    JsonNode p99 = n.get("strategies").get(0).get("podWaitInterval").get("p99");
    assertThat(p99.get(0).asDouble()).isLessThanOrEqualTo(n.get("strategies").get(0).get("podWait").get("p99").asDouble());
    assertThat(p99.get(1).asDouble()).isGreaterThanOrEqualTo(n.get("strategies").get(0).get("podWait").get("p99").asDouble());
    assertThat(run(SimulateCommand.NAME, tiny(), "--seeds", "0").code()).isEqualTo(1);
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

  /** {@code examples/scenarios/standby.yaml}: the search over standby buffers, printed with their strategy. */
  @Test
  void recommendSearchesStandbyBuffersOnTheScenariosStandbyGroup() throws Exception {
    String standby = java.nio.file.Path.of("..", "examples", "scenarios", "standby.yaml").toString();
    String strategy = "buffer.headroom.dev/standby-capacity";
    Run r = run(RecommendCommand.NAME, standby, "--slo-p99", "40s", "--replicas", "7,14", "--seeds", "2",
        "--provisioning-strategy", strategy, "-o", "yaml");
    assertThat(r.code()).as(r.err()).isZero();
    // a standby buffer waits for a loop and the 20 s resume: 14 standby chunks meet a 40 s p99, 7 do not
    assertThat(r.out()).startsWith("# headroom recommend: buffer-14 ");
    dev.headroom.api.v1beta1.CapacityBuffer cb = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
        .unmarshal(r.out(), dev.headroom.api.v1beta1.CapacityBuffer.class);
    assertThat(cb.getSpec().getProvisioningStrategy()).isEqualTo(strategy);
    assertThat(cb.getSpec().getReplicas()).isEqualTo(14);

    Run bad = run(RecommendCommand.NAME, standby, "--slo-p99", "40s", "--provisioning-strategy", "buffer.x-k8s.io/cold");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("--provisioning-strategy: unknown strategy \"buffer.x-k8s.io/cold\"");
    Run noGroup = run(RecommendCommand.NAME, tiny(), "--slo-p99", "40s", "--replicas", "1", "--provisioning-strategy", strategy);
    assertThat(noGroup.code()).isEqualTo(1);
    assertThat(noGroup.err()).startsWith("headroom recommend: buffers of the " + strategy + " strategy need a node group with spec.standby");
  }

  /** {@code examples/scenarios/web-dedicated.yaml}: the search over buffers dedicated to web (its pods consume them). */
  @Test
  void recommendSearchesDedicatedBuffersAndPrintsTheirConsumerSelector() throws Exception {
    String dedicated = java.nio.file.Path.of("..", "examples", "scenarios", "web-dedicated.yaml").toString();
    Run r = run(RecommendCommand.NAME, dedicated, "--slo-p99", "5s", "--replicas", "30,46", "--seeds", "1",
        "--consumer-selector", "app=web", "-o", "json");
    assertThat(r.code()).as(r.err()).isZero();
    // the spike's 46 replicas need a dedicated buffer of 46: 30 leave the peak waiting for nodes
    JsonNode n = JsonMapper.builder().build().readTree(r.out());
    assertThat(n.get("recommended").asText()).isEqualTo("buffer-46");
    Run yaml = run(RecommendCommand.NAME, dedicated, "--slo-p99", "5s", "--replicas", "46", "--seeds", "1",
        "--consumer-selector", "app=web", "-o", "yaml");
    dev.headroom.api.v1beta1.CapacityBuffer cb = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
        .unmarshal(yaml.out(), dev.headroom.api.v1beta1.CapacityBuffer.class);
    assertThat(cb.getMetadata().getAnnotations()).containsEntry("headroom.dev/consumer-selector", "app=web");
    Run bad = run(RecommendCommand.NAME, dedicated, "--slo-p99", "5s", "--consumer-selector", "app=web", "--refill-strategy", "once");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("invalid consumption settings: headroom.dev/refill-strategy \"once\": must be recreate or none");
  }

  @Test
  void recommendFindsTheCheapestBufferMeetingTheSlo() throws Exception {
    Run r = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,100", "--seeds", "3", "-o", "json");
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
    // it meets the SLO with the upper end of its p99 interval
    for (JsonNode p : n.get("curve")) {
      assertThat(p.get("meetsSlo").asBoolean()).isEqualTo(p.get("p99Interval").get(1).asDouble() <= 60);
    }
    assertThat(n.get("seeds").asInt()).isEqualTo(3);
    Run text = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,100", "--seeds", "3");
    assertThat(text.out()).contains("Recommended: " + best, "p99 [95% CI]", "cost", "seeds 11..13 (3)");
    // -o yaml: the recommended buffer, ready to apply, that the API's own validation accepts
    Run yaml = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,100", "--seeds", "3", "-o", "yaml");
    assertThat(yaml.code()).as(yaml.err()).isZero();
    assertThat(yaml.out()).startsWith("# headroom recommend: " + best);
    // printed as kubectl prints it: plain scalars unquoted, and a kubectl (YAML 1.1) reader gets the same strings
    assertThat(yaml.out()).contains("\nkind: CapacityBuffer\n", "\napiVersion: autoscaling.x-k8s.io/v1beta1\n")
        .doesNotContain(": \"CapacityBuffer\"");
    dev.headroom.cli.KubectlYaml.assertStringsReadBackAsStrings(yaml.out());
    dev.headroom.api.v1beta1.CapacityBuffer cb = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
        .unmarshal(yaml.out(), dev.headroom.api.v1beta1.CapacityBuffer.class);
    assertThat(cb.getApiVersion()).isEqualTo("autoscaling.x-k8s.io/v1beta1");
    assertThat(cb.getMetadata().getName()).isEqualTo("app-buffer");
    assertThat(cb.getSpec().getPercentage()).isEqualTo(pct);
    assertThat(cb.getSpec().getScalableRef().getName()).isEqualTo("app");
    // same seeds, same bytes
    assertThat(run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,100", "--seeds", "3", "-o", "json",
        "--threads", "1").out()).isEqualTo(r.out());
    assertThat(run(RecommendCommand.NAME, tiny(), "--slo-p99", "soon").code()).isEqualTo(1);
  }

  @Test
  void byHourPrintsScheduledBuffersThatCoreReadsBack() throws Exception {
    // the tiny scenario lasts 30 minutes: only 00:00-01:00 has pods, so the schedule holds a buffer in that hour and,
    // to be up before it, in the hour before (the day wraps around)
    Run text = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,50,100", "--seeds", "2", "--by-hour");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("By hour of day (UTC):", "Mon-Sun 00:00-01:00 UTC; Mon-Sun 23:00-24:00 UTC",
        "no buffer in the other hours",
        "the best constant size at the same SLO");
    Run yaml = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--percentages", "0,50,100", "--seeds", "2", "--by-hour",
        "-o", "yaml");
    assertThat(yaml.code()).as(yaml.err()).isZero();
    assertThat(yaml.out()).startsWith("# headroom recommend --by-hour");
    dev.headroom.cli.KubectlYaml.assertStringsReadBackAsStrings(yaml.out());
    dev.headroom.api.v1beta1.CapacityBuffer cb = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
        .unmarshal(yaml.out(), dev.headroom.api.v1beta1.CapacityBuffer.class);
    String schedule = cb.getMetadata().getAnnotations().get("headroom.dev/active-schedule");
    assertThat(schedule).isEqualTo("Mon-Sun 00:00-01:00 UTC; Mon-Sun 23:00-24:00 UTC");
    dev.headroom.core.buffer.ActiveSchedule parsed = dev.headroom.core.buffer.ActiveSchedule.parse(schedule);
    assertThat(parsed.evaluate(java.time.Instant.parse("2026-01-07T00:30:00Z")).active()).isTrue();
    assertThat(parsed.evaluate(java.time.Instant.parse("2026-01-07T23:30:00Z")).active()).isTrue();
    assertThat(parsed.evaluate(java.time.Instant.parse("2026-01-07T01:30:00Z")).active()).isFalse();
    assertThat(parsed.evaluate(java.time.Instant.parse("2026-01-07T12:00:00Z")).active()).isFalse();
  }

  @Test
  void byHourWithWeekendsApartGivesWeekdaysTheirOwnWindows() throws Exception {
    // a morning rush at 09:00 Monday to Friday, a quiet Saturday: the weekday hours of the rush get a buffer
    // (with the hour before, to be up in time), Saturday and Sunday none
    String week = Path.of(SimulateCommandTest.class.getResource("/office-week-scenario.yaml").toURI()).toString();
    Run text = run(RecommendCommand.NAME, week, "--slo-p99", "30s", "--percentages", "0,1", "--seeds", "1",
        "--by-hour", "--calendar", "weekday-weekend");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("By hour of day, weekdays and weekends apart (UTC):", "the best constant size at the same SLO");
    Run yaml = run(RecommendCommand.NAME, week, "--slo-p99", "30s", "--percentages", "0,1", "--seeds", "1",
        "--by-hour", "--calendar", "weekday-weekend", "-o", "yaml");
    assertThat(yaml.code()).as(yaml.err()).isZero();
    List<String> schedules = new java.util.ArrayList<>();
    for (String doc : yaml.out().split("(?m)^---\\s*$")) {
      if (doc.contains("kind:")) {
        dev.headroom.api.v1beta1.CapacityBuffer cb = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
            .unmarshal(doc, dev.headroom.api.v1beta1.CapacityBuffer.class);
        schedules.add(cb.getMetadata().getAnnotations().get("headroom.dev/active-schedule"));
      }
    }
    assertThat(schedules).isNotEmpty().allSatisfy(s -> assertThat(s).startsWith("Mon-Fri ").doesNotContain("Sat", "Mon-Sun"));
    for (String s : schedules) {
      dev.headroom.core.buffer.ActiveSchedule parsed = dev.headroom.core.buffer.ActiveSchedule.parse(s);
      assertThat(parsed.evaluate(java.time.Instant.parse("2026-01-10T09:30:00Z")).active()).as(s).isFalse(); // Saturday
      assertThat(parsed.evaluate(java.time.Instant.parse("2026-01-07T03:00:00Z")).active()).as(s).isFalse();
    }
    assertThat(schedules.stream().map(dev.headroom.core.buffer.ActiveSchedule::parse)
        .anyMatch(p -> p.evaluate(java.time.Instant.parse("2026-01-07T09:30:00Z")).active())).isTrue(); // Wednesday
  }

  @Test
  void weekendsApartOnAOneDayScenarioFailAtOnce() throws Exception {
    Run r = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--by-hour", "--calendar", "weekday-weekend");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("headroom recommend: --calendar weekday-weekend needs a scenario longer than 5 days")
        .doesNotContain("Exception");
    Run alone = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--calendar", "weekday-weekend");
    assertThat(alone.code()).isNotZero();
    assertThat(alone.err()).contains("--calendar needs --by-hour");
    Run unknown = run(RecommendCommand.NAME, tiny(), "--slo-p99", "60s", "--by-hour", "--calendar", "weekly");
    assertThat(unknown.err()).contains("unknown calendar \"weekly\"");
  }
}
