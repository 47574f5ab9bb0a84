package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** {@code headroom explain} on every shipped example (expected output written by hand) and on edge cases. */
class ExplainCommandTest {

  static final String NOW = "2026-03-02T08:30:00Z";
  static final Path EXAMPLES = Path.of("..", "examples", "buffers");

  @TempDir Path tmp;

  record Run(int exit, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.newCommandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  static String expected(String name) throws IOException {
    try (var in = ExplainCommandTest.class.getResourceAsStream("/explain/" + name + ".expected.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static Stream<Arguments> examples() {
    return Stream.of(
        Arguments.of("quickstart", 0, List.of()),
        Arguments.of("pod-template-limits", 0, List.of()),
        Arguments.of("gpu-limits", 0, List.of()),
        Arguments.of("quota-limited", 0, List.of()),
        Arguments.of("scheduled", 0, List.of()),
        Arguments.of("broken", 1, List.of(
            "examples/buffers/broken.yaml:14: CapacityBuffer default/percentage-only rejected: CapacityBuffer.autoscaling.x-k8s.io \"percentage-only\" is invalid: "
                + "spec: Invalid value: If X is set, replicas or limits must also be set",
            "examples/buffers/broken.yaml:23: CapacityBuffer default/both-refs rejected: CapacityBuffer.autoscaling.x-k8s.io \"both-refs\" is invalid: "
                + "spec: Invalid value: You must define either PodTemplateRef or ScalableRef, but not both",
            "examples/buffers/broken.yaml:36: CapacityBuffer default/negative rejected: CapacityBuffer.autoscaling.x-k8s.io \"negative\" is invalid: "
                + "[spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0, "
                + ".spec.replicas: Invalid value: -1: should be a non-negative integer]",
            "examples/buffers/broken.yaml:85: ignoring Service v1 web (explain reads CapacityBuffer, PodTemplate, Deployment, ReplicaSet, StatefulSet, "
                + "ReplicationController, Job, Pod, ResourceQuota, Namespace)")));
  }

  @ParameterizedTest(name = "explain examples/buffers/{0}.yaml")
  @MethodSource("examples")
  void examples(String name, int exit, List<String> stderr) throws IOException {
    Run r = run("explain", "-f", EXAMPLES.resolve(name + ".yaml").toString(), "--now", NOW);
    assertThat(r.exit()).isEqualTo(exit);
    assertThat(Yaml.tree(r.out())).isEqualTo(Yaml.tree(expected(name)));
    // as kubectl prints it: plain scalars unquoted, strings that would read as another type quoted
    assertThat(r.out()).contains("\n  kind: CapacityBuffer\n").doesNotContain("kind: \"");
    KubectlYaml.assertStringsReadBackAsStrings(r.out());
    assertThat(r.err().lines().map(l -> l.replace(EXAMPLES.toString(), "examples/buffers"))).containsExactlyElementsOf(stderr);
    Run json = run("explain", "-f", EXAMPLES.resolve(name + ".yaml").toString(), "--now", NOW, "-o", "json");
    assertThat(json.out().trim()).startsWith("{");
    assertThat(Yaml.tree(json.out())).isEqualTo(Yaml.tree(r.out()));
  }

  @Test
  void severalFilesAndDeterministicOutput() {
    String[] args = {"explain", "-f", EXAMPLES.resolve("quickstart.yaml").toString(), "-f", EXAMPLES.resolve("scheduled.yaml").toString(), "--now", NOW};
    Run a = run(args);
    Run b = run(args);
    assertThat(a.exit()).isZero();
    assertThat(a.out()).isEqualTo(b.out());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> items = (List<Map<String, Object>>) ((Map<String, Object>) Yaml.tree(a.out())).get("items");
    assertThat(items).extracting(i -> (Object) ((Map<?, ?>) i.get("metadata")).get("name"))
        .containsExactly((Object) "web-headroom", "office-hours", "nightly-batch",
            "capacitybuffer-web-headroom-pod-template", "capacitybuffer-office-hours-pod-template", "capacitybuffer-nightly-batch-pod-template");
  }

  Path write(String name, String text) throws IOException {
    Path f = tmp.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  @Test
  void unparsableYamlIsFileLineAndExitOne() throws IOException {
    Path f = write("bad.yaml", "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: [unclosed\n");
    Run r = run("explain", "-f", f.toString(), "--now", NOW);
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().toList()).hasSize(1);
    assertThat(r.err()).startsWith(f + ":").doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void missingFileIsReported() {
    Run r = run("explain", "-f", tmp.resolve("nope.yaml").toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().trim()).isEqualTo(tmp.resolve("nope.yaml") + ": no such file");
  }

  @Test
  void badNowIsReported() {
    Run r = run("explain", "-f", EXAMPLES.resolve("quickstart.yaml").toString(), "--now", "yesterday");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("--now");
  }

  @Test
  void objectThatDoesNotFitItsKindIsFileLine() throws IOException {
    Path f = write("typed.yaml", "apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: x\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: [1]\n");
    Run r = run("explain", "-f", f.toString(), "--now", NOW);
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().trim()).isEqualTo(f + ":11: Deployment d: expected an integer, not a list");
  }

  /** §9.19: a Deployment with live pods uses the observed replicas (7) and the newest pod's spec. */
  @Test
  void deploymentWithLivePods() throws IOException {
    Path f = write("live.yaml", """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: 10
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1, resources: {requests: {cpu: 100m}}}]
        status: {replicas: 7}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: web-a, labels: {app: web}}
        spec:
          nodeName: n1
          containers: [{name: web, image: web:1, resources: {requests: {cpu: 100m}}}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: web-b, labels: {app: web}}
        spec:
          nodeName: n2
          containers: [{name: web, image: web:2, resources: {requests: {cpu: 200m}}}]
          volumes: [{name: kube-api-access-7x2q9, projected: {sources: []}}]
        ---
        apiVersion: autoscaling.x-k8s.io/v1beta1
        kind: CapacityBuffer
        metadata: {name: b}
        spec:
          scalableRef: {apiGroup: apps, kind: Deployment, name: web}
          percentage: 10
        """);
    Run r = run("explain", "-f", f.toString(), "--now", NOW);
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> items = (List<Map<String, Object>>) ((Map<String, Object>) Yaml.tree(r.out())).get("items");
    assertThat(((Map<?, ?>) items.get(0).get("status")).get("replicas")).isEqualTo(1L);
    Map<?, ?> template = (Map<?, ?>) items.get(1).get("template");
    assertThat(template.toString()).contains("web:2").doesNotContain("kube-api-access").doesNotContain("nodeName");
  }

  @Test
  void listInputQuotaWithoutStatusAndUnstampedOrder() throws IOException {
    Path f = write("list.yaml", """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: v1
          kind: ResourceQuota
          metadata: {name: q, namespace: n}
          spec: {hard: {cpu: "3"}}
        - apiVersion: v1
          kind: PodTemplate
          metadata: {name: t, namespace: n}
          template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]}}
        - apiVersion: autoscaling.x-k8s.io/v1alpha1
          kind: CapacityBuffer
          metadata: {name: zz, namespace: n}
          spec: {podTemplateRef: {name: t}, replicas: 2}
        - apiVersion: autoscaling.x-k8s.io/v1beta1
          kind: CapacityBuffer
          metadata: {name: aa, namespace: n}
          spec: {podTemplateRef: {name: t}, replicas: 2}
        """);
    Run r = run("explain", "-f", f.toString(), "--now", NOW);
    assertThat(r.exit()).isZero();
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> items = (List<Map<String, Object>>) ((Map<String, Object>) Yaml.tree(r.out())).get("items");
    assertThat(items.get(0).get("apiVersion")).as("v1alpha1 input is printed as v1beta1").isEqualTo("autoscaling.x-k8s.io/v1beta1");
    List<Object> replicas = new ArrayList<>();
    items.subList(0, 2).forEach(i -> replicas.add(((Map<?, ?>) i.get("status")).get("replicas")));
    assertThat(replicas).as("zz appears first, so it reserves first").containsExactly(2L, 1L);
    assertThat(((Map<?, ?>) items.get(0).get("metadata")).containsKey("creationTimestamp")).isFalse();
  }
}
