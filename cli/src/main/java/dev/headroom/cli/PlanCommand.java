package dev.headroom.cli;

import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.expander.Expanders;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headroom plan -f FILE [-f FILE…] [-o json|text] [--expander NAME] [--now RFC3339]}: what one autoscaler
 * iteration would do to the cluster described by the files, without touching anything.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    modelTransformer = AutoscalerFlags.PlanFlags.class,
    description = {
        "Run one autoscaler iteration over YAML files (no cluster needed) and print the scale-up it would request, "
            + "where the pending pods and every buffer's virtual pods would go, which pods stay unschedulable and why, "
            + "and which nodes it would remove now.",
        "Reads headroom.dev/v1alpha1 NodeGroup documents, Nodes (a node belongs to the group named by its "
            + "headroom.dev/node-group label), Pods (bound or pending), PodDisruptionBudgets and everything "
            + "explain reads; buffers without a status are translated first, as explain shows them.",
        "A group whose targetSize exceeds its Ready nodes has the difference upcoming. A node counts as unneeded since its "
            + "headroom.dev/unneeded-since annotation, or else its creationTimestamp."})
public final class PlanCommand implements Callable<Integer> {

  /** Output formats. */
  enum Format { text, json }

  @Spec CommandSpec spec;

  @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE", description = "YAML file (repeatable); multi-document or a v1 List.")
  List<Path> files = new ArrayList<>();

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "text (default) or json.")
  Format output = Format.text;

  @Option(names = "--now", paramLabel = "RFC3339", description = "The loop time; default: the current time.")
  String now;

  @Option(names = dev.headroom.controller.Flags.INJECTION_ENABLED, arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "inject buffers' virtual pods, as run does (default: ${DEFAULT-VALUE})")
  boolean injectionEnabled;

  /**
   * The options of a whole plan, for an input beyond the estimate budget (see {@link Planner#plan(List,
   * AutoscalerOptions, AutoscalerOptions, Instant)}): every option of the pass ({@code salvo-scale-up}) and no
   * per-scale-up node cap, unless either flag was given; null when one was (the flags then decide alone).
   */
  private AutoscalerOptions wholePlan(AutoscalerOptions options) {
    picocli.CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    if (parsed.hasMatchedOption(AutoscalerFlags.flag(AutoscalerOptions.SALVO_SCALE_UP))
        || parsed.hasMatchedOption(AutoscalerFlags.flag(AutoscalerOptions.MAX_NODES_PER_SCALEUP))) {
      return null;
    }
    return options.toBuilder().set(AutoscalerOptions.SALVO_SCALE_UP, true)
        .set(AutoscalerOptions.MAX_NODES_PER_SCALEUP, Integer.MAX_VALUE).build();
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Instant at = NowOption.parse(now, spec.commandLine());
    try {
      Expanders.parse(AutoscalerFlags.text(spec, AutoscalerOptions.EXPANDER));
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), AutoscalerFlags.flag(AutoscalerOptions.EXPANDER) + ": " + e.getMessage());
    }
    YamlInputLoader loader = new YamlInputLoader();
    Optional<List<InputDocument>> loaded = InputChecks.load(files, loader, err);
    if (loaded.isEmpty()) {
      return 1;
    }
    List<InputDocument> documents = loaded.get();
    AutoscalerOptions options;
    try {
      options = AutoscalerFlags.apply(spec, AutoscalerFlags.PLAN, AutoscalerOptions.builder())
          .set(AutoscalerOptions.BUFFER_POD_INJECTION_ENABLED, injectionEnabled).build();
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Planner.Result result;
    try {
      result = new Planner(loader).plan(documents, options, wholePlan(options), at);
    } catch (RuntimeException e) {
      err.println("headroom plan: the input could not be planned: " + e.getMessage());
      err.flush();
      return 1;
    }
    result.diagnostics().forEach(err::println);
    err.flush();
    if (result.failed()) {
      return 1;
    }
    if (output == Format.json) {
      out.println(OutputSerialization.INSTANCE.asJson(PlanReport.tree(result.run().result(), result.provisioningRequests())));
    } else {
      out.print(PlanReport.text(result.run().result(), result.provisioningRequests()));
    }
    out.flush();
    return 0;
  }
}
