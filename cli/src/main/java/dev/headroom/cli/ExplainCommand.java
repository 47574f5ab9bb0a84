package dev.headroom.cli;

import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.core.buffer.BufferSettings;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
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
 * {@code headroom explain -f FILE [-f FILE…] [-o yaml|json] [--now RFC3339]}: shows the status the buffer controller
 * would write for every CapacityBuffer of the input, and the managed PodTemplates it would create.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
        "Run one buffer-controller reconcile over YAML files (no cluster needed) and print every CapacityBuffer "
            + "with the status the controller would write, followed by the managed PodTemplates it would create.",
        "Reads CapacityBuffer (v1beta1 or v1alpha1), PodTemplate, Deployment, ReplicaSet, StatefulSet, "
            + "ReplicationController, Job, Pod, ResourceQuota and Namespace; other kinds are ignored with a notice.",
        "Objects without a namespace are in 'default'. A ResourceQuota without status counts as status.hard = spec.hard "
            + "with nothing used. Buffers without creationTimestamp are ordered as they appear; so are Pods (later = newer)."})
public final class ExplainCommand implements Callable<Integer> {

  /** Output formats. */
  enum Format { yaml, json }

  @Spec CommandSpec spec;

  @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE", description = "YAML file (repeatable); multi-document or a v1 List.")
  List<Path> files = new ArrayList<>();

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "yaml (default) or json.")
  Format output = Format.yaml;

  @Option(names = "--now", paramLabel = "RFC3339", description = "The reconcile time (lastTransitionTime, schedules); default: the current time.")
  String now;

  @Option(names = "--standby-capacity", description = "Also process buffers of the buffer.headroom.dev/standby-capacity "
      + "strategy, as headroom run --standby-capacity does (default: false).")
  boolean standbyCapacity;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Instant at = NowOption.parse(now, spec.commandLine());
    YamlInputLoader loader = new YamlInputLoader();
    Optional<List<InputDocument>> loaded = InputChecks.load(files, loader, err);
    if (loaded.isEmpty()) {
      return 1;
    }
    List<InputDocument> documents = loaded.get();
    Explainer.Result result = new Explainer(BufferSettings.defaults().withStandbyCapacity(standbyCapacity)).explain(documents, at);
    result.diagnostics().forEach(err::println);
    err.flush();
    KubernetesSerialization serialization = OutputSerialization.INSTANCE;
    String text = output == Format.json ? serialization.asJson(result.output()) + System.lineSeparator() : OutputSerialization.yaml(result.output());
    out.print(text);
    out.flush();
    return result.failed() ? 1 : 0;
  }
}
