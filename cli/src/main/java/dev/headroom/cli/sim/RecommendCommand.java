package dev.headroom.cli.sim;

import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.BufferConsumption;
import dev.headroom.cli.OutputSerialization;
import dev.headroom.core.nodegroup.GoDuration;
import dev.headroom.sim.recommend.BufferSizeSearch;
import dev.headroom.cli.Terminal;
import dev.headroom.sim.recommend.HourlySchedule;
import dev.headroom.sim.report.ProgressBar;
import dev.headroom.sim.report.TextTable;
import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.ScenarioRunner;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.scenario.Scenario;
import dev.headroom.sim.scenario.ScenarioException;
import dev.headroom.sim.stats.Bootstrap;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code headroom recommend SCENARIO.yaml --slo-p99 5s}: searches CapacityBuffer sizes over several seeds for
 * the cheapest one whose p99 pod wait meets the SLO with the upper end of its interval, prints the curve of
 * p99 interval and cost against size, and, with {@code -o yaml}, the recommended CapacityBuffers.
 */
@Command(
    name = RecommendCommand.NAME,
    mixinStandardHelpOptions = true,
    description = "Searches CapacityBuffer sizes (percentage and/or replicas) on the scenario's autoscaled workloads"
        + " over several seeds and reports the cheapest one whose p99 pod wait meets the SLO with the upper end of"
        + " its bootstrap interval, with the curve of size against p99 and cost. -o yaml prints the buffers.")
public final class RecommendCommand implements Callable<Integer> {

  /** The command name. */
  public static final String NAME = "recommend";
  /** SLO option. */
  public static final String OPT_SLO = "--slo-p99";
  /** YAML output: the recommended CapacityBuffers. */
  public static final String FORMAT_YAML = "yaml";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO.yaml", description = "Scenario file (default: the built-in scenario).")
  Path scenarioFile;

  @Option(names = OPT_SLO, required = true, paramLabel = "DURATION", description = "Target p99 pod wait, e.g. 5s.")
  String slo;

  @Option(names = "--percentages", split = ",", paramLabel = "P",
      description = "Buffer percentages to try (default: 0,5,10,20,30,50,75,100; with --replicas only: none).")
  List<Integer> percentages;

  @Option(names = "--replicas", split = ",", paramLabel = "N", description = "Fixed buffer replica counts to try.")
  List<Integer> replicas;

  @Option(names = "--workload", split = ",", paramLabel = "NAME",
      description = "Workloads to buffer (default: every autoscaled workload).")
  List<String> workloads;

  @Option(names = "--seed", paramLabel = "N", description = "First seed (default: the scenario's seed).")
  Long seed;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "" + BufferSizeSearch.DEFAULT_SEEDS,
      description = "Seeds per size, pooled: the first seed, then the next ones (default: ${DEFAULT-VALUE}).")
  int seeds;

  @Option(names = "--threads", paramLabel = "N", description = "Runs in parallel (default: available processors).")
  Integer threads;

  @Option(names = "--by-hour", description = "Also propose a size per hour of day (UTC), as buffers with the"
      + " headroom.dev/active-schedule annotation, and the cost saved against the best constant size.")
  boolean byHour;

  @Option(names = "--calendar", paramLabel = "CALENDAR", defaultValue = "daily",
      description = "With --by-hour: daily (one size per hour, every day) or weekday-weekend (weekdays and weekends"
          + " apart; needs a scenario longer than 5 days) (default: ${DEFAULT-VALUE}).")
  String calendar;

  @Option(names = "--provisioning-strategy", paramLabel = "STRATEGY",
      description = "Strategy of the searched buffers: buffer.x-k8s.io/active-capacity (default) or"
          + " buffer.headroom.dev/standby-capacity (kept on suspended nodes of the scenario's groups with spec.standby;"
          + " docs/standby-capacity.md).")
  String provisioningStrategy;

  @Option(names = "--consumer-selector", paramLabel = "SELECTOR",
      description = "Search buffers that the matching pods consume (headroom.dev/consumer-selector): dedicated ones, or"
          + " one-shot with --refill-strategy none (docs/buffer-consumption.md).")
  String consumerSelector;

  @Option(names = "--refill-strategy", paramLabel = "recreate|none",
      description = "With --consumer-selector: recreate (default, a dedicated buffer) or none (a one-shot buffer).")
  String refillStrategy;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = SimulateCommand.FORMAT_TEXT,
      description = "Output format: text, json or yaml (the recommended CapacityBuffers) (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    Duration target;
    try {
      target = GoDuration.parse(slo.trim());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), OPT_SLO + ": " + e.getMessage());
    }
    if (!List.of(SimulateCommand.FORMAT_TEXT, SimulateCommand.FORMAT_JSON, FORMAT_YAML).contains(format)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "unknown output format \"" + format + "\" (use text, json or yaml)");
    }
    HourlySchedule.Calendar days;
    try {
      days = HourlySchedule.Calendar.of(calendar);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--calendar: " + e.getMessage());
    }
    if (days != HourlySchedule.Calendar.DAILY && !byHour) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--calendar needs --by-hour");
    }
    if (provisioningStrategy != null && !List.of(BufferConditions.STRATEGY_ACTIVE_CAPACITY,
        BufferConditions.STRATEGY_STANDBY_CAPACITY).contains(provisioningStrategy)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--provisioning-strategy: unknown strategy \""
          + provisioningStrategy + "\" (use " + BufferConditions.STRATEGY_ACTIVE_CAPACITY + " or "
          + BufferConditions.STRATEGY_STANDBY_CAPACITY + ")");
    }
    if (BufferConditions.STRATEGY_STANDBY_CAPACITY.equals(provisioningStrategy) && byHour) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--by-hour proposes active buffers with a schedule:"
          + " it does not take --provisioning-strategy " + provisioningStrategy);
    }
    java.util.Map<String, String> annotations = new java.util.TreeMap<>();
    if (consumerSelector != null) {
      annotations.put(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, consumerSelector);
    }
    if (refillStrategy != null) {
      annotations.put(BufferConsumption.ANNOTATION_REFILL_STRATEGY, refillStrategy);
    }
    if ((consumerSelector != null || refillStrategy != null) && byHour) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--by-hour proposes plain buffers with a schedule:"
          + " it does not take --consumer-selector or --refill-strategy");
    }
    dev.headroom.api.v1beta1.CapacityBuffer probe = new dev.headroom.api.v1beta1.CapacityBuffer();
    probe.getMetadata().setAnnotations(annotations);
    try {
      BufferConsumption.settings(probe);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "invalid consumption settings: " + e.getMessage());
    }
    if (seeds < 1 || (threads != null && threads < 1)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--seeds and --threads must be at least 1");
    }
    List<Integer> pct = percentages != null ? percentages
        : (replicas != null ? List.of() : BufferSizeSearch.DEFAULT_PERCENTAGES);
    List<Integer> reps = replicas == null ? List.of() : replicas;
    for (int v : pct) {
      if (v < 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--percentages must be >= 0");
      }
    }
    for (int v : reps) {
      if (v < 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--replicas must be >= 0");
      }
    }
    Scenario scenario;
    try {
      scenario = ScenarioInput.load(scenarioFile);
    } catch (ScenarioException e) {
      stderr.println(e.getMessage());
      return 1;
    }
    if (byHour) {
      try {
        days.check(scenario);
      } catch (IllegalArgumentException e) {
        stderr.println("headroom recommend: " + e.getMessage());
        return 1;
      }
    }
    ProgressBar bar = ScenarioInput.progressBar(Terminal.detect(), format, System.err, "searching buffer sizes");
    BufferSizeSearch.Result r;
    try {
      r = BufferSizeSearch.search(scenario, ScenarioRunner.seeds(seed == null ? scenario.seed() : seed, seeds), target,
          pct, reps, workloads == null ? List.of() : workloads,
          threads == null ? Runtime.getRuntime().availableProcessors() : threads, bar, provisioningStrategy, annotations);
    } catch (IllegalArgumentException e) {
      stderr.println("headroom recommend: " + e.getMessage());
      return 1;
    } finally {
      if (bar != null) {
        bar.finish();
      }
    }
    HourlySchedule.Result hourly = null;
    if (byHour) {
      if (r.recommended().isEmpty()) {
        stderr.println("headroom recommend: --by-hour: no constant size meets the SLO, so no schedule is searched");
      } else {
        try {
          hourly = HourlySchedule.search(scenario, r, days, threads == null ? Runtime.getRuntime().availableProcessors() : threads,
              null);
        } catch (IllegalArgumentException e) {
          stderr.println("headroom recommend: " + e.getMessage());
          return 1;
        }
      }
    }
    if (FORMAT_YAML.equals(format) && hourly != null) {
      if (!hourly.meetsSlo()) {
        stderr.println("headroom recommend: --by-hour: no schedule met the SLO in " + hourly.rounds() + " rounds");
        return 2;
      }
      stdout.print(hourlyYaml(r, hourly));
    } else if (FORMAT_YAML.equals(format)) {
      if (r.recommended().isEmpty()) {
        stderr.println("headroom recommend: no size tried meets the SLO; try larger --percentages or --replicas");
        return 2;
      }
      stdout.print(yaml(r));
    } else {
      stdout.print(SimulateCommand.FORMAT_JSON.equals(format) ? json(r) : text(r));
      if (hourly != null && SimulateCommand.FORMAT_TEXT.equals(format)) {
        stdout.print(hourlyText(r, hourly));
      }
    }
    stdout.flush();
    return r.recommended().isPresent() ? 0 : 2;
  }

  static String text(BufferSizeSearch.Result r) {
    StringBuilder b = new StringBuilder();
    b.append("Scenario ").append(r.scenario()).append(", ").append(TextTable.seeds(r.seeds())).append(": buffers on ")
        .append(String.join(", ", r.workloads())).append(", target p99 pod wait <= ").append(num(r.sloP99Seconds(), 1))
        .append("s\n");
    b.append("A size meets the target when the upper end of its p99 interval does (").append(TextTable.legend())
        .append(").\n\n");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"buffer", "pods", "p95 [95% CI]", "p99 [95% CI]", costLabel(r), "node-hours", "meets SLO"});
    for (BufferSizeSearch.Point p : r.curve()) {
      PooledResult s = p.pooled();
      rows.add(new String[] {p.name(), Integer.toString(s.pods()), interval(s.p95()), interval(s.p99()),
          num(p.cost(), 2), num(p.nodeHours(), 2), p.meetsSlo() ? "yes" : "no"});
    }
    int[] w = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        w[i] = Math.max(w[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        b.append(i == 0 ? row[i] + " ".repeat(w[i] - row[i].length()) : "  " + " ".repeat(w[i] - row[i].length()) + row[i]);
      }
      b.append('\n');
    }
    b.append('\n');
    if (r.recommended().isPresent()) {
      BufferSizeSearch.Point p = r.recommended().get();
      b.append("Recommended: ").append(p.name()).append(" (p99 ").append(secs(p.pooled().p99().value()))
          .append(", at most ").append(secs(p.pooled().p99().high())).append("; ").append(costLabel(r)).append(' ')
          .append(num(p.cost(), 2));
      baseline(r).ifPresent(base -> b.append(", ").append(change(p.cost(), base.cost())).append(" against ")
          .append(base.name()));
      b.append("). Print it as CapacityBuffers with -o yaml.\n");
    } else {
      b.append("No size tried meets the SLO; try larger --percentages or --replicas.\n");
    }
    return b.toString();
  }

  static String json(BufferSizeSearch.Result r) {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"scenario\": \"").append(r.scenario().replace("\\", "\\\\").replace("\"", "\\\"")).append("\",\n");
    b.append("  \"seed\": ").append(r.seeds().get(0)).append(",\n");
    b.append("  \"seeds\": ").append(r.seeds().size()).append(",\n");
    b.append("  \"sloP99\": ").append(num(r.sloP99Seconds(), 3)).append(",\n");
    b.append("  \"bootstrap\": {\"resamples\": ").append(Bootstrap.RESAMPLES).append(", \"confidence\": ")
        .append(num(Bootstrap.CONFIDENCE, 2)).append("},\n");
    b.append("  \"recommended\": ").append(r.recommended().map(p -> "\"" + p.name() + "\"").orElse("null")).append(",\n");
    b.append("  \"curve\": [");
    for (int i = 0; i < r.curve().size(); i++) {
      BufferSizeSearch.Point p = r.curve().get(i);
      PooledResult s = p.pooled();
      b.append(i == 0 ? "\n" : ",\n").append("    {\"name\": \"").append(p.name()).append("\", \"percentage\": ")
          .append(p.percentage()).append(", \"replicas\": ").append(p.replicas()).append(", \"pods\": ").append(s.pods())
          .append(", \"p95\": ").append(sec(s.p95().value())).append(", \"p99\": ").append(sec(s.p99().value()))
          .append(", \"p99Interval\": [").append(sec(s.p99().low())).append(", ").append(sec(s.p99().high()))
          .append("], \"cost\": ").append(num(p.cost(), 4)).append(", \"costRange\": [").append(num(s.costMin(), 4))
          .append(", ").append(num(s.costMax(), 4)).append("], \"nodeHours\": ").append(num(p.nodeHours(), 3))
          .append(", \"meetsSlo\": ").append(p.meetsSlo()).append('}');
    }
    b.append("\n  ]\n}\n");
    return b.toString();
  }

  /** The recommended CapacityBuffers as YAML documents, with a comment saying what they were chosen for. */
  static String yaml(BufferSizeSearch.Result r) {
    BufferSizeSearch.Point p = r.recommended().orElseThrow();
    StringBuilder b = new StringBuilder();
    b.append("# headroom recommend: ").append(p.name()).append(" on scenario ").append(r.scenario()).append(", ")
        .append(TextTable.seeds(r.seeds())).append(": p99 pod wait ").append(secs(p.pooled().p99().value()))
        .append(", at most ").append(secs(p.pooled().p99().high())).append(" (target ").append(num(r.sloP99Seconds(), 1))
        .append("s), ").append(costLabel(r)).append(' ').append(num(p.cost(), 2)).append(" per run\n");
    for (var buffer : BufferSizeSearch.buffers(r, p)) {
      String doc = OutputSerialization.yaml(buffer);
      b.append(doc.startsWith("---") ? doc : "---\n" + doc);
      if (!doc.endsWith("\n")) {
        b.append('\n');
      }
    }
    return b.toString();
  }

  static String hourlyText(BufferSizeSearch.Result r, HourlySchedule.Result h) {
    StringBuilder b = new StringBuilder(h.calendar() == HourlySchedule.Calendar.DAILY ? "\nBy hour of day (UTC):\n"
        : "\nBy hour of day, weekdays and weekends apart (UTC):\n");
    for (Map.Entry<Integer, String> e : HourlySchedule.windows(h.calendar(), h.sizes()).entrySet()) {
      b.append("  ").append(e.getKey()).append("%  ").append(e.getValue()).append('\n');
    }
    if (java.util.Arrays.stream(h.sizes()).anyMatch(x -> x == 0)) {
      b.append("  no buffer in the other hours\n");
    }
    PooledResult s = h.schedule().pooled();
    BufferSizeSearch.Point best = r.recommended().orElseThrow();
    b.append("Schedule simulated as a whole (").append(h.rounds()).append(h.rounds() == 1 ? " round" : " rounds")
        .append("): p99 ").append(interval(s.p99())).append(", ").append(costLabel(r)).append(' ')
        .append(num(h.schedule().cost(), 2)).append(h.meetsSlo() ? ", meets the SLO" : ", misses the SLO").append('\n');
    double saved = best.cost() - h.schedule().cost();
    b.append(h.meetsSlo() ? "Saves " : "Would save ").append(num(saved, 2)).append(" (").append(change(h.schedule().cost(), best.cost()))
        .append(") against ").append(best.name()).append(", the best constant size at the same SLO.");
    b.append(h.meetsSlo() ? " Print the scheduled buffers with -o yaml.\n" : "\n");
    return b.toString();
  }

  static String hourlyYaml(BufferSizeSearch.Result r, HourlySchedule.Result h) {
    BufferSizeSearch.Point best = r.recommended().orElseThrow();
    StringBuilder b = new StringBuilder();
    b.append("# headroom recommend --by-hour on scenario ").append(r.scenario()).append(", ").append(TextTable.seeds(r.seeds()))
        .append(": p99 pod wait ").append(secs(h.schedule().pooled().p99().value())).append(", at most ")
        .append(secs(h.schedule().pooled().p99().high())).append(" (target ").append(num(r.sloP99Seconds(), 1)).append("s), ")
        .append(costLabel(r)).append(' ').append(num(h.schedule().cost(), 2)).append(" per run, ")
        .append(change(h.schedule().cost(), best.cost())).append(" against ").append(best.name()).append('\n');
    for (var buffer : HourlySchedule.buffers(r.targets(), h.calendar(), h.sizes())) {
      String doc = OutputSerialization.yaml(buffer);
      b.append(doc.startsWith("---") ? doc : "---\n" + doc);
      if (!doc.endsWith("\n")) {
        b.append('\n');
      }
    }
    return b.toString();
  }

  private static Optional<BufferSizeSearch.Point> baseline(BufferSizeSearch.Result r) {
    return r.curve().stream().filter(p -> p.percentage() != null && p.percentage() == 0 && p.replicas() == null
        || p.replicas() != null && p.replicas() == 0 && p.percentage() == null).findFirst();
  }

  private static String costLabel(BufferSizeSearch.Result r) {
    return SimulationReport.costLabel(r.currency());
  }

  private static String change(double v, double base) {
    if (base == 0) {
      return "+0 %";
    }
    long p = Math.round((v / base - 1) * 100);
    return (p >= 0 ? "+" : "") + p + " %";
  }

  private static String interval(Bootstrap.Estimate e) {
    return secs(e.value()) + " [" + num(e.low() / 1000.0, 1) + "-" + num(e.high() / 1000.0, 1) + "]";
  }

  private static String secs(long millis) {
    return num(millis / 1000.0, 1) + "s";
  }

  private static String sec(long millis) {
    return BigDecimal.valueOf(millis).movePointLeft(3).stripTrailingZeros().toPlainString();
  }

  private static String num(double v, int scale) {
    return BigDecimal.valueOf(v).setScale(scale, RoundingMode.HALF_UP).toPlainString();
  }
}
