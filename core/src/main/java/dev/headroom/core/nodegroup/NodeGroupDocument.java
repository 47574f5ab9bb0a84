package dev.headroom.core.nodegroup;

import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@code headroom.dev/v1alpha1 NodeGroup} document format: strict parsing of one document (a generic
 * map tree as produced by any YAML/JSON reader) into a {@link NodeGroup}. Unknown fields are errors.
 */
public final class NodeGroupDocument {

  /** API version of the document. */
  public static final String API_VERSION = "headroom.dev/v1alpha1";
  /** Kind of the document. */
  public static final String KIND = "NodeGroup";
  /** Default pod capacity of a template. */
  public static final String DEFAULT_PODS = "110";

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");
  private static final Set<String> OPTION_KEYS =
      Set.of(
          "scaleDownUtilizationThreshold",
          "scaleDownGpuUtilizationThreshold",
          "scaleDownUnneededTime",
          "scaleDownUnreadyTime",
          "maxNodeProvisionTime",
          "maxNodeStartupTime",
          "ignoreDaemonSetsUtilization");

  private NodeGroupDocument() {}

  /** True when the document's apiVersion and kind identify a NodeGroup. */
  public static boolean isNodeGroup(Map<String, ?> doc) {
    return doc != null && API_VERSION.equals(doc.get("apiVersion")) && KIND.equals(doc.get("kind"));
  }

  /**
   * Parses one document.
   *
   * @throws NodeGroupFormatException naming the field in error
   */
  public static NodeGroup parse(Map<String, ?> doc) {
    allowOnly(doc, "", Set.of("apiVersion", "kind", "metadata", "spec"));
    if (!API_VERSION.equals(doc.get("apiVersion"))) {
      throw new NodeGroupFormatException("apiVersion", "apiVersion must be " + API_VERSION);
    }
    if (!KIND.equals(doc.get("kind"))) {
      throw new NodeGroupFormatException("kind", "kind must be " + KIND);
    }
    Map<String, ?> metadata = map(doc.get("metadata"), "metadata", true);
    allowOnly(metadata, "metadata", Set.of("name"));
    String name = string(metadata.get("name"), "metadata.name", true);
    if (name.length() > 63 || !DNS_LABEL.matcher(name).matches()) {
      throw new NodeGroupFormatException("metadata.name", "metadata.name \"" + name + "\" must be a DNS-1123 label (lower-case alphanumerics and '-', at most 63 characters)");
    }
    Map<String, ?> spec = map(doc.get("spec"), "spec", true);
    allowOnly(spec, "spec", Set.of("minSize", "maxSize", "targetSize", "price", "provisioningDelay", "standby", "template", "autoscalingOptions"));
    int minSize = integer(spec.get("minSize"), "spec.minSize", 0);
    if (!spec.containsKey("maxSize")) {
      throw new NodeGroupFormatException("spec", "spec.maxSize is required");
    }
    int maxSize = integer(spec.get("maxSize"), "spec.maxSize", 0);
    if (minSize < 0) {
      throw new NodeGroupFormatException("spec.minSize", "spec.minSize must be >= 0");
    }
    if (maxSize < minSize) {
      throw new NodeGroupFormatException("spec.maxSize", "spec.maxSize (" + maxSize + ") must be >= spec.minSize (" + minSize + ")");
    }
    int targetSize = integer(spec.get("targetSize"), "spec.targetSize", minSize);
    if (targetSize < 0 || targetSize > maxSize) {
      throw new NodeGroupFormatException("spec.targetSize", "spec.targetSize (" + targetSize + ") must be between 0 and spec.maxSize (" + maxSize + ")");
    }
    double price = decimal(spec.get("price"), "spec.price");
    Duration delay = duration(spec.get("provisioningDelay"), "spec.provisioningDelay", Duration.ZERO);
    Node template = template(name, map(spec.get("template"), "spec.template", true));
    NodeGroupOptions options = options(map(spec.get("autoscalingOptions"), "spec.autoscalingOptions", false));
    NodeGroup.Standby standby = spec.get("standby") == null ? null : standby(map(spec.get("standby"), "spec.standby", true), price, delay);
    return new NodeGroup(name, minSize, maxSize, targetSize, price, delay, template, options, standby);
  }

  /**
   * {@code spec.standby}: {@code resumeDelay} (required, not longer than the provisioning delay: resuming a suspended
   * node is what makes it worth keeping) and {@code price} per suspended node-hour (default a tenth of the group's).
   */
  private static NodeGroup.Standby standby(Map<String, ?> s, double price, Duration provisioningDelay) {
    allowOnly(s, "spec.standby", Set.of("resumeDelay", "price"));
    if (!s.containsKey("resumeDelay")) {
      throw new NodeGroupFormatException("spec.standby", "spec.standby.resumeDelay is required");
    }
    Duration resume = duration(s.get("resumeDelay"), "spec.standby.resumeDelay", Duration.ZERO);
    if (resume.isNegative()) {
      throw new NodeGroupFormatException("spec.standby.resumeDelay", "spec.standby.resumeDelay must not be negative");
    }
    if (resume.compareTo(provisioningDelay) > 0) {
      throw new NodeGroupFormatException("spec.standby.resumeDelay", "spec.standby.resumeDelay (" + GoDuration.format(resume)
          + ") must not be longer than spec.provisioningDelay (" + GoDuration.format(provisioningDelay)
          + "): a suspended node resumes faster than a new one starts");
    }
    double standbyPrice = s.containsKey("price") ? decimal(s.get("price"), "spec.standby.price") : price / 10;
    return new NodeGroup.Standby(resume, standbyPrice);
  }

  private static Node template(String group, Map<String, ?> t) {
    allowOnly(t, "spec.template", Set.of("metadata", "spec", "status"));
    Map<String, ?> meta = map(t.get("metadata"), "spec.template.metadata", false);
    allowOnly(meta, "spec.template.metadata", Set.of("labels", "annotations"));
    Map<String, String> labels = new TreeMap<>(stringMap(meta.get("labels"), "spec.template.metadata.labels"));
    Map<String, String> annotations = new TreeMap<>(stringMap(meta.get("annotations"), "spec.template.metadata.annotations"));
    labels.put(NodeGroupLabels.NODE_GROUP, group);
    labels.putIfAbsent(NodeGroupLabels.OS, "linux");
    labels.putIfAbsent(NodeGroupLabels.ARCH, "amd64");
    Map<String, ?> spec = map(t.get("spec"), "spec.template.spec", false);
    allowOnly(spec, "spec.template.spec", Set.of("taints"));
    List<Taint> taints = new ArrayList<>();
    Object rawTaints = spec.get("taints");
    if (rawTaints != null) {
      if (!(rawTaints instanceof List<?> list)) {
        throw new NodeGroupFormatException("spec.template.spec.taints", "spec.template.spec.taints must be a list");
      }
      for (int i = 0; i < list.size(); i++) {
        String p = "spec.template.spec.taints[" + i + "]";
        Map<String, ?> tm = map(list.get(i), p, true);
        allowOnly(tm, p, Set.of("key", "value", "effect"));
        String key = string(tm.get("key"), p + ".key", true);
        String value = string(tm.get("value"), p + ".value", false);
        String effect = string(tm.get("effect"), p + ".effect", true);
        if (!EFFECTS.contains(effect)) {
          throw new NodeGroupFormatException(p + ".effect", p + ".effect must be one of NoSchedule, PreferNoSchedule, NoExecute, not \"" + effect + "\"");
        }
        taints.add(new TaintBuilder().withKey(key).withValue(value).withEffect(effect).build());
      }
    }
    Map<String, ?> status = map(t.get("status"), "spec.template.status", true);
    allowOnly(status, "spec.template.status", Set.of("capacity", "allocatable"));
    Map<String, Quantity> capacity = resources(map(status.get("capacity"), "spec.template.status.capacity", true), "spec.template.status.capacity");
    for (String required : List.of("cpu", "memory")) {
      if (!capacity.containsKey(required)) {
        throw new NodeGroupFormatException("spec.template.status.capacity", "spec.template.status.capacity must contain " + required);
      }
    }
    capacity.putIfAbsent("pods", new Quantity(DEFAULT_PODS));
    Map<String, Quantity> allocatable;
    if (status.get("allocatable") == null) {
      allocatable = new TreeMap<>(capacity);
    } else {
      allocatable = resources(map(status.get("allocatable"), "spec.template.status.allocatable", true), "spec.template.status.allocatable");
      for (Map.Entry<String, Quantity> e : allocatable.entrySet()) {
        Quantity cap = capacity.get(e.getKey());
        if (cap == null || Quantities.milli(e.getValue()) > Quantities.milli(cap)) {
          throw new NodeGroupFormatException("spec.template.status.allocatable." + e.getKey(),
              "spec.template.status.allocatable." + e.getKey() + " must not exceed the capacity");
        }
      }
      allocatable.putIfAbsent("pods", capacity.get("pods"));
    }
    return new NodeBuilder()
        .withNewMetadata().withName("template-" + group).withLabels(labels).withAnnotations(annotations).endMetadata()
        .withNewSpec().withTaints(taints).endSpec()
        .withNewStatus().withCapacity(capacity).withAllocatable(allocatable).endStatus()
        .build();
  }

  private static NodeGroupOptions options(Map<String, ?> o) {
    allowOnly(o, "spec.autoscalingOptions", OPTION_KEYS);
    String p = "spec.autoscalingOptions.";
    return new NodeGroupOptions(
        fraction(o.get("scaleDownUtilizationThreshold"), p + "scaleDownUtilizationThreshold"),
        fraction(o.get("scaleDownGpuUtilizationThreshold"), p + "scaleDownGpuUtilizationThreshold"),
        duration(o.get("scaleDownUnneededTime"), p + "scaleDownUnneededTime", null),
        duration(o.get("scaleDownUnreadyTime"), p + "scaleDownUnreadyTime", null),
        duration(o.get("maxNodeProvisionTime"), p + "maxNodeProvisionTime", null),
        duration(o.get("maxNodeStartupTime"), p + "maxNodeStartupTime", null),
        bool(o.get("ignoreDaemonSetsUtilization"), p + "ignoreDaemonSetsUtilization"));
  }

  private static Map<String, Quantity> resources(Map<String, ?> raw, String path) {
    Map<String, Quantity> out = new TreeMap<>();
    for (Map.Entry<String, ?> e : raw.entrySet()) {
      String p = path + "." + e.getKey();
      Object v = e.getValue();
      if (!(v instanceof String) && !(v instanceof Number)) {
        throw new NodeGroupFormatException(p, p + " must be a quantity");
      }
      String text = v.toString();
      if (!Quantities.isValid(text) || Quantities.milli(text) < 0) {
        throw new NodeGroupFormatException(p, p + " is not a valid quantity: \"" + text + "\"");
      }
      out.put(e.getKey(), new Quantity(text));
    }
    return out;
  }

  private static void allowOnly(Map<String, ?> m, String path, Set<String> allowed) {
    for (String k : m.keySet()) {
      if (!allowed.contains(k)) {
        String p = path.isEmpty() ? k : path + "." + k;
        throw new NodeGroupFormatException(p, "unknown field \"" + p + "\"");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> map(Object v, String path, boolean required) {
    if (v == null) {
      if (required) {
        throw new NodeGroupFormatException(parent(path), path + " is required");
      }
      return Map.of();
    }
    if (!(v instanceof Map<?, ?>)) {
      throw new NodeGroupFormatException(path, path + " must be a map");
    }
    return (Map<String, ?>) v;
  }

  private static Map<String, String> stringMap(Object v, String path) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : map(v, path, false).entrySet()) {
      Object value = e.getValue();
      if (!(value instanceof String s)) {
        throw new NodeGroupFormatException(path + "." + e.getKey(), path + "." + e.getKey() + " must be a string");
      }
      out.put(e.getKey(), s);
    }
    return out;
  }

  private static String string(Object v, String path, boolean required) {
    if (v == null) {
      if (required) {
        throw new NodeGroupFormatException(parent(path), path + " is required");
      }
      return null;
    }
    if (!(v instanceof String s)) {
      throw new NodeGroupFormatException(path, path + " must be a string");
    }
    return s;
  }

  private static int integer(Object v, String path, int dflt) {
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Integer) && !(v instanceof Long) && !(v instanceof Short)) {
      throw new NodeGroupFormatException(path, path + " must be an integer");
    }
    long l = ((Number) v).longValue();
    if (l > Integer.MAX_VALUE || l < Integer.MIN_VALUE) {
      throw new NodeGroupFormatException(path, path + " is out of range");
    }
    return (int) l;
  }

  private static double decimal(Object v, String path) {
    if (v == null) {
      return 0;
    }
    BigDecimal d;
    try {
      d = new BigDecimal(v.toString());
    } catch (NumberFormatException e) {
      throw new NodeGroupFormatException(path, path + " must be a number");
    }
    if (!(v instanceof Number) || d.signum() < 0) {
      throw new NodeGroupFormatException(path, path + " must be a number >= 0");
    }
    return d.doubleValue();
  }

  private static Double fraction(Object v, String path) {
    if (v == null) {
      return null;
    }
    double d = decimal(v, path);
    if (d > 1) {
      throw new NodeGroupFormatException(path, path + " must be between 0 and 1");
    }
    return d;
  }

  private static Boolean bool(Object v, String path) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof Boolean b)) {
      throw new NodeGroupFormatException(path, path + " must be true or false");
    }
    return b;
  }

  private static Duration duration(Object v, String path, Duration dflt) {
    if (v == null) {
      return dflt;
    }
    String text = v instanceof Number n && n.longValue() == 0 ? "0" : v.toString();
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw new NodeGroupFormatException(path, path + ": " + e.getMessage());
    }
  }

  private static String parent(String path) {
    int i = path.lastIndexOf('.');
    return i < 0 ? "" : path.substring(0, i);
  }
}
