package dev.headroom.cli;

import dev.headroom.bench.DiverseWorkload;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupDocument;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@code headroom plan} input of Karpenter's benchmark workload ({@code bench karpenter-diverse
 * --write-plan-input FILE}): one {@code NodeGroup} document per group of {@link DiverseWorkload#nodeGroups} (types ×
 * 5 offerings, at size 0) and the seeded diverse pending pods of {@link DiverseWorkload#pods}, the same objects the
 * benchmark builds in memory, so that {@code plan} can be timed on them as a user runs it.
 */
final class PlanInputWriter {

  private PlanInputWriter() {}

  /** Writes {@code types} × 5 node groups and {@code pods} pods (seed {@code seed}) to {@code file}. */
  static void write(Path file, int types, int pods, long seed) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("# headroom bench karpenter-diverse --write-plan-input: " + types + " instance types x "
          + DiverseWorkload.offerings() + " offerings, " + pods + " diverse pending pods (seed " + seed + ")\n");
      for (NodeGroup g : DiverseWorkload.nodeGroups(types)) {
        document(w, OutputSerialization.INSTANCE.asYaml(nodeGroup(g)));
      }
      for (Pod p : DiverseWorkload.pods(pods, seed)) {
        document(w, OutputSerialization.INSTANCE.asYaml(p));
      }
    }
  }

  private static void document(Writer w, String yaml) throws IOException {
    if (!yaml.startsWith("---")) {
      w.write("---\n");
    }
    w.write(yaml);
    if (!yaml.endsWith("\n")) {
      w.write("\n");
    }
  }

  /** The {@code headroom.dev/v1alpha1 NodeGroup} document of a group (its template's labels, capacity, allocatable). */
  static Map<String, Object> nodeGroup(NodeGroup g) {
    Map<String, String> labels = new TreeMap<>(g.template().getMetadata().getLabels());
    labels.remove(NodeGroupLabels.NODE_GROUP);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("capacity", quantities(g.template().getStatus().getCapacity()));
    status.put("allocatable", quantities(g.template().getStatus().getAllocatable()));
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("metadata", Map.of("labels", labels));
    template.put("status", status);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minSize", g.minSize());
    spec.put("maxSize", g.maxSize());
    spec.put("targetSize", g.targetSize());
    spec.put("price", g.pricePerHour());
    spec.put("template", template);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("apiVersion", NodeGroupDocument.API_VERSION);
    doc.put("kind", NodeGroupDocument.KIND);
    doc.put("metadata", Map.of("name", g.id()));
    doc.put("spec", spec);
    return doc;
  }

  private static Map<String, String> quantities(Map<String, Quantity> q) {
    Map<String, String> out = new TreeMap<>();
    q.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }
}
