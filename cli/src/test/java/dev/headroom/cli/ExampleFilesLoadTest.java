package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.core.input.InputText;
import dev.headroom.core.input.YamlLoader;
import dev.headroom.sim.scenario.ScenarioParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every YAML file the project ships under {@code examples/} and {@code deploy/} loads through the commands' strict
 * input path: scenarios through the scenario parser, everything else through {@code explain}'s and {@code plan}'s
 * loader and checks (no unknown field, bad name or duplicate). Helm chart directories (with a {@code Chart.yaml}) hold
 * templates, not YAML, and are left out; a Prometheus range response is read as the load profile data it is.
 */
class ExampleFilesLoadTest {

  static Stream<Path> files() throws IOException {
    List<Path> out = new java.util.ArrayList<>();
    for (String root : List.of("examples", "deploy")) {
      try (Stream<Path> s = Files.walk(Path.of("..", root))) {
        s.filter(Files::isRegularFile)
            .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml") || p.toString().endsWith(".json"))
            .filter(p -> !inHelmChart(p))
            .filter(p -> !p.normalize().startsWith(Path.of("..", "deploy", "grafana").normalize())) // a Grafana dashboard, no Kubernetes object
            .sorted()
            .forEach(out::add);
      }
    }
    assertThat(out).hasSizeGreaterThan(15);
    return out.stream();
  }

  private static boolean inHelmChart(Path p) {
    for (Path d = p.getParent(); d != null; d = d.getParent()) {
      if (Files.exists(d.resolve("Chart.yaml"))) {
        return true;
      }
    }
    return false;
  }

  @ParameterizedTest
  @MethodSource("files")
  void loads(Path file) throws Exception {
    String text = InputText.decode(Files.readAllBytes(file));
    boolean scenario = YamlLoader.compose(file.toString(), text).stream()
        .map(n -> YamlLoader.plain(n, null))
        .anyMatch(d -> d instanceof java.util.Map<?, ?> m && "Scenario".equals(m.get("kind")));
    if (scenario) {
      assertThat(ScenarioParser.parseFile(file).name()).isNotEmpty();
      return;
    }
    boolean prometheusResponse = YamlLoader.compose(file.toString(), text).stream()
        .map(n -> YamlLoader.plain(n, null))
        .anyMatch(d -> d instanceof java.util.Map<?, ?> m && m.containsKey("status") && m.get("data") instanceof java.util.Map<?, ?> data
            && data.containsKey("resultType"));
    if (prometheusResponse) {
      // a load profile's data (the JSON of Prometheus' /api/v1/query_range), read by the scenario that names it with
      // a series selector; the shipped example holds the series of service web
      assertThat(dev.headroom.sim.scenario.PrometheusRange.parse(file.toString(), text, java.util.Map.of("service", "web"), 1.0)).isNotNull();
      return;
    }
    YamlInputLoader loader = new YamlInputLoader();
    List<InputDocument> docs = loader.load(file);
    assertThat(docs).isNotEmpty();
    assertThat(InputChecks.check(docs, loader)).isEmpty();
  }
}
