package dev.headroom.controller.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.controller.BufferController;
import dev.headroom.controller.ControllerOptions;
import dev.headroom.controller.autoscaling.AutoscalerRuntime;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.http.MetricsServer;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.controller.testing.Fixtures;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the Grafana dashboard ({@code deploy/grafana/headroom-dashboard.json}, also the chart's) queries is one
 * {@code headroom run} serves: the names come from the manager's registry after the buffer controller reconciled a
 * buffer and the autoscaler scaled up for it on the mock server, not from a list.
 */
class DashboardMetricsTest {
  static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "headroom-dashboard.json");
  static final Path CHART_COPY = Path.of("..", "deploy", "helm", "headroom", "dashboards", "headroom-dashboard.json");
  static final String GROUPS = """
      apiVersion: headroom.dev/v1alpha1
      kind: NodeGroup
      metadata:
        name: general
      spec:
        minSize: 1
        maxSize: 5
        targetSize: 1
        provisioningDelay: 0s
        template:
          status:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      """;
  /** PromQL words that are not metric names. */
  static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or",
      "unless", "offset", "inf", "nan");

  private final ApiServer api = new ApiServer();
  private Manager manager;
  @TempDir Path dir;

  @AfterEach
  void stop() {
    if (manager != null) {
      manager.close();
    }
    api.close();
  }

  @Test
  void everyMetricTheDashboardQueriesIsServed() throws Exception {
    Set<String> queried = queriedMetrics(Files.readString(DASHBOARD));
    assertThat(queried).hasSizeGreaterThan(20).contains("headroom_reconcile_duration_seconds_bucket", "headroom_function_duration_seconds_bucket");
    assertThat(Files.readString(CHART_COPY)).as("the chart's copy").isEqualTo(Files.readString(DASHBOARD));

    KubernetesClient admin = api.admin();
    admin.resource(Fixtures.podTemplate("shop", "worker", "3")).create();
    admin.resource(Fixtures.templateBuffer("shop", "spare", "worker", 3, null)).create();
    // one failed status write: an API error, then the retry succeeds
    api.dispatcher().failNext(c -> "capacitybuffers".equals(c.resource()) && "status".equals(c.subresource()), 500, 1);
    Path groups = Files.writeString(dir.resolve("groups.yaml"), GROUPS);
    ControllerOptions options = Fixtures.options("a", false, Duration.ofMinutes(5), false);
    manager = new Manager(api.client("a"), options.manager(MetricsServer.Options.PLAIN), new ApiHealth(null), new CrdWait.Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    new BufferController(manager, options, Clock.systemUTC(), Ticker.SYSTEM);
    AutoscalerRuntime.create(manager, ManagerTest.kwok(groups), Clock.systemUTC(), "a",
        new CrdWait.Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    manager.start();

    await().ignoreExceptions().atMost(Duration.ofSeconds(60)).until(() ->
        admin.resources(CapacityBuffer.class).inNamespace("shop").withName("spare").get().getStatus().getReplicas() == 3
            && servedMetrics(manager.scrape()).contains("headroom_scaled_up_nodes_total"));
    Set<String> served = servedMetrics(manager.scrape());
    assertThat(served).contains("headroom_leader", "headroom_reconcile_duration_seconds_bucket");
    Set<String> missing = new TreeSet<>(queried);
    missing.removeAll(served);
    assertThat(missing).as("queried by the dashboard, not served by headroom run").isEmpty();
  }

  /** The metric names in a Prometheus text exposition. */
  static Set<String> servedMetrics(String scrape) {
    Set<String> out = new TreeSet<>();
    for (String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = Pattern.compile("^[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(line);
      if (m.find()) {
        out.add(m.group());
      }
    }
    return out;
  }

  /** The metric names the dashboard's PromQL expressions select (functions, keywords, labels and literals left out). */
  @SuppressWarnings("unchecked")
  static Set<String> queriedMetrics(String dashboardJson) {
    Map<String, Object> d = Serialization.unmarshal(dashboardJson, Map.class);
    List<String> exprs = new ArrayList<>();
    collectExprs(d, exprs);
    Set<String> out = new TreeSet<>();
    for (String expr : exprs) {
      out.addAll(metricNames(expr));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static void collectExprs(Object node, List<String> out) {
    if (node instanceof Map<?, ?> m) {
      if (m.get("expr") instanceof String e) {
        out.add(e);
      }
      m.values().forEach(v -> collectExprs(v, out));
    } else if (node instanceof List<?> l) {
      l.forEach(v -> collectExprs(v, out));
    }
  }

  static Set<String> metricNames(String expr) {
    String s = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"") // string literals
        .replaceAll("\\{[^}]*}", " ") // label matchers
        .replaceAll("\\[[^]]*]", " ") // range selectors
        .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " "); // grouping labels
    Set<String> out = new TreeSet<>();
    Matcher m = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(s);
    while (m.find()) {
      String word = m.group();
      int after = m.end();
      while (after < s.length() && Character.isWhitespace(s.charAt(after))) {
        after++;
      }
      boolean call = after < s.length() && s.charAt(after) == '(';
      boolean number = m.start() > 0 && (Character.isDigit(s.charAt(m.start() - 1)) || s.charAt(m.start() - 1) == '.');
      if (!call && !number && !KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
        out.add(word);
      }
    }
    return out;
  }

  @Test
  void thePromqlReaderFindsMetricNamesOnly() {
    assertThat(metricNames("histogram_quantile(0.99, sum by (le) (rate(a_seconds_bucket{function=\"main\", x=~\"y{1}\"}[5m])))"))
        .containsExactly("a_seconds_bucket");
    assertThat(metricNames("time() - max(b_last{activity=\"main\"}) / on(pod) c_total offset 5m and 1e3"))
        .containsExactly("b_last", "c_total");
  }
}
