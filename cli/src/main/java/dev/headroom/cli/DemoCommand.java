package dev.headroom.cli;

import dev.headroom.core.workload.QueueVsCpuDemo;
import dev.headroom.core.workload.TickRow;
import dev.headroom.core.workload.TickRun;
import dev.headroom.core.workload.TickSummary;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code headroom demo …}: small, self-contained demonstrations of Headroom's decisions. */
@Command(
    name = DemoCommand.NAME,
    mixinStandardHelpOptions = true,
    description = "Self-contained demonstrations of Headroom's decisions.",
    subcommands = {DemoCommand.QueueVsCpu.class})
public final class DemoCommand implements Runnable {

  /** The command name. */
  public static final String NAME = "demo";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * {@code headroom demo queue-vs-cpu}: the same load spike against a CPU-utilisation target and a
   * queue-per-replica target, tick by tick (the seed's tick model).
   */
  @Command(
      name = QueueVsCpu.NAME,
      mixinStandardHelpOptions = true,
      description = {
        "Runs one load spike against a CPU-utilisation target (saturates at 100%%) and a queue-per-replica target"
            + " (unbounded), and prints what each does tick by tick.",
        "CPU can only double per tick while it reads 100%%; the queue target jumps to the needed count at once."
      })
  public static final class QueueVsCpu implements Callable<Integer> {

    /** The subcommand name. */
    public static final String NAME = "queue-vs-cpu";
    /** Output format flag. */
    public static final String OPT_OUTPUT = "--output";
    /** Text output. */
    public static final String FORMAT_TEXT = "text";
    /** JSON output. */
    public static final String FORMAT_JSON = "json";

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--arrivals-before", paramLabel = "N", description = "Items arriving per tick before the jump (default: ${DEFAULT-VALUE}).")
    long before = QueueVsCpuDemo.Parameters.defaults().before();

    @Option(names = "--arrivals-after", paramLabel = "N", description = "Items arriving per tick from the jump on (default: ${DEFAULT-VALUE}).")
    long after = QueueVsCpuDemo.Parameters.defaults().after();

    @Option(names = "--jump-at", paramLabel = "TICK", description = "Tick at which arrivals jump (default: ${DEFAULT-VALUE}).")
    int jumpAt = QueueVsCpuDemo.Parameters.defaults().jumpTick();

    @Option(names = "--capacity", paramLabel = "N", description = "Items one replica serves per tick (default: ${DEFAULT-VALUE}).")
    long capacity = QueueVsCpuDemo.Parameters.defaults().capacity();

    @Option(names = "--cpu-target", paramLabel = "PERCENT", description = "CPU utilisation target (default: ${DEFAULT-VALUE}).")
    double cpuTarget = QueueVsCpuDemo.Parameters.defaults().cpuTarget();

    @Option(names = "--queue-target", paramLabel = "N", description = "Queued items each replica may have waiting (default: ${DEFAULT-VALUE}).")
    double queueTarget = QueueVsCpuDemo.Parameters.defaults().queueTarget();

    @Option(names = "--max", paramLabel = "N", description = "Replica ceiling of both workloads, 0 = unbounded (default: ${DEFAULT-VALUE}).")
    int max = QueueVsCpuDemo.Parameters.defaults().max();

    @Option(names = "--ticks", paramLabel = "N", description = "Number of ticks to run (default: ${DEFAULT-VALUE}).")
    int ticks = QueueVsCpuDemo.Parameters.defaults().ticks();

    @Option(
        names = "--allow-zero",
        description = "Let the queue workload scale to zero (min 0, activation, cooldown); arrivals stop at --stop-at"
            + " (default " + QueueVsCpuDemo.DEFAULT_STOP_TICK_WITH_ZERO + "). The CPU workload keeps min 1.")
    boolean allowZero;

    @Option(names = "--activation", paramLabel = "N", description = "With --allow-zero: queue length that wakes the workload, strictly above (default: ${DEFAULT-VALUE}).")
    double activation = QueueVsCpuDemo.Parameters.defaults().activation();

    @Option(names = "--cooldown", paramLabel = "N", description = "With --allow-zero: idle decisions before dropping to zero (default: ${DEFAULT-VALUE}).")
    int cooldown = QueueVsCpuDemo.Parameters.defaults().cooldown();

    @Option(names = "--stop-at", paramLabel = "TICK", description = "Tick from which no more items arrive.")
    Integer stopAt;

    @Option(names = {"-o", OPT_OUTPUT}, paramLabel = "FORMAT", description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
    String output = FORMAT_TEXT;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      if (!FORMAT_TEXT.equals(output) && !FORMAT_JSON.equals(output)) {
        err.println("headroom demo " + NAME + ": " + OPT_OUTPUT + " must be " + FORMAT_TEXT + " or " + FORMAT_JSON + ", got '" + output + "'");
        return 1;
      }
      QueueVsCpuDemo.Parameters parameters;
      QueueVsCpuDemo.Result result;
      try {
        parameters =
            new QueueVsCpuDemo.Parameters(
                before, after, jumpAt, capacity, cpuTarget, queueTarget, max, ticks, allowZero, activation, cooldown,
                stopAt == null ? OptionalInt.empty() : OptionalInt.of(stopAt));
        result = QueueVsCpuDemo.run(parameters);
      } catch (IllegalArgumentException e) {
        err.println("headroom demo " + NAME + ": " + e.getMessage());
        return 1;
      }
      out.print(FORMAT_JSON.equals(output) ? json(result) : text(parameters, result));
      out.flush();
      return 0;
    }

    /** The text rendering: the load, both tables, and the summary line. */
    static String text(QueueVsCpuDemo.Parameters o, QueueVsCpuDemo.Result r) {
      StringBuilder sb = new StringBuilder();
      sb.append("Arrivals ").append(o.before()).append(" per tick, ").append(o.after()).append(" per tick from t=").append(o.jumpTick());
      OptionalInt stop = o.arrivals().stopTick();
      if (stop.isPresent()) {
        sb.append(", none from t=").append(stop.getAsInt());
      }
      sb.append("; one replica serves ").append(o.capacity()).append(" per tick.\n\n");
      sb.append("CPU utilisation target ").append(number(o.cpuTarget())).append("% (saturates at 100%)\n");
      table(sb, r.cpu());
      sb.append('\n');
      sb.append("Queue target ").append(number(o.queueTarget())).append(" per replica (unbounded)");
      if (o.allowZero()) {
        sb.append(", min 0, activation ").append(number(o.activation())).append(", cooldown ").append(o.cooldown());
      }
      sb.append('\n');
      table(sb, r.queue());
      sb.append('\n');
      sb.append(summaryLine(r)).append('\n');
      return sb.toString();
    }

    /** The summary line: catch-up tick, peak queue and final state of each workload. */
    static String summaryLine(QueueVsCpuDemo.Result r) {
      TickSummary c = r.cpu().summary();
      TickSummary q = r.queue().summary();
      return "summary: catch-up t=" + tick(c.catchUpTick()) + " (cpu) vs t=" + tick(q.catchUpTick()) + " (queue);"
          + " peak queue " + c.peakQueue() + " vs " + q.peakQueue() + ";"
          + " final cpu " + replicas(c.finalReplicas()) + " / queue " + c.finalQueue()
          + ", queue " + replicas(q.finalReplicas()) + " / queue " + q.finalQueue();
    }

    private static String replicas(int n) {
      return n + (n == 1 ? " replica" : " replicas");
    }

    private static String tick(OptionalInt t) {
      return t.isPresent() ? Integer.toString(t.getAsInt()) : "never";
    }

    private static final String[] HEADERS = {"t", "arrivals", "replicas", "processed", "CPU %", "queue"};

    private static void table(StringBuilder sb, TickRun run) {
      List<String[]> cells = new ArrayList<>();
      cells.add(HEADERS);
      for (TickRow row : run.rows()) {
        cells.add(
            new String[] {
              Integer.toString(row.t()),
              Long.toString(row.arrivals()),
              Integer.toString(row.replicas()),
              Long.toString(row.processed()),
              Long.toString(row.utilizationFloor()),
              Long.toString(row.queue())
            });
      }
      int[] width = new int[HEADERS.length];
      for (String[] line : cells) {
        for (int i = 0; i < line.length; i++) {
          width[i] = Math.max(width[i], line[i].length());
        }
      }
      for (String[] line : cells) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < line.length; i++) {
          if (i > 0) {
            l.append("  ");
          }
          l.append(" ".repeat(width[i] - line[i].length())).append(line[i]);
        }
        sb.append(l).append('\n');
      }
    }

    /** The JSON rendering: {@code {"cpu": [ROW…], "queue": [ROW…], "summary": {…}}}. */
    static String json(QueueVsCpuDemo.Result r) {
      JsonMapper mapper = JsonMapper.builder().build();
      ObjectNode root = mapper.createObjectNode();
      root.set(QueueVsCpuDemo.CPU, rows(mapper, r.cpu()));
      root.set(QueueVsCpuDemo.QUEUE, rows(mapper, r.queue()));
      ObjectNode summary = root.putObject("summary");
      summary.set(QueueVsCpuDemo.CPU, summary(mapper, r.cpu().summary()));
      summary.set(QueueVsCpuDemo.QUEUE, summary(mapper, r.queue().summary()));
      return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    private static ArrayNode rows(JsonMapper mapper, TickRun run) {
      ArrayNode a = mapper.createArrayNode();
      for (TickRow row : run.rows()) {
        ObjectNode n = a.addObject();
        n.put("t", row.t());
        n.put("arrivals", row.arrivals());
        n.put("replicas", row.replicas());
        n.put("processed", row.processed());
        n.put("utilization", row.utilization());
        n.put("queue", row.queue());
      }
      return a;
    }

    private static ObjectNode summary(JsonMapper mapper, TickSummary s) {
      ObjectNode n = mapper.createObjectNode();
      if (s.catchUpTick().isPresent()) {
        n.put("catchUpTick", s.catchUpTick().getAsInt());
      } else {
        n.putNull("catchUpTick");
      }
      n.put("peakQueue", s.peakQueue());
      n.put("finalReplicas", s.finalReplicas());
      n.put("finalQueue", s.finalQueue());
      return n;
    }

    private static String number(double d) {
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
  }
}
