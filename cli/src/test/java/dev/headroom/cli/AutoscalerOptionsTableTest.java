package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.AutoscalerOption;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.OptionType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The option table in {@code docs/options.md}, the flags of {@code run} and {@code plan} and the README's autoscaler
 * flag table against the one list, {@link AutoscalerOptions#ALL}. Refresh the generated page with
 * {@code ./mvnw -B -pl cli -am test -Dtest=AutoscalerOptionsTableTest -Dsurefire.failIfNoSpecifiedTests=false -Dheadroom.docs.update=true}.
 */
class AutoscalerOptionsTableTest {

  static final Path PAGE = Path.of("..", "docs", "options.md");
  static final Path README = Path.of("..", "README.md");

  @Test
  void theOptionPageIsGeneratedFromTheList() throws IOException {
    String expected = page();
    if (Boolean.getBoolean("headroom.docs.update")) {
      Files.writeString(PAGE, expected, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(PAGE, StandardCharsets.UTF_8))
        .as("docs/options.md is out of date; refresh it with -Dheadroom.docs.update=true (see this test's comment)")
        .isEqualTo(expected);
  }

  @Test
  void runAndPlanHaveOneFlagPerListedOptionWithItsTypeDefaultAndDescription() {
    checkFlags(Main.newCommandLine().getSubcommands().get("run").getCommandSpec(), AutoscalerFlags.RUN);
    checkFlags(Main.newCommandLine().getSubcommands().get("plan").getCommandSpec(), AutoscalerFlags.PLAN);
  }

  /**
   * The flags of {@code run} that {@code plan} has not, each with why: they reach a cluster or act on one, and one
   * dry-run iteration over files does neither.
   */
  static final Map<String, String> RUN_ONLY = Map.ofEntries(
      Map.entry("--kubeconfig", "plan reads files, not a cluster"),
      Map.entry("--concurrent-reconciles", "the buffer controller's workers in a cluster; plan runs one translation"),
      Map.entry("--namespace", "the files are the whole cluster"),
      Map.entry("--capacity-buffer-controller-enabled", "the buffer controller writes to a cluster; plan translates buffers as explain does"),
      Map.entry("--capacity-buffer-pod-dry-run-enabled", "a server dry-run create needs an API server"),
      Map.entry("--capacity-buffer-quota-count-pods", "a buffer controller setting (explain's translation), not an autoscaler option"),
      Map.entry("--leader-elect", "leader election is a Lease in a cluster"),
      Map.entry("--leader-elect-resource-namespace", "leader election"),
      Map.entry("--leader-elect-lease-namespace", "leader election (deprecated alias)"),
      Map.entry("--leader-elect-resource-name", "leader election"),
      Map.entry("--leader-elect-lease-name", "leader election (deprecated alias)"),
      Map.entry("--leader-elect-identity", "leader election"),
      Map.entry("--http-port", "plan serves no health or metrics endpoint"),
      Map.entry("--metrics-secure", "plan serves no metrics endpoint"),
      Map.entry("--metrics-port", "plan serves no metrics endpoint"),
      Map.entry("--metrics-cert-file", "plan serves no metrics endpoint"),
      Map.entry("--metrics-key-file", "plan serves no metrics endpoint"),
      Map.entry("--log-format", "plan prints a report, not log lines"),
      Map.entry("--log-level", "plan prints a report, not log lines"),
      Map.entry("--resync-period", "informers of a cluster"),
      Map.entry("--cloud-provider", "plan's node provider is the NodeGroup documents of its files"),
      Map.entry("--node-groups", "plan reads NodeGroup documents from its -f files"),
      Map.entry("--node-group-auto-discovery", "discovers Cluster API objects in a cluster"),
      Map.entry("--node-delete-delay-after-taint", "deleting nodes: plan removes none"),
      Map.entry("--max-graceful-termination-sec", "evicting pods: plan evicts none"));

  /** The flags of {@code plan} that {@code run} has not: its input, output and loop time. */
  static final Set<String> PLAN_ONLY = Set.of("-f", "--filename", "-o", "--output", "--now");

  /** Every flag of {@code run} is a flag of {@code plan} but the cluster-only ones ({@link #RUN_ONLY}), and back. */
  @Test
  void planTakesEveryAutoscalerFlagOfRun() {
    Set<String> run = names(Main.newCommandLine().getSubcommands().get("run").getCommandSpec());
    Set<String> plan = names(Main.newCommandLine().getSubcommands().get("plan").getCommandSpec());
    assertThat(run).as("RUN_ONLY names flags of run").containsAll(RUN_ONLY.keySet());
    run.removeAll(RUN_ONLY.keySet());
    plan.removeAll(PLAN_ONLY);
    assertThat(plan).isEqualTo(run);
    assertThat(AutoscalerFlags.PLAN).isEqualTo(AutoscalerFlags.RUN);
  }

  private static Set<String> names(CommandSpec command) {
    Set<String> out = new TreeSet<>();
    for (OptionSpec o : command.options()) {
      out.addAll(List.of(o.names()));
    }
    return out;
  }

  @Test
  void planFlagsReachTheOptions() {
    PlanCommand cmd = new PlanCommand();
    CommandLine line = new CommandLine(cmd);
    line.parseArgs("-f", "x.yaml", "--salvo-scale-up", "--provisioning-pass=false", "--max-nodes-per-scaleup=7",
        "--scan-interval=1m", "--capacity-buffer-pod-injection-enabled=false");
    AutoscalerOptions o = AutoscalerFlags.apply(cmd.spec, AutoscalerFlags.PLAN, AutoscalerOptions.builder()).build();
    assertThat(o.salvoScaleUp()).isTrue();
    assertThat(o.provisioningPass()).isFalse();
    assertThat(o.maxNodesPerScaleUp()).isEqualTo(7);
    assertThat(cmd.injectionEnabled).isFalse();
  }

  @Test
  void flagsReachTheOptionsAndBadValuesNameTheFlag() {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--cloud-provider=kwok", "--scale-down-gpu-utilization-threshold=0.75",
        "--scale-down-non-empty-candidates-count", "5", "--provisioning-pass=false", "--skip-nodes-with-system-pods=false");
    AutoscalerOptions o = cmd.autoscalerFlags.settings(true, "x").options();
    assertThat(o.scaleDownGpuUtilizationThreshold()).isEqualTo(0.75);
    assertThat(o.scaleDownNonEmptyCandidatesCount()).isEqualTo(5);
    assertThat(o.provisioningPass()).isFalse();
    assertThat(o.skipNodesWithSystemPods()).isFalse();
    assertThat(o.toBuilder().set(AutoscalerOptions.SCALE_DOWN_GPU_UTILIZATION_THRESHOLD, 0.5)
        .set(AutoscalerOptions.SCALE_DOWN_NON_EMPTY_CANDIDATES_COUNT, 30).set(AutoscalerOptions.PROVISIONING_PASS, true)
        .set(AutoscalerOptions.SKIP_NODES_WITH_SYSTEM_PODS, true).build()).isEqualTo(AutoscalerOptions.DEFAULTS);

    RunCommand bad = new RunCommand();
    new CommandLine(bad).parseArgs("--cloud-provider=kwok", "--max-drain-parallelism=two");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> bad.autoscalerFlags.settings(true, "x"))
        .hasMessageStartingWith("invalid value \"two\" for --max-drain-parallelism: expected an integer");
  }

  /** Every row of the README's autoscaler flag table that names an option gives that option's default (as a value). */
  @Test
  void theReadmeFlagTableAgreesWithTheList() throws IOException {
    Map<String, String> readme = readmeDefaults();
    for (AutoscalerOption<?> o : AutoscalerFlags.RUN) {
      assertThat(readme).as("README.md's flag table lists --" + o.key()).containsKey(o.key());
    }
    readme.forEach((key, text) -> AutoscalerOptions.named(key).filter(o -> o.key().equals(key)).ifPresent(o ->
        assertThat((Object) o.type().parse(text)).as("README.md's default of --" + key).isEqualTo(o.defaultValue())));
  }

  private static void checkFlags(CommandSpec command, List<AutoscalerOption<?>> options) {
    for (AutoscalerOption<?> o : options) {
      OptionSpec flag = command.findOption("--" + o.key());
      assertThat(flag).as(command.name() + " --" + o.key()).isNotNull();
      assertThat(flag.defaultValue()).isEqualTo(o.defaultText());
      assertThat(flag.paramLabel()).isEqualTo(o.type().label());
      assertThat(flag.description()[0]).startsWith(o.description());
      assertThat(flag.type()).isEqualTo(o.type() == OptionType.BOOLEAN ? boolean.class : String.class);
    }
  }

  /** README rows {@code | `--a` / `--b` | `x` / `y` | … |}: flag key → default text ("none" is empty). */
  private static Map<String, String> readmeDefaults() throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Pattern tick = Pattern.compile("`([^`]*)`");
    for (String line : Files.readAllLines(README, StandardCharsets.UTF_8)) {
      if (!line.startsWith("| `--")) {
        continue;
      }
      String[] cells = line.split("\\|");
      List<String> flags = ticks(tick, cells[1]);
      List<String> defaults = ticks(tick, cells[2]);
      if (defaults.isEmpty()) {
        defaults = List.of(cells[2].trim().equals("none") ? "" : cells[2].trim());
      }
      if (flags.size() != defaults.size()) {
        continue;
      }
      for (int i = 0; i < flags.size(); i++) {
        out.put(flags.get(i).substring(2).split("[ =]")[0], defaults.get(i));
      }
    }
    return out;
  }

  private static List<String> ticks(Pattern tick, String cell) {
    List<String> out = new ArrayList<>();
    Matcher m = tick.matcher(cell);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  static String page() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Autoscaler options\n\n");
    sb.append("<!-- Generated from dev.headroom.core.autoscaler.AutoscalerOptions.ALL by AutoscalerOptionsTableTest (cli); "
        + "do not edit by hand. -->\n\n");
    sb.append("Every option of the autoscaler core, in one list (`AutoscalerOptions`). The key is the flag name where a "
        + "command has the flag (the upstream Cluster Autoscaler's spelling where it has the flag); a scenario's "
        + "`spec.autoscaler` takes the camelCase name or the key. Durations are Go durations (`10s`, `1h30m`).\n\n");
    sb.append("| Key | Scenario key | Type | Default | Flag of | Meaning |\n");
    sb.append("|---|---|---|---|---|---|\n");
    for (AutoscalerOption<?> o : AutoscalerOptions.ALL) {
      List<String> commands = new ArrayList<>();
      if (AutoscalerFlags.RUN.contains(o)) {
        commands.add("`run`");
      }
      if (AutoscalerFlags.PLAN.contains(o)) {
        commands.add("`plan`");
      }
      String def = o.type().textual() ? (o.defaultText().isEmpty() ? "none" : "`" + o.defaultText() + "`") : "none";
      sb.append("| `").append(o.key()).append("` | `").append(o.name()).append("` | ")
          .append(o.type().textual() ? o.type().name() : o.type().name() + " (code only)").append(" | ")
          .append(def).append(" | ").append(commands.isEmpty() ? "—" : String.join(", ", commands)).append(" | ")
          .append(o.description()).append(" |\n");
    }
    return sb.toString();
  }
}
