package dev.headroom.api.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The equivalence of two CRDs defined in spec §1.6: every {@code description} removed and the controller-gen version
 * annotation ignored, the remaining trees must be equal, with object keys unordered, lists ordered, and
 * {@code required} lists compared as sets.
 */
final class CrdEquivalence {
  static final String CONTROLLER_GEN_ANNOTATION = "controller-gen.kubebuilder.io/version";

  private CrdEquivalence() {}

  /** A normalised copy: descriptions removed, the controller-gen annotation removed, {@code required} sorted. */
  static JsonNode normalise(JsonNode crd) {
    JsonNode copy = crd.deepCopy();
    JsonNode annotations = copy.path("metadata").path("annotations");
    if (annotations instanceof ObjectNode a) {
      a.remove(CONTROLLER_GEN_ANNOTATION);
      if (a.isEmpty()) {
        ((ObjectNode) copy.get("metadata")).remove("annotations");
      }
    }
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.remove("description");
      if (object.get("required") instanceof ArrayNode required && required.valueStream().allMatch(JsonNode::isString)) {
        TreeSet<String> sorted = new TreeSet<>();
        required.forEach(r -> sorted.add(r.asString()));
        required.removeAll();
        sorted.forEach(required::add);
      }
      object.forEach(CrdEquivalence::strip);
    } else if (node instanceof ArrayNode array) {
      array.forEach(CrdEquivalence::strip);
    }
  }

  /** The first difference between the normalised trees, as {@code path: what}, or empty when equivalent. */
  static Optional<String> firstDifference(JsonNode expected, JsonNode actual) {
    return diff(normalise(expected), normalise(actual), "");
  }

  private static Optional<String> diff(JsonNode expected, JsonNode actual, String path) {
    String where = path.isEmpty() ? "<root>" : path;
    if (expected.getNodeType() != actual.getNodeType()) {
      return Optional.of(where + ": expected " + expected + " but was " + actual);
    }
    if (expected instanceof ObjectNode e) {
      List<String> names = new ArrayList<>(new TreeSet<>(e.propertyNames()));
      for (String name : actual.propertyNames()) {
        if (!names.contains(name)) {
          names.add(name);
        }
      }
      names.sort(null);
      for (String name : names) {
        String child = path.isEmpty() ? name : path + "." + name;
        if (!e.has(name)) {
          return Optional.of(child + ": unexpected " + actual.get(name));
        }
        if (!actual.has(name)) {
          return Optional.of(child + ": missing, expected " + e.get(name));
        }
        Optional<String> d = diff(e.get(name), actual.get(name), child);
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    if (expected instanceof ArrayNode e) {
      for (int i = 0; i < Math.min(e.size(), actual.size()); i++) {
        Optional<String> d = diff(e.get(i), actual.get(i), path + "[" + i + "]");
        if (d.isPresent()) {
          return d;
        }
      }
      if (e.size() != actual.size()) {
        return Optional.of(where + ": expected " + e.size() + " items but was " + actual.size());
      }
      return Optional.empty();
    }
    return expected.equals(actual) ? Optional.empty()
        : Optional.of(where + ": expected " + expected + " but was " + actual);
  }
}
