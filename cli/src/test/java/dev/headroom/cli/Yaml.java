package dev.headroom.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** Test helper: YAML/JSON text to a normalised tree (null and empty values dropped, integers as Long). */
final class Yaml {

  private Yaml() {}

  static Object tree(String text) {
    return normalise(new Load(LoadSettings.builder().build()).loadFromString(text));
  }

  static Object normalise(Object node) {
    if (node instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> {
        Object n = normalise(v);
        if (n != null && !(n instanceof Map<?, ?> x && x.isEmpty()) && !(n instanceof List<?> l && l.isEmpty())) {
          out.put(String.valueOf(k), n);
        }
      });
      return out;
    }
    if (node instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(v -> out.add(normalise(v)));
      return out;
    }
    if (node instanceof Integer i) {
      return i.longValue();
    }
    return node;
  }
}
