package dev.headroom.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusRangeTest {

  static final String TWO_SERIES = String.join("\n",
      "{",
      "  \"status\": \"success\",",
      "  \"data\": {",
      "    \"resultType\": \"matrix\",",
      "    \"result\": [",
      "      {\"metric\": {\"service\": \"web\", \"namespace\": \"shop\"},",
      "       \"values\": [[1767571200, \"100\"], [1767571260, \"160.5\"], [1767571320, \"40\"]]},",
      "      {\"metric\": {\"service\": \"checkout\", \"namespace\": \"shop\"},",
      "       \"values\": [[1767571200.5, \"7\"], [1767571260.5, \"9\"]]}",
      "    ]",
      "  }",
      "}");

  @Test
  void theSelectedSeriesStartsAtTimeZeroAndIsInterpolated() {
    LoadProfile.Trace t = PrometheusRange.parse("r.json", TWO_SERIES, Map.of("service", "web"), 2);
    assertThat(t.points()).containsExactly(new LoadProfile.Point(0, 200), new LoadProfile.Point(60, 321),
        new LoadProfile.Point(120, 80));
    assertThat(t.rateAt(30)).isEqualTo(260.5);
    LoadProfile.Trace c = PrometheusRange.parse("r.json", TWO_SERIES, Map.of("service", "checkout", "namespace", "shop"), 1);
    assertThat(c.points()).containsExactly(new LoadProfile.Point(0, 7), new LoadProfile.Point(60, 9));
  }

  @Test
  void aSingleSeriesNeedsNoSelector() {
    String one = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},"
        + "\"values\":[[10,\"1\"],[70,\"3\"]]}]}}";
    assertThat(PrometheusRange.parse("r.json", one, Map.of(), 1).rateAt(30)).isEqualTo(2);
  }

  @Test
  void errorsNameTheFileAndLine() {
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES, Map.of(), 1))
        .hasMessage("r.json:5: 2 series match; choose one with series: {label: value} (series: "
            + "{namespace=shop, service=web}, {namespace=shop, service=checkout})");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES, Map.of("service", "cart"), 1))
        .hasMessageStartingWith("r.json:5: no series carries the labels {service=cart}");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES.replace("\"matrix\"", "\"vector\""), Map.of(), 1))
        .hasMessageStartingWith("r.json:4: data.resultType is \"vector\"; a load profile needs a range query's \"matrix\"");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES.replace("\"160.5\"", "\"NaN\""), Map.of("service", "web"), 1))
        .hasMessage("r.json:7: the sample value must be a finite number >= 0, not NaN");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES.replace("\"160.5\"", "\"lots\""), Map.of("service", "web"), 1))
        .hasMessage("r.json:7: the sample value \"lots\" is not a number");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES.replace("1767571260, ", "1767571100, "), Map.of("service", "web"), 1))
        .hasMessage("r.json:7: sample times must increase");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", TWO_SERIES.replace("\"data\": {", "\"data\": {,"), Map.of(), 1))
        .isInstanceOf(ScenarioException.class).hasMessageStartingWith("r.json:3: not valid JSON");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", "{\"status\": \"error\", \"error\": \"bad query\"}", Map.of(), 1))
        .hasMessage("r.json:1: status is \"error\", not \"success\"");
    assertThatThrownBy(() -> PrometheusRange.parse("r.json", "", Map.of(), 1)).hasMessageStartingWith("r.json:1: the file is empty");
  }

  @Test
  void aScenarioReadsItsRangeFileAndDurationsTakeDays(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Files.writeString(dir.resolve("range.json"), TWO_SERIES);
    String text = java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "scenarios", "shop-prometheus.yaml"))
        .replace("duration: 1d", "duration: 7d").replace("shop-requests-range.json", "range.json");
    java.nio.file.Path file = dir.resolve("s.yaml");
    java.nio.file.Files.writeString(file, text);
    Scenario s = ScenarioParser.parseFile(file);
    assertThat(s.duration()).isEqualTo(java.time.Duration.ofDays(7));
    assertThat(s.workloads().get(1).load().profile().rateAt(60)).isEqualTo(9);
    java.nio.file.Files.writeString(file, text.replace("series: {service: checkout}", "series: {service: cart}"));
    assertThatThrownBy(() -> ScenarioParser.parseFile(file)).hasMessageStartingWith("range.json:5: no series carries");
  }
}
