package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link RowGauges} against the plain path it replaces: a {@code MultiGauge} registered with {@code overwrite}. */
class RowGaugesTest {
  static final String NAME = "headroom_test_rows";

  @Test
  void servesWhatAnOverwritingMultiGaugeServesOverRandomHistories() {
    Random random = new Random(28);
    for (int history = 0; history < 20; history++) {
      PrometheusMeterRegistry plainRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      PrometheusMeterRegistry rowRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      MultiGauge plain = MultiGauge.builder(NAME).description("rows").register(plainRegistry);
      RowGauges rows = new RowGauges(rowRegistry, NAME, "rows", List.of("namespace", "name"));
      for (int step = 0; step < 30; step++) {
        Map<List<String>, Long> values = new LinkedHashMap<>();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
          values.put(List.of("ns-" + random.nextInt(3), "b-" + random.nextInt(5)), (long) random.nextInt(4));
        }
        List<MultiGauge.Row<?>> plainRows = new ArrayList<>();
        values.forEach((k, v) -> plainRows.add(MultiGauge.Row.of(Tags.of("namespace", k.get(0), "name", k.get(1)), v)));
        plain.register(plainRows, true);
        rows.update(values);
        assertThat(lines(rowRegistry)).as("history %d step %d: %s", history, step, values).isEqualTo(lines(plainRegistry));
        assertThat(rows.size()).isEqualTo(values.size());
      }
    }
  }

  @Test
  void aRowKeepsItsGaugeWhileItStaysAndOnlyItsValueChanges() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RowGauges rows = new RowGauges(registry, NAME, "rows", List.of("namespace", "name"));
    rows.update(Map.of(List.of("a", "x"), 1L, List.of("a", "y"), 2L));
    var before = registry.find(NAME).tags("namespace", "a", "name", "x").gauge();
    rows.update(Map.of(List.of("a", "x"), 5L));
    assertThat(registry.find(NAME).tags("namespace", "a", "name", "x").gauge()).isSameAs(before);
    assertThat(before.value()).isEqualTo(5.0);
    assertThat(registry.find(NAME).tags("namespace", "a", "name", "y").gauge()).isNull();
  }

  private static TreeSet<String> lines(PrometheusMeterRegistry registry) {
    TreeSet<String> out = new TreeSet<>();
    for (String line : registry.scrape().split("\n")) {
      if (line.contains(NAME)) {
        out.add(line);
      }
    }
    return out;
  }
}
