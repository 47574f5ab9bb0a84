package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code headroom demo queue-vs-cpu}: the seed's tables, exactly, in text and JSON. */
class DemoCommandTest {

  /** The seed's tables (t = 0..33) and summary, as the command prints them with the defaults. */
  static final String EXPECTED_TEXT = """
Arrivals 20 per tick, 200 per tick from t=5; one replica serves 10 per tick.

CPU utilisation target 50% (saturates at 100%)
 t  arrivals  replicas  processed  CPU %  queue
 0        20         4         20     50      0
 1        20         4         20     50      0
 2        20         4         20     50      0
 3        20         4         20     50      0
 4        20         4         20     50      0
 5       200         4         40    100    160
 6       200         8         80    100    280
 7       200        16        160    100    320
 8       200        32        320    100    200
 9       200        64        400     62      0
10       200        80        200     25      0
11       200        40        200     50      0
12       200        40        200     50      0
13       200        40        200     50      0
14       200        40        200     50      0
15       200        40        200     50      0
16       200        40        200     50      0
17       200        40        200     50      0
18       200        40        200     50      0
19       200        40        200     50      0
20       200        40        200     50      0
21       200        40        200     50      0
22       200        40        200     50      0
23       200        40        200     50      0
24       200        40        200     50      0
25       200        40        200     50      0
26       200        40        200     50      0
27       200        40        200     50      0
28       200        40        200     50      0
29       200        40        200     50      0
30       200        40        200     50      0
31       200        40        200     50      0
32       200        40        200     50      0
33       200        40        200     50      0

Queue target 10 per replica (unbounded)
 t  arrivals  replicas  processed  CPU %  queue
 0        20         2         20    100     20
 1        20         2         20    100     20
 2        20         2         20    100     20
 3        20         2         20    100     20
 4        20         2         20    100     20
 5       200         2         20    100    200
 6       200        20        200    100    200
 7       200        20        200    100    200
 8       200        20        200    100    200
 9       200        20        200    100    200
10       200        20        200    100    200
11       200        20        200    100    200
12       200        20        200    100    200
13       200        20        200    100    200
14       200        20        200    100    200
15       200        20        200    100    200
16       200        20        200    100    200
17       200        20        200    100    200
18       200        20        200    100    200
19       200        20        200    100    200
20       200        20        200    100    200
21       200        20        200    100    200
22       200        20        200    100    200
23       200        20        200    100    200
24       200        20        200    100    200
25       200        20        200    100    200
26       200        20        200    100    200
27       200        20        200    100    200
28       200        20        200    100    200
29       200        20        200    100    200
30       200        20        200    100    200
31       200        20        200    100    200
32       200        20        200    100    200
33       200        20        200    100    200

summary: catch-up t=8 (cpu) vs t=6 (queue); peak queue 320 vs 200; final cpu 40 replicas / queue 0, queue 20 replicas / queue 200
""";

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.newCommandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void printsTheSeedTablesExactly() {
    Run r = run("demo", "queue-vs-cpu");
    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(EXPECTED_TEXT);
  }

  @Test
  void summaryLineNamesCatchUpPeakAndSteadyState() {
    String out = run("demo", "queue-vs-cpu").out();
    String summary = out.lines().filter(l -> l.startsWith("summary:")).findFirst().orElseThrow();
    assertThat(summary).isEqualTo("summary: catch-up t=8 (cpu) vs t=6 (queue); peak queue 320 vs 200;"
        + " final cpu 40 replicas / queue 0, queue 20 replicas / queue 200");
  }

  @Test
  void jsonHasTheRowsUnroundedAndTheSummary() {
    Run r = run("demo", "queue-vs-cpu", "-o", "json");
    assertThat(r.code()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(r.out());
    assertThat(names(root)).containsExactly("cpu", "queue", "summary");
    JsonNode cpu = root.get("cpu");
    assertThat(cpu.size()).isEqualTo(34);
    assertThat(names(cpu.get(0))).containsExactly("t", "arrivals", "replicas", "processed", "utilization", "queue");
    JsonNode t9 = cpu.get(9);
    assertThat(t9.get("t").asInt()).isEqualTo(9);
    assertThat(t9.get("replicas").asInt()).isEqualTo(64);
    assertThat(t9.get("processed").asLong()).isEqualTo(400);
    assertThat(t9.get("utilization").asDouble()).isEqualTo(62.5);
    assertThat(t9.get("queue").asLong()).isZero();
    // Every row equals the text table (utilisation floored there).
    List<String> textRows = EXPECTED_TEXT.lines().filter(l -> l.matches("\\s*\\d+(\\s+\\d+){5}")).toList();
    assertThat(textRows).hasSize(68);
    for (int i = 0; i < 68; i++) {
      JsonNode row = i < 34 ? cpu.get(i) : root.get("queue").get(i - 34);
      String expected = textRows.get(i).strip().replaceAll("\\s+", " ");
      String actual = row.get("t").asInt() + " " + row.get("arrivals").asLong() + " " + row.get("replicas").asInt()
          + " " + row.get("processed").asLong() + " " + (long) Math.floor(row.get("utilization").asDouble()) + " "
          + row.get("queue").asLong();
      assertThat(actual).isEqualTo(expected);
    }
    JsonNode summary = root.get("summary");
    assertThat(summary.get("cpu").toString())
        .isEqualTo("{\"catchUpTick\":8,\"peakQueue\":320,\"finalReplicas\":40,\"finalQueue\":0}");
    assertThat(summary.get("queue").toString())
        .isEqualTo("{\"catchUpTick\":6,\"peakQueue\":200,\"finalReplicas\":20,\"finalQueue\":200}");
    assertThat(run("demo", "queue-vs-cpu", "-o", "json").out()).isEqualTo(r.out());
  }

  @Test
  void allowZeroDropsTheQueueSideAfterArrivalsStop() {
    Run r = run("demo", "queue-vs-cpu", "--allow-zero", "--cooldown", "2", "--stop-at", "15", "-o", "json");
    assertThat(r.code()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(r.out());
    JsonNode queue = root.get("queue");
    assertThat(queue.get(15).get("arrivals").asLong()).isZero();
    // t=16..17 hold one replica (cooldown 2), t=18 drops to zero and stays there.
    assertThat(queue.get(16).get("replicas").asInt()).isEqualTo(1);
    assertThat(queue.get(17).get("replicas").asInt()).isEqualTo(1);
    assertThat(queue.get(18).get("replicas").asInt()).isZero();
    assertThat(queue.get(33).get("replicas").asInt()).isZero();
    assertThat(root.get("cpu").get(33).get("replicas").asInt()).isEqualTo(1);
    assertThat(root.get("summary").get("queue").get("finalReplicas").asInt()).isZero();
  }

  @Test
  void optionsChangeTheLoad() {
    Run r = run("demo", "queue-vs-cpu", "--arrivals-before", "10", "--arrivals-after", "100", "--jump-at", "2",
        "--capacity", "5", "--cpu-target", "80", "--queue-target", "4", "--ticks", "6", "--max", "0");
    assertThat(r.code()).isZero();
    assertThat(r.out()).startsWith("Arrivals 10 per tick, 100 per tick from t=2; one replica serves 5 per tick.");
    assertThat(r.out()).contains("CPU utilisation target 80% (saturates at 100%)").contains("Queue target 4 per replica");
    // 6 rows per table plus headers.
    assertThat(r.out().lines().filter(l -> l.matches("\\s*5\\s+100.*"))).hasSize(2);
  }

  @Test
  void badInputIsAOneLineErrorWithExitCodeOne() {
    Run r = run("demo", "queue-vs-cpu", "--capacity", "0");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("headroom demo queue-vs-cpu: capacity per replica must be >= 1, got 0" + System.lineSeparator());
    Run f = run("demo", "queue-vs-cpu", "-o", "yaml");
    assertThat(f.code()).isEqualTo(1);
    assertThat(f.err()).contains("--output must be text or json");
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.propertyNames().forEach(out::add);
    return out;
  }
}
