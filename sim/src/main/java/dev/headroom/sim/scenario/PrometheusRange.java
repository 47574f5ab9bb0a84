package dev.headroom.sim.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reader of a load profile from Prometheus: the JSON body that {@code GET /api/v1/query_range} returns
 * ({@code {"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {...}, "values":
 * [[<unix seconds>, "<value>"], ...]}]}}}), e.g. for {@code sum(rate(http_requests_total{service="web"}[1m]))}.
 * The series is the only one in the result, or the one whose labels include every label of the selector. Its
 * first sample is scenario time 0; between samples the rate is interpolated linearly (the {@code trace}
 * profile's rule). Errors are reported as {@code FILE:LINE} of the JSON file.
 */
public final class PrometheusRange {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private PrometheusRange() {}

  /** A JSON value with the line it starts on. */
  private record Located(Object value, int line) {}

  /**
   * Parses the body.
   *
   * @param selector labels the series must carry (empty: the result must hold exactly one series)
   * @param scale multiplies every value
   */
  public static LoadProfile.Trace parse(String file, String text, Map<String, String> selector, double scale) {
    Located root;
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() == null) {
        throw new ScenarioException(file, 1, "the file is empty (expected the JSON of /api/v1/query_range)");
      }
      root = read(p);
      if (p.nextToken() != null) {
        throw new ScenarioException(file, p.currentTokenLocation().getLineNr(), "unexpected content after the JSON value");
      }
    } catch (JacksonException e) {
      int line = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getLineNr());
      throw new ScenarioException(file, line, "not valid JSON: " + e.getOriginalMessage());
    }
    Map<String, Located> body = object(file, root, "the response");
    Located status = body.get("status");
    if (status != null && !"success".equals(status.value())) {
      throw new ScenarioException(file, status.line(), "status is \"" + status.value() + "\", not \"success\"");
    }
    Map<String, Located> data = object(file, field(file, root, body, "data"), "data");
    Located type = field(file, root, data, "resultType");
    if (!"matrix".equals(type.value())) {
      throw new ScenarioException(file, type.line(), "data.resultType is \"" + type.value()
          + "\"; a load profile needs a range query's \"matrix\" (use /api/v1/query_range)");
    }
    List<Located> result = array(file, field(file, root, data, "result"), "data.result");
    List<Located> matching = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (Located series : result) {
      Map<String, Located> s = object(file, series, "a series");
      Map<String, String> labels = labels(file, s.get("metric"));
      seen.add(labels.toString());
      if (labels.entrySet().containsAll(selector.entrySet())) {
        matching.add(series);
      }
    }
    int at = field(file, root, data, "result").line();
    if (matching.isEmpty()) {
      throw new ScenarioException(file, at, result.isEmpty() ? "data.result holds no series"
          : "no series carries the labels " + new TreeMap<>(selector) + " (series: " + String.join(", ", seen) + ")");
    }
    if (matching.size() > 1) {
      throw new ScenarioException(file, at, matching.size() + " series match" + (selector.isEmpty() ? "" : " " + new TreeMap<>(selector))
          + "; choose one with series: {label: value} (series: " + String.join(", ", seen) + ")");
    }
    Map<String, Located> series = object(file, matching.get(0), "a series");
    List<Located> values = array(file, field(file, matching.get(0), series, "values"), "values");
    List<LoadProfile.Point> points = new ArrayList<>();
    double first = Double.NaN;
    double last = Double.NEGATIVE_INFINITY;
    for (Located v : values) {
      List<Located> pair = array(file, v, "a sample");
      if (pair.size() != 2) {
        throw new ScenarioException(file, v.line(), "a sample must be [<unix time>, \"<value>\"]");
      }
      double t = number(file, pair.get(0), "the sample time");
      double rate = number(file, pair.get(1), "the sample value");
      if (!Double.isFinite(rate) || rate < 0) {
        throw new ScenarioException(file, pair.get(1).line(), "the sample value must be a finite number >= 0, not "
            + pair.get(1).value());
      }
      if (Double.isNaN(first)) {
        first = t;
      }
      if (t <= last) {
        throw new ScenarioException(file, v.line(), "sample times must increase");
      }
      last = t;
      points.add(new LoadProfile.Point(t - first, rate * scale));
    }
    if (points.isEmpty()) {
      throw new ScenarioException(file, at, "the series has no samples");
    }
    return new LoadProfile.Trace(file, points);
  }

  private static Located read(JsonParser p) {
    int line = p.currentTokenLocation().getLineNr();
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Located> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          p.nextToken();
          m.put(name, read(p));
        }
        return new Located(m, line);
      }
      case START_ARRAY -> {
        List<Located> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(read(p));
        }
        return new Located(l, line);
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return new Located(p.getDoubleValue(), line);
      }
      case VALUE_STRING -> {
        return new Located(p.getString(), line);
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return new Located(t == JsonToken.VALUE_TRUE, line);
      }
      default -> {
        return new Located(null, line);
      }
    }
  }

  private static Located field(String file, Located parent, Map<String, Located> m, String name) {
    Located v = m.get(name);
    if (v == null) {
      throw new ScenarioException(file, parent.line(), "missing field \"" + name + "\"");
    }
    return v;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Located> object(String file, Located v, String what) {
    if (!(v.value() instanceof Map<?, ?> m)) {
      throw new ScenarioException(file, v.line(), what + " must be a JSON object");
    }
    return (Map<String, Located>) m;
  }

  @SuppressWarnings("unchecked")
  private static List<Located> array(String file, Located v, String what) {
    if (!(v.value() instanceof List<?> l)) {
      throw new ScenarioException(file, v.line(), what + " must be a JSON array");
    }
    return (List<Located>) l;
  }

  private static Map<String, String> labels(String file, Located metric) {
    Map<String, String> out = new TreeMap<>();
    if (metric == null) {
      return out;
    }
    for (Map.Entry<String, Located> e : object(file, metric, "metric").entrySet()) {
      out.put(e.getKey(), String.valueOf(e.getValue().value()));
    }
    return out;
  }

  private static double number(String file, Located v, String what) {
    if (v.value() instanceof Double d) {
      return d;
    }
    if (v.value() instanceof String s) {
      try {
        return Double.parseDouble(s);
      } catch (NumberFormatException e) {
        throw new ScenarioException(file, v.line(), what + " \"" + s + "\" is not a number");
      }
    }
    throw new ScenarioException(file, v.line(), what + " must be a number or a numeric string");
  }
}
