package dev.headroom.sim.scenario;

import dev.headroom.core.input.TextInputException;
import dev.headroom.core.input.YamlLoader;
import java.util.ArrayList;
import java.util.List;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Reads YAML text into located {@link YamlValue} documents through the commands' one YAML loader
 * ({@link YamlLoader}: limits, merge keys, duplicate keys); its errors become {@code FILE:LINE} errors.
 */
public final class YamlDocuments {

  private YamlDocuments() {}

  /** All documents of a (possibly multi-document) YAML text; empty documents come back as null values. */
  public static List<YamlValue> read(String file, String text) {
    List<YamlValue> docs = new ArrayList<>();
    try {
      for (Node n : YamlLoader.compose(file, text)) {
        docs.add(new YamlValue(file, "", n, 1));
      }
    } catch (TextInputException e) {
      throw new ScenarioException(file, Math.max(e.line(), 1), e.getMessage());
    }
    return docs;
  }
}
