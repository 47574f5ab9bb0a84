package dev.headroom.controller.autoscaling;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One gauge per row of a labelled metric whose rows change little between loops (per-buffer gauges): what a
 * {@code MultiGauge} with {@code overwrite} serves, but a row's gauge is registered once and its value set in place,
 * and only rows that appeared or went away touch the registry. {@code MultiGauge.register(rows, true)} removes and
 * registers every row on every call, which at 10,000 buffers (50,000 rows) cost more than the autoscaler's loop itself.
 * Not thread-safe: one writer (the loop); scrapes read the values.
 */
final class RowGauges {
  private final MeterRegistry registry;
  private final String name;
  private final String description;
  private final List<String> labels;
  private final Map<List<String>, Row> rows = new HashMap<>();

  private record Row(AtomicLong value, Gauge gauge) {}

  /** A metric {@code name} with the label names {@code labels}, in the order {@link #update}'s keys give values. */
  RowGauges(MeterRegistry registry, String name, String description, List<String> labels) {
    this.registry = registry;
    this.name = name;
    this.description = description;
    this.labels = List.copyOf(labels);
  }

  /**
   * Makes the served rows exactly {@code values} (label values in {@link #labels} order to the gauge's value): rows
   * not in it are removed.
   */
  void update(Map<List<String>, Long> values) {
    Set<List<String>> seen = new HashSet<>(values.size() * 2);
    for (Map.Entry<List<String>, Long> e : values.entrySet()) {
      List<String> key = e.getKey();
      seen.add(key);
      Row row = rows.get(key);
      if (row == null) {
        AtomicLong holder = new AtomicLong();
        row = new Row(holder, Gauge.builder(name, holder, AtomicLong::get).tags(tags(key)).description(description)
            .strongReference(true).register(registry));
        rows.put(List.copyOf(key), row);
      }
      row.value().set(e.getValue());
    }
    if (seen.size() == rows.size()) {
      return;
    }
    for (Iterator<Map.Entry<List<String>, Row>> it = rows.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<List<String>, Row> e = it.next();
      if (!seen.contains(e.getKey())) {
        registry.remove(e.getValue().gauge());
        it.remove();
      }
    }
  }

  /** The number of rows served. */
  int size() {
    return rows.size();
  }

  private Tags tags(List<String> values) {
    if (values.size() != labels.size()) {
      throw new IllegalArgumentException(name + ": " + labels.size() + " label values expected, got " + values);
    }
    List<io.micrometer.core.instrument.Tag> out = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      out.add(io.micrometer.core.instrument.Tag.of(labels.get(i), values.get(i)));
    }
    return Tags.of(out);
  }
}
