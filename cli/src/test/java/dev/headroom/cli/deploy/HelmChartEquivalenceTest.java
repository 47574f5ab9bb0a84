package dev.headroom.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.headroom.cli.RunCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import picocli.CommandLine;

/**
 * The Helm chart under {@code deploy/helm/headroom} installs what the kustomize manifests in {@code deploy/} install.
 *
 * <p>{@code deploy/helm/test} renders the chart with {@code helm template} (defaults, and once with
 * {@code podDryRun.enabled=false,serviceMonitor.enabled=true}) and passes the files as the system properties
 * {@value #RENDERED} and {@value #RENDERED_VARIANT}; without them (a plain {@code ./mvnw verify}, which has no helm)
 * the test is skipped.
 */
class HelmChartEquivalenceTest {
  static final String RENDERED = "headroom.helm.rendered";
  static final String RENDERED_VARIANT = "headroom.helm.rendered.variant";
  static final Path DEPLOY = Path.of("..", "deploy");
  static final String NAMESPACE = "headroom-system";

  static Map<String, Map<String, Object>> kustomize;
  static Map<String, Map<String, Object>> chart;
  static Map<String, Map<String, Object>> variant;

  @BeforeAll
  static void load() throws IOException {
    String rendered = System.getProperty(RENDERED);
    assumeTrue(rendered != null && !rendered.isBlank(), "no rendered chart (run deploy/helm/test)");
    kustomize = kustomize();
    chart = byKindAndName(documents(Files.readString(Path.of(rendered))));
    String v = System.getProperty(RENDERED_VARIANT);
    variant = v == null || v.isBlank() ? null : byKindAndName(documents(Files.readString(Path.of(v))));
  }

  /** The kustomization's resources, with its {@code images} tag applied. */
  @SuppressWarnings("unchecked")
  static Map<String, Map<String, Object>> kustomize() throws IOException {
    Map<String, Object> k = (Map<String, Object>) documents(Files.readString(DEPLOY.resolve("kustomization.yaml"))).get(0);
    List<Map<String, Object>> docs = new ArrayList<>();
    for (Object r : (List<Object>) k.get("resources")) {
      docs.addAll(documents(Files.readString(DEPLOY.resolve((String) r))));
    }
    Map<String, String> tags = new LinkedHashMap<>();
    for (Map<String, Object> image : (List<Map<String, Object>>) k.getOrDefault("images", List.of())) {
      tags.put((String) image.get("name"), String.valueOf(image.get("newTag")));
    }
    for (Map<String, Object> d : docs) {
      if ("Deployment".equals(d.get("kind"))) {
        for (Map<String, Object> c : containers(d)) {
          String image = (String) c.get("image");
          String name = image.contains(":") ? image.substring(0, image.indexOf(':')) : image;
          if (tags.containsKey(name)) {
            c.put("image", name + ":" + tags.get(name));
          }
        }
      }
    }
    return byKindAndName(docs);
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> documents(String text) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object o : new Load(LoadSettings.builder().build()).loadAllFromString(text)) {
      if (o instanceof Map<?, ?> m && m.get("kind") != null) {
        out.add((Map<String, Object>) m);
      }
    }
    return out;
  }

  static Map<String, Map<String, Object>> byKindAndName(List<Map<String, Object>> docs) {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    for (Map<String, Object> d : docs) {
      String key = d.get("kind") + "/" + map(d, "metadata").get("name");
      assertThat(out.put(key, d)).as("duplicate " + key).isNull();
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v == null ? Map.of() : (Map<String, Object>) v;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> path(Map<String, Object> m, String... keys) {
    Map<String, Object> cur = m;
    for (String k : keys) {
      cur = map(cur, k);
    }
    return cur;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> containers(Map<String, Object> deployment) {
    return (List<Map<String, Object>>) path(deployment, "spec", "template", "spec").get("containers");
  }

  @SuppressWarnings("unchecked")
  static Set<String> ruleTriples(Map<String, Object> role) {
    Set<String> out = new TreeSet<>();
    for (Map<String, Object> rule : (List<Map<String, Object>>) role.getOrDefault("rules", List.of())) {
      for (Object url : (List<Object>) rule.getOrDefault("nonResourceURLs", List.of())) {
        for (Object v : (List<Object>) rule.get("verbs")) {
          out.add("url:" + url + ":" + v);
        }
      }
      for (Object g : (List<Object>) rule.getOrDefault("apiGroups", List.of())) {
        for (Object r : (List<Object>) rule.get("resources")) {
          for (Object v : (List<Object>) rule.get("verbs")) {
            out.add(g + "/" + r + ":" + v);
          }
        }
      }
    }
    return out;
  }

  @Test
  void theChartRendersTheSameObjectsAsTheKustomization() {
    Set<String> expected = new TreeSet<>(kustomize.keySet());
    // Helm creates the release namespace itself (helm install --create-namespace)
    expected.remove("Namespace/" + NAMESPACE);
    assertThat(new TreeSet<>(chart.keySet())).isEqualTo(expected);
    for (String key : expected) {
      Map<String, Object> k = map(kustomize.get(key), "metadata");
      Map<String, Object> c = map(chart.get(key), "metadata");
      assertThat(c.get("namespace")).as(key + " namespace").isEqualTo(k.get("namespace"));
      assertThat(map(c, "labels")).as(key + " labels").containsAllEntriesOf(map(k, "labels"));
      assertThat(chart.get(key).get("apiVersion")).as(key + " apiVersion").isEqualTo(kustomize.get(key).get("apiVersion"));
    }
  }

  @Test
  void theCrdIsTheGeneratedOne() {
    String key = "CustomResourceDefinition/capacitybuffers.autoscaling.x-k8s.io";
    assertThat(chart.get(key)).isEqualTo(kustomize.get(key));
  }

  @Test
  void rbacRulesRoleRefsAndSubjectsAreTheSame() {
    for (String key : kustomize.keySet()) {
      Map<String, Object> k = kustomize.get(key);
      Map<String, Object> c = chart.get(key);
      switch ((String) k.get("kind")) {
        case "ClusterRole", "Role" -> {
          assertThat(ruleTriples(c)).as(key).isEqualTo(ruleTriples(k));
          assertThat(c.get("aggregationRule")).as(key).isEqualTo(k.get("aggregationRule"));
          if (k.get("aggregationRule") == null) {
            assertThat(ruleTriples(c)).as(key).isNotEmpty();
          }
        }
        case "ClusterRoleBinding", "RoleBinding" -> {
          assertThat(c.get("roleRef")).as(key).isEqualTo(k.get("roleRef"));
          assertThat(c.get("subjects")).as(key).isEqualTo(k.get("subjects"));
        }
        default -> { }
      }
    }
  }

  @Test
  void theAggregatedRoleHasNoRulesOfItsOwn() {
    assertThat(chart.get("ClusterRole/headroom-controller-scalable-kinds").get("rules")).isEqualTo(List.of());
  }

  @Test
  @SuppressWarnings("unchecked")
  void theDeploymentRunsTheSameControllerPods() {
    Map<String, Object> k = kustomize.get("Deployment/headroom-controller");
    Map<String, Object> c = chart.get("Deployment/headroom-controller");
    assertThat(map(c, "spec").get("replicas")).isEqualTo(map(k, "spec").get("replicas")).isEqualTo(2);
    Map<String, Object> kSelector = path(k, "spec", "selector", "matchLabels");
    Map<String, Object> cSelector = path(c, "spec", "selector", "matchLabels");
    assertThat(cSelector).containsAllEntriesOf(kSelector);
    assertThat(path(c, "spec", "template", "metadata", "labels")).containsAllEntriesOf(cSelector);
    assertThat(path(c, "spec", "template", "metadata", "annotations")).isEqualTo(path(k, "spec", "template", "metadata", "annotations"));

    Map<String, Object> kPod = path(k, "spec", "template", "spec");
    Map<String, Object> cPod = path(c, "spec", "template", "spec");
    for (String field : List.of("serviceAccountName", "terminationGracePeriodSeconds", "priorityClassName", "securityContext", "volumes")) {
      assertThat(cPod.get(field)).as(field).isEqualTo(kPod.get(field));
    }
    // anti-affinity between the replicas: the same term, selecting (at least) the same pods
    Map<String, Object> kTerm = antiAffinityTerm(kPod);
    Map<String, Object> cTerm = antiAffinityTerm(cPod);
    assertThat(cTerm.get("topologyKey")).isEqualTo(kTerm.get("topologyKey")).isEqualTo("kubernetes.io/hostname");
    assertThat(path(cTerm, "labelSelector", "matchLabels")).isEqualTo(cSelector);

    List<Map<String, Object>> kc = containers(k);
    List<Map<String, Object>> cc = containers(c);
    assertThat(cc).hasSize(1).hasSameSizeAs(kc);
    for (String field : List.of("name", "image", "imagePullPolicy", "ports", "livenessProbe", "readinessProbe", "resources",
        "securityContext", "volumeMounts")) {
      assertThat(cc.get(0).get(field)).as(field).isEqualTo(kc.get(0).get(field));
    }
    List<String> kArgs = (List<String>) kc.get(0).get("args");
    List<String> cArgs = (List<String>) cc.get(0).get("args");
    assertThat(cArgs.get(0)).isEqualTo("run");
    assertThat(cArgs).containsAll(kArgs);
    // anything the chart passes beyond the kustomization is the flag's own default
    CommandLine.Model.CommandSpec run = new CommandLine(new RunCommand()).getCommandSpec();
    for (String arg : cArgs.subList(1, cArgs.size())) {
      if (kArgs.contains(arg)) {
        continue;
      }
      String[] kv = arg.split("=", 2);
      CommandLine.Model.OptionSpec option = run.findOption(kv[0]);
      assertThat(option).as(arg).isNotNull();
      assertThat(option.defaultValue()).as(arg + " is the default").isEqualTo(kv[1]);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> antiAffinityTerm(Map<String, Object> pod) {
    List<Map<String, Object>> preferred = (List<Map<String, Object>>) path(pod, "affinity", "podAntiAffinity")
        .get("preferredDuringSchedulingIgnoredDuringExecution");
    assertThat(preferred).hasSize(1);
    assertThat(preferred.get(0).get("weight")).isEqualTo(100);
    return map(preferred.get(0), "podAffinityTerm");
  }

  @Test
  void theServiceAndTheDisruptionBudgetSelectTheControllerPods() {
    Map<String, Object> podLabels = path(chart.get("Deployment/headroom-controller"), "spec", "template", "metadata", "labels");
    Map<String, Object> ks = chart.get("Service/headroom-controller-metrics");
    assertThat(map(ks, "spec").get("ports")).isEqualTo(map(kustomize.get("Service/headroom-controller-metrics"), "spec").get("ports"));
    assertThat(podLabels).containsAllEntriesOf(path(ks, "spec", "selector"));
    assertThat(path(ks, "spec", "selector")).containsAllEntriesOf(path(kustomize.get("Service/headroom-controller-metrics"), "spec", "selector"));
    Map<String, Object> pdb = chart.get("PodDisruptionBudget/headroom-controller");
    assertThat(map(pdb, "spec").get("minAvailable")).isEqualTo(map(kustomize.get("PodDisruptionBudget/headroom-controller"), "spec").get("minAvailable")).isEqualTo(1);
    assertThat(podLabels).containsAllEntriesOf(path(pdb, "spec", "selector", "matchLabels"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void withoutPodDryRunThePodsCreateRuleIsGoneAndTheFlagIsOff() {
    assumeTrue(variant != null, "no variant rendering");
    Set<String> full = ruleTriples(chart.get("ClusterRole/headroom-controller"));
    Set<String> reduced = ruleTriples(variant.get("ClusterRole/headroom-controller"));
    Set<String> removed = new HashSet<>(full);
    removed.removeAll(reduced);
    assertThat(removed).containsExactly("/pods:create");
    assertThat(full).containsAll(reduced);
    List<String> args = (List<String>) containers(variant.get("Deployment/headroom-controller")).get(0).get("args");
    assertThat(args).contains("--capacity-buffer-pod-dry-run-enabled=false").doesNotContain("--capacity-buffer-pod-dry-run-enabled=true");
    // the optional ServiceMonitor scrapes the metrics Service's http port
    Map<String, Object> sm = variant.get("ServiceMonitor/headroom-controller");
    assertThat(sm).isNotNull();
    assertThat(map(sm, "metadata").get("namespace")).isEqualTo(NAMESPACE);
    Map<String, Object> serviceLabels = map(map(variant.get("Service/headroom-controller-metrics"), "metadata"), "labels");
    assertThat(serviceLabels).containsAllEntriesOf(path(sm, "spec", "selector", "matchLabels"));
    List<Map<String, Object>> endpoints = (List<Map<String, Object>>) map(sm, "spec").get("endpoints");
    assertThat(endpoints).singleElement().satisfies(e -> {
      assertThat(e.get("port")).isEqualTo("metrics");
      assertThat(e.get("path")).isEqualTo("/metrics");
      assertThat(e.get("scheme")).isEqualTo("https");
      assertThat(e.get("bearerTokenFile")).isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount/token");
    });
    assertThat(chart).doesNotContainKey("ServiceMonitor/headroom-controller");
  }

  @Test
  @SuppressWarnings("unchecked")
  void metricsAreServedOverHttpsWithTheReviewRolesAndAReaderRole() {
    Map<String, Object> d = chart.get("Deployment/headroom-controller");
    List<String> args = (List<String>) containers(d).get(0).get("args");
    assertThat(args).contains("--metrics-secure=true", "--metrics-port=8443");
    assertThat((List<Map<String, Object>>) containers(d).get(0).get("ports")).extracting(p -> p.get("name"), p -> p.get("containerPort"))
        .contains(org.assertj.core.groups.Tuple.tuple("metrics", 8443));
    assertThat(path(d, "spec", "template", "metadata", "annotations")).containsEntry("prometheus.io/scheme", "https")
        .containsEntry("prometheus.io/port", "8443");
    assertThat(ruleTriples(chart.get("ClusterRole/headroom-controller-metrics-auth")))
        .containsExactly("authentication.k8s.io/tokenreviews:create", "authorization.k8s.io/subjectaccessreviews:create");
    assertThat(path(chart.get("ClusterRoleBinding/headroom-controller-metrics-auth"), "roleRef").get("name")).isEqualTo("headroom-controller-metrics-auth");
    assertThat(ruleTriples(chart.get("ClusterRole/headroom-controller-metrics-reader"))).containsExactly("url:/metrics:get");
    assertThat((List<Map<String, Object>>) map(chart.get("Service/headroom-controller-metrics"), "spec").get("ports"))
        .singleElement().satisfies(p -> assertThat(p.get("targetPort")).isEqualTo("metrics"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOptionalDashboardConfigMapHoldsTheDashboardWithTheSidecarLabel() throws IOException {
    assumeTrue(variant != null, "no variant rendering");
    assertThat(chart).doesNotContainKey("ConfigMap/headroom-controller-dashboard");
    Map<String, Object> cm = variant.get("ConfigMap/headroom-controller-dashboard");
    assertThat(cm).isNotNull();
    assertThat(map(map(cm, "metadata"), "labels")).containsEntry("grafana_dashboard", "1");
    String json = (String) map(cm, "data").get("headroom-dashboard.json");
    assertThat(json.strip()).isEqualTo(Files.readString(DEPLOY.resolve("grafana/headroom-dashboard.json")).strip());
  }

  @Test
  @SuppressWarnings("unchecked")
  void theAutoscalerRoleHasTheRulesOfTheKustomizeExampleAndIsAggregated() throws IOException {
    assumeTrue(variant != null, "no variant rendering");
    Map<String, Object> example = byKindAndName(documents(Files.readString(DEPLOY.resolve("examples/autoscaler-rbac.yaml"))))
        .get("ClusterRole/headroom-autoscaler");
    Map<String, Object> role = variant.get("ClusterRole/headroom-controller-autoscaler");
    assertThat(role).isNotNull();
    assertThat(ruleTriples(role)).isEqualTo(ruleTriples(example)).contains("scheduling.x-k8s.io/podgroups:watch",
        "scheduling.volcano.sh/podgroups:list");
    Map<String, Object> selector = ((List<Map<String, Object>>) path(chart.get("ClusterRole/headroom-controller-scalable-kinds"),
        "aggregationRule").get("clusterRoleSelectors")).get(0);
    assertThat(map(map(role, "metadata"), "labels")).containsAllEntriesOf(map(selector, "matchLabels"));
    assertThat(chart).doesNotContainKey("ClusterRole/headroom-controller-autoscaler");
  }
}
