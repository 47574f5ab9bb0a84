package dev.headroom.cli.sim;

import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.InputException;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.sim.importer.ClusterImport;
import dev.headroom.sim.scenario.ScenarioException;
import dev.headroom.sim.scenario.ScenarioParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code headroom scenario ...}: scenario files from what a user already has. */
@Command(name = ScenarioCommand.NAME, mixinStandardHelpOptions = true,
    description = "Scenario files from what you already have.",
    subcommands = {ScenarioCommand.Import.class})
public final class ScenarioCommand implements Runnable {

  /** The command name. */
  public static final String NAME = "scenario";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code headroom scenario import -f dump.yaml}. */
  @Command(name = Import.NAME, mixinStandardHelpOptions = true,
      description = {
        "Turns a cluster as it is into a scenario: the output of"
            + " `kubectl get nodes,deployments,statefulsets,hpa,pdb,capacitybuffers -A -o yaml`"
            + " (add scaledobjects.keda.sh if KEDA is installed).",
        "Node groups come from the nodes' node-group labels (EKS, GKE, AKS, Karpenter, kOps, Cluster API) or instance"
            + " type, zone and capacity type, with allocatable as observed; workloads keep their requests, replicas and"
            + " HorizontalPodAutoscaler (v2) or ScaledObject settings; the existing CapacityBuffers become one strategy.",
        "Prices, provisioning delays, group bounds and load cannot be read from a cluster: they are written with"
            + " defaults marked # PLACEHOLDER, and listed on standard error."})
  public static final class Import implements Callable<Integer> {

    /** The subcommand name. */
    public static final String NAME = "import";

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE",
        description = "The dump (repeatable); multi-document YAML or a v1 List.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "imported",
        description = "Scenario name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = {"-o", "--output-file"}, paramLabel = "FILE", description = "Write the scenario here (default: standard output).")
    Path output;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      List<ClusterImport.Source> sources = new ArrayList<>();
      YamlInputLoader loader = new YamlInputLoader();
      boolean bad = false;
      for (Path f : files) {
        try {
          // objects of kinds the import does not read are kept by name only, so that a dump of a large cluster's
          // pods is not held whole
          loader.read(f, d -> sources.add(new ClusterImport.Source(d.kind(),
              ClusterImport.READS.contains(d.kind()) ? d.raw() : nameOnly(d), d.position().file() + ":" + d.position().line())));
        } catch (InputException e) {
          err.println(e.getMessage());
          bad = true;
        }
      }
      if (bad) {
        return 1;
      }
      ClusterImport.Result r;
      try {
        r = ClusterImport.convert(name, String.join(", ", files.stream().map(Path::toString).toList()), sources);
      } catch (ClusterImport.ImportException e) {
        err.println(e.getMessage());
        return 1;
      }
      // the scenario must be one the simulator reads: parse it back before handing it out
      try {
        ScenarioParser.parse(output == null ? "<imported>" : output.toString(), r.yaml(),
            output == null ? null : output.toAbsolutePath().getParent());
      } catch (ScenarioException e) {
        err.println("headroom scenario import: the imported scenario does not parse: " + e.getMessage());
        return 1;
      }
      if (output == null) {
        out.print(r.yaml());
      } else {
        try {
          Files.writeString(output, r.yaml(), StandardCharsets.UTF_8);
        } catch (IOException e) {
          err.println("headroom scenario import: cannot write " + output + ": " + e.getMessage());
          return 1;
        }
        out.println("wrote " + output);
      }
      err.println("Placeholders (not in the cluster; defaults written, marked " + ClusterImport.PLACEHOLDER + "):");
      for (String p : r.placeholders()) {
        err.println("  " + p);
      }
      if (!r.notices().isEmpty()) {
        err.println("Left out:");
        for (String n : r.notices()) {
          err.println("  " + n);
        }
      }
      out.flush();
      err.flush();
      return 0;
    }

    /** An object of a kind the import does not read, with only what it reports of it (its kind and name). */
    private static java.util.Map<String, Object> nameOnly(InputDocument d) {
      java.util.Map<String, Object> metadata = new java.util.LinkedHashMap<>();
      if (d.raw().get("metadata") instanceof java.util.Map<?, ?> m && m.containsKey("name")) {
        metadata.put("name", m.get("name"));
      }
      java.util.Map<String, Object> raw = new java.util.LinkedHashMap<>();
      raw.put("apiVersion", d.raw().get("apiVersion"));
      raw.put("kind", d.raw().get("kind"));
      raw.put("metadata", metadata);
      return raw;
    }
  }
}
