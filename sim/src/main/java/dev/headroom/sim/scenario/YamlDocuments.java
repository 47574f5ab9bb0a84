package dev.headroom.sim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/** Reads YAML text into located {@link YamlValue} documents; syntax errors become {@code FILE:LINE} errors. */
public final class YamlDocuments {

  private YamlDocuments() {}

  /** All documents of a (possibly multi-document) YAML text; empty documents are skipped. */
  public static List<YamlValue> read(String file, String text) {
    LoadSettings settings = LoadSettings.builder().setLabel(file).setAllowDuplicateKeys(true).build();
    List<YamlValue> docs = new ArrayList<>();
    try {
      Composer composer = new Composer(settings, new ParserImpl(settings, new StreamReader(settings, text)));
      while (composer.hasNext()) {
        Node n = composer.next();
        docs.add(new YamlValue(file, "", n, 1));
      }
    } catch (MarkedYamlEngineException e) {
      int line = Optional.ofNullable(e.getProblemMark().orElse(null)).map(m -> m.getLine() + 1).orElse(1);
      throw new ScenarioException(file, line, "YAML syntax error: " + e.getProblem());
    } catch (YamlEngineException e) {
      throw new ScenarioException(file, 1, "YAML syntax error: " + e.getMessage());
    }
    return docs;
  }
}
