package dev.headroom.cli;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.validation.CapacityBufferValidator;
import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.InputException;
import dev.headroom.cli.input.Position;
import dev.headroom.cli.input.StrictFields;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.core.nodegroup.NodeGroupDocument;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the API server (with kubectl's default strict field validation) would refuse in the input of {@code explain}
 * and {@code plan}, checked before either command looks at the objects: unknown fields and wrongly typed values of
 * the kinds they read, object names that are not DNS-1123, and the same object (group, kind, namespace, name) given
 * twice. Each problem is one {@code FILE:LINE: KIND NAME: what is wrong} line, at the offending field's own line.
 */
final class InputChecks {

  /** The built-in kinds plan reads besides explain's ({@link Explainer#KINDS}). */
  static final Map<String, Class<? extends HasMetadata>> PLAN_KINDS = Map.of(
      "v1/Node", Node.class,
      "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class);

  private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "Node", NodeGroupDocument.KIND);
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** The API server's limit on the total size of an object's annotations (256 KiB). */
  static final int MAX_ANNOTATION_BYTES = 256 * 1024;

  private InputChecks() {}

  private static long utf8Length(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }

  /**
   * Loads every file and checks the objects; problems go to {@code err}, one line each.
   *
   * @return the objects, or empty when some file could not be read or some object would be refused
   */
  static Optional<List<InputDocument>> load(List<Path> files, YamlInputLoader loader, PrintWriter err) {
    List<InputDocument> documents = new ArrayList<>();
    boolean failed = false;
    for (Path f : files) {
      try {
        documents.addAll(loader.load(f));
      } catch (InputException e) {
        err.println(e.getMessage());
        failed = true;
      }
    }
    if (!failed) {
      List<String> problems = check(documents, loader);
      problems.forEach(err::println);
      failed = !problems.isEmpty();
    }
    err.flush();
    return failed ? Optional.empty() : Optional.of(documents);
  }

  /** The problems of already-loaded objects, in input order. */
  static List<String> check(List<InputDocument> documents, YamlInputLoader loader) {
    List<String> out = new ArrayList<>();
    Map<String, Position> seen = new HashMap<>();
    for (InputDocument doc : documents) {
      Class<? extends HasMetadata> type = typeOf(doc);
      boolean buffer = doc.kind().equals(CapacityBufferVersion.KIND) && CapacityBufferVersion.fromApiVersion(doc.apiVersion()).isPresent();
      boolean read = type != null || buffer || NodeGroupDocument.isNodeGroup(doc.raw());
      if (!read) {
        continue; // the command reports the kind as ignored
      }
      String label = doc.kind() + " " + (doc.name().isEmpty() ? "(unnamed)" : doc.name());
      Map<String, Object> raw = doc.raw();
      List<StrictFields.Problem> problems = new ArrayList<>();
      if (type != null) {
        problems.addAll(StrictFields.check(raw, type));
      } else if (buffer) {
        CapacityBufferVersion version = CapacityBufferVersion.fromApiVersion(doc.apiVersion()).orElseThrow();
        for (String path : CapacityBufferValidator.unknownFields(raw, version)) {
          problems.add(new StrictFields.Problem(path, "unknown field \"" + path + "\""));
        }
        problems.addAll(StrictFields.check(raw.get("metadata"), ObjectMeta.class, "metadata"));
      }
      if (problems.isEmpty() && raw.get("metadata") instanceof Map<?, ?> meta && meta.get("annotations") instanceof Map<?, ?> annotations) {
        long bytes = 0;
        for (Map.Entry<?, ?> a : annotations.entrySet()) {
          bytes += utf8Length(String.valueOf(a.getKey())) + (a.getValue() == null ? 0 : utf8Length(String.valueOf(a.getValue())));
        }
        if (bytes > MAX_ANNOTATION_BYTES) {
          problems.add(new StrictFields.Problem("metadata.annotations", "metadata.annotations: too long: must have at most "
              + MAX_ANNOTATION_BYTES + " bytes (the API server's limit), not " + bytes));
        }
      }
      for (StrictFields.Problem p : problems) {
        out.add(at(doc, loader, p.path()) + ": " + label + ": " + p.message());
      }
      if (!problems.isEmpty()) {
        continue;
      }
      String name = doc.name();
      if (name.isEmpty()) {
        out.add(at(doc, loader, "metadata") + ": " + doc.kind() + ": metadata.name is required");
        continue;
      }
      boolean labelOnly = doc.kind().equals("Namespace") || NodeGroupDocument.isNodeGroup(raw);
      if (labelOnly ? !isLabel(name) : !isSubdomain(name)) {
        out.add(at(doc, loader, "metadata.name") + ": " + label + ": invalid name \"" + name + "\": "
            + (labelOnly ? "a DNS-1123 label" : "a lowercase RFC 1123 subdomain")
            + " must consist of lower case alphanumeric characters, '-'" + (labelOnly ? "" : " or '.'")
            + ", must start and end with an alphanumeric character and be at most " + (labelOnly ? 63 : 253) + " characters");
        continue;
      }
      String namespace = CLUSTER_SCOPED.contains(doc.kind()) ? "" : doc.namespace().isEmpty() ? "default" : doc.namespace();
      if (!namespace.isEmpty() && !isLabel(namespace)) {
        out.add(at(doc, loader, "metadata.namespace") + ": " + label + ": invalid namespace \"" + namespace
            + "\": a DNS-1123 label must consist of lower case alphanumeric characters or '-', start and end with an "
            + "alphanumeric character and be at most 63 characters");
        continue;
      }
      String key = group(doc.apiVersion()) + "/" + doc.kind() + "/" + namespace + "/" + name;
      Position first = seen.putIfAbsent(key, doc.position());
      if (first != null) {
        out.add(at(doc, loader, "metadata.name") + ": " + doc.kind() + " " + (namespace.isEmpty() ? "" : namespace + "/")
            + name + " is defined twice (first at " + first + ")");
      }
    }
    return out;
  }

  /** The fabric8 class of a built-in kind that explain or plan reads, or null. */
  static Class<? extends HasMetadata> typeOf(InputDocument doc) {
    String key = doc.apiVersion() + "/" + doc.kind();
    Class<? extends HasMetadata> t = Explainer.KINDS.get(key);
    return t != null ? t : PLAN_KINDS.get(key);
  }

  private static Position at(InputDocument doc, YamlInputLoader loader, String path) {
    return new Position(doc.position().file(), loader.lineOf(doc, path));
  }

  private static boolean isLabel(String s) {
    return s.length() <= 63 && DNS_LABEL.matcher(s).matches();
  }

  private static boolean isSubdomain(String s) {
    return s.length() <= 253 && DNS_SUBDOMAIN.matcher(s).matches();
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
