package dev.headroom.e2e;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.cli.Explainer;
import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.InputException;
import dev.headroom.cli.input.Position;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.core.buffer.BufferSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Puts example files into the cluster (each namespace renamed to a fresh one) and runs {@code headroom explain}'s
 * engine ({@link Explainer}) over what the cluster then holds, so a status the controller wrote can be compared with
 * the one explain prints for the same objects.
 */
final class ClusterExplain {
  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  static final ObjectMapper JSON = JsonMapper.builder().build();
  /** Condition types the tests themselves write (never Headroom's). */
  static final String FOREIGN_PREFIX = "e2e.headroom.dev/";

  private ClusterExplain() {}

  /** What applying one example file did. */
  record Applied(Map<String, String> namespaces, List<String> rejectedBuffers, List<String> admittedBuffers) {}

  /** The documents of a YAML file, as {@code headroom explain -f} reads them. */
  static List<InputDocument> load(Path file) throws InputException {
    return new YamlInputLoader().load(file);
  }

  /**
   * Creates every object of the file except Namespaces, in fresh namespaces {@code NS-suffix} (objects without one in
   * {@code default-suffix}); returns the renaming and which buffers the API server rejected.
   */
  static Applied apply(TestBed bed, List<InputDocument> docs, String suffix) {
    Map<String, String> namespaces = new LinkedHashMap<>();
    List<String> rejected = new ArrayList<>();
    List<String> admitted = new ArrayList<>();
    for (InputDocument d : docs) {
      String original = d.kind().equals("Namespace") ? d.name() : (d.namespace().isEmpty() ? "default" : d.namespace());
      String ns = namespaces.computeIfAbsent(original, o -> bed.createNamespace(o + "-" + suffix));
      if (d.kind().equals("Namespace")) {
        continue;
      }
      Map<String, Object> raw = d.copyOfRaw();
      raw.remove("status");
      @SuppressWarnings("unchecked")
      Map<String, Object> meta = (Map<String, Object>) raw.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
      meta.put("namespace", ns);
      GenericKubernetesResource object = SERIALIZATION.convertValue(raw, GenericKubernetesResource.class);
      boolean buffer = d.kind().equals(CapacityBufferVersion.KIND);
      try {
        bed.admin().resource(object).inNamespace(ns).create();
        if (buffer) {
          admitted.add(ns + "/" + d.name());
        }
      } catch (KubernetesClientException e) {
        if (buffer && e.getCode() == 422) {
          rejected.add(ns + "/" + d.name());
        } else {
          throw e;
        }
      }
    }
    return new Applied(namespaces, rejected, admitted);
  }

  /** Namespaced kinds explain reads, listed from the cluster. */
  static List<Map<String, Object>> clusterObjects(KubernetesClient c, String ns) {
    List<HasMetadata> objects = new ArrayList<>();
    objects.addAll(c.apps().deployments().inNamespace(ns).list().getItems());
    objects.addAll(c.apps().replicaSets().inNamespace(ns).list().getItems());
    objects.addAll(c.apps().statefulSets().inNamespace(ns).list().getItems());
    objects.addAll(c.replicationControllers().inNamespace(ns).list().getItems());
    objects.addAll(c.batch().v1().jobs().inNamespace(ns).list().getItems());
    objects.addAll(c.pods().inNamespace(ns).list().getItems());
    objects.addAll(c.resourceQuotas().inNamespace(ns).list().getItems());
    // Templates a buffer owns are the controller's output, not its input: explain writes its own.
    c.v1().podTemplates().inNamespace(ns).list().getItems().stream().filter(t -> !ownedByBuffer(t)).forEach(objects::add);
    List<Map<String, Object>> out = new ArrayList<>();
    for (HasMetadata o : objects) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = SERIALIZATION.convertValue(o, Map.class);
      out.add(m);
    }
    for (GenericKubernetesResource b : buffers(c, ns)) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = SERIALIZATION.convertValue(b, Map.class);
      m.remove("status"); // explain starts from the objects as a user wrote them
      out.add(m);
    }
    for (Map<String, Object> m : out) {
      @SuppressWarnings("unchecked")
      Map<String, Object> meta = (Map<String, Object>) m.get("metadata");
      meta.remove("managedFields");
    }
    return out;
  }

  static boolean ownedByBuffer(HasMetadata o) {
    List<OwnerReference> refs = o.getMetadata().getOwnerReferences();
    return refs != null && refs.stream().anyMatch(r -> r.getKind().equals(CapacityBufferVersion.KIND));
  }

  static List<GenericKubernetesResource> buffers(KubernetesClient c, String ns) {
    return c.genericKubernetesResources(CapacityBufferVersion.GROUP + "/v1beta1", CapacityBufferVersion.KIND).inNamespace(ns)
        .list().getItems();
  }

  /** {@code namespace/name} → the status explain prints for the cluster's current objects in these namespaces. */
  static Map<String, JsonNode> explainStatuses(KubernetesClient c, List<String> namespaces, Instant now) {
    List<InputDocument> docs = new ArrayList<>();
    int line = 1;
    for (String ns : namespaces) {
      for (Map<String, Object> m : clusterObjects(c, ns)) {
        docs.add(new InputDocument(new Position("cluster:" + ns, line++), m));
      }
    }
    Explainer.Result r = new Explainer(new BufferSettings(true)).explain(docs, now);
    Map<String, JsonNode> out = new TreeMap<>();
    for (HasMetadata item : r.output().getItems()) {
      if (item.getKind().equals(CapacityBufferVersion.KIND)) {
        JsonNode tree = JSON.readTree(SERIALIZATION.asJson(item));
        out.put(item.getMetadata().getNamespace() + "/" + item.getMetadata().getName(), normalise(tree.path("status")));
      }
    }
    return out;
  }

  /** {@code namespace/name} → the status the cluster holds. */
  static Map<String, JsonNode> clusterStatuses(KubernetesClient c, List<String> namespaces) {
    Map<String, JsonNode> out = new TreeMap<>();
    for (String ns : namespaces) {
      for (GenericKubernetesResource b : buffers(c, ns)) {
        JsonNode tree = JSON.readTree(SERIALIZATION.asJson(b));
        out.put(ns + "/" + b.getMetadata().getName(), normalise(tree.path("status")));
      }
    }
    return out;
  }

  /** The status without condition timestamps and the tests' own condition types, conditions ordered by type. */
  static JsonNode normalise(JsonNode status) {
    if (status.isMissingNode() || status.isNull()) {
      return JSON.createObjectNode();
    }
    ObjectNode s = (ObjectNode) JSON.readTree(status.toString());
    JsonNode conditions = s.get("conditions");
    if (conditions instanceof ArrayNode list) {
      List<ObjectNode> kept = new ArrayList<>();
      for (JsonNode cond : list) {
        if (!cond.path("type").asString().startsWith(FOREIGN_PREFIX)) {
          ObjectNode copy = (ObjectNode) cond.deepCopy();
          copy.remove("lastTransitionTime");
          kept.add(copy);
        }
      }
      kept.sort(Comparator.comparing(n -> n.path("type").asString()));
      ArrayNode sorted = JSON.createArrayNode();
      kept.forEach(sorted::add);
      s.set("conditions", sorted);
    }
    return s;
  }
}
