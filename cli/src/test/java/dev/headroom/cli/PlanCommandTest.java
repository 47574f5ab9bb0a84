package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code headroom plan} on the shipped examples (every number reasoned by hand in the comments) and on malformed input.
 */
class PlanCommandTest {

  static final Path EXAMPLES = Path.of("..", "examples", "plan");
  static final JsonMapper JSON = JsonMapper.builder().build();

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

  @SuppressWarnings("unchecked")
  static Map<String, Object> json(Run r) {
    assertThat(r.exit()).as(r.err()).isZero();
    return JSON.readValue(r.out(), Map.class);
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Map<String, Object> m, String key) {
    return (List<Map<String, Object>>) m.get(key);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Map<String, Object> m, String key) {
    return (Map<String, Object>) m.get(key);
  }

  /**
   * examples/plan/cluster.yaml at 08:00.
   *
   * <p>Existing capacity: general-1 has 1 CPU / 8Gi free (api-1 2 CPU + api-2 1 CPU of 4), general-2 3 CPU / 14Gi
   * (batch-1 1 CPU). Real pending pods are packed first, in input order: worker-1 (1500m) does not fit general-1,
   * fits general-2 (1.5 CPU left); worker-2 fits general-2 (0 left); worker-3, analytics-1 (40Gi), trainer-1 (GPU)
   * and huge-1 (32 CPU) fit nowhere. Then virtual pods, buffers by name: gpu-warm-1 needs a GPU (no); web-headroom
   * (50 % of 4 replicas = 2 chunks of 1 CPU / 2Gi) chunk 1 takes general-1's last CPU, chunk 2 fits nowhere.
   *
   * <p>Options over worker-3, analytics-1, trainer-1, huge-1, gpu-warm-1, web-headroom-2: general (4/16Gi) takes
   * worker-3 + web-2 on 1 node, waste (4-2.5)/4 + (16-4)/16 = 1.125; highmem (4/64Gi) takes analytics-1 first
   * (larger share), then worker-3 on the same node (3.5 CPU), web-2 on a second node: waste (8-4.5)/8 +
   * (128-44)/128 = 1.09375; gpu (8/32Gi, tainted) takes trainer-1 + gpu-warm-1 on 1 node: waste 5/8 + 20/32 = 1.25.
   * least-waste picks highmem +2, one group per loop. trainer-1 fails the templates of general and highmem (no GPU),
   * huge-1 fails general and highmem on cpu and gpu on its taint.
   */
  @Test
  void clusterExample() {
    Map<String, Object> p = json(run("plan", "-f", EXAMPLES.resolve("cluster.yaml").toString(), "--now", "2026-03-02T08:00:00Z", "-o", "json"));
    assertThat(p.get("now")).isEqualTo("2026-03-02T08:00:00Z");
    assertThat(p.get("expander")).isEqualTo("least-waste");
    assertThat(p.get("scaleUpResult")).isEqualTo("ScaleUpSuccessful");
    assertThat(list(p, "scaleUp")).containsExactly(Map.of(
        "nodeGroup", "highmem", "delta", 2, "currentSize", 0, "newTargetSize", 2, "maxSize", 5, "realPods", 2, "virtualPods", 1));
    assertThat(map(p, "pendingPods")).isEqualTo(Map.of(
        "total", 6, "onExistingNodes", 2, "onUpcomingNodes", 0, "onNewNodes", 2, "unschedulable", 2, "gated", 0, "notYetTried", 0));
    assertThat(list(p, "unschedulablePods")).containsExactly(
        Map.of("namespace", "default", "name", "trainer-1", "reason", "2 Insufficient nvidia.com/gpu"),
        Map.of("namespace", "default", "name", "huge-1", "reason", "2 Insufficient cpu, 1 node(s) had untolerated taint {nvidia.com/gpu: present}"));

    List<Map<String, Object>> buffers = list(p, "buffers");
    assertThat(buffers).extracting(b -> b.get("name")).containsExactly("gpu-warm", "web-headroom");
    Map<String, Object> gpu = buffers.get(0);
    assertThat(gpu).containsEntry("namespace", "default").containsEntry("virtualPods", 1).containsEntry("onExistingNodes", 0)
        .containsEntry("onUpcomingNodes", 0).containsEntry("onNewNodes", 0).containsEntry("unschedulable", 1);
    assertThat(list(gpu, "conditions")).extracting(c -> c.get("type") + "=" + c.get("status") + " " + c.get("reason") + ": " + c.get("message"))
        .containsExactly(
            "ReadyForProvisioning=True AttributesSetSuccessfully: ready",
            "Provisioning=True FakePodsInjected: ",
            "CapacityAvailable=False RequiresNewCapacity: 0/1 virtual pods required new capacity, 1 failed");
    Map<String, Object> web = buffers.get(1);
    assertThat(web).containsEntry("virtualPods", 2).containsEntry("onExistingNodes", 1).containsEntry("onUpcomingNodes", 0)
        .containsEntry("onNewNodes", 1).containsEntry("unschedulable", 0);
    assertThat(list(web, "conditions")).extracting(c -> c.get("type") + "=" + c.get("status") + " " + c.get("reason"))
        .containsExactly(
            "ReadyForProvisioning=True AttributesSetSuccessfully",
            "LimitedByQuotas=False ResourceQuotasAllocated",
            "Provisioning=True FakePodsInjected",
            "CapacityAvailable=False RequiresNewCapacity");
    assertThat(list(web, "conditions").get(3).get("message")).isEqualTo("1/2 virtual pods required new capacity, 0 failed");
    // A scale-up puts scale-down in cooldown for the loop.
    assertThat(list(p, "scaleDown")).isEmpty();
  }

  /**
   * examples/plan/scale-down.yaml at 08:10: nothing pending, so scale-down runs. general-1 is at 3/4 CPU (0.75 &gt; 0.5):
   * kept. general-2 is empty, unneeded since its creation at 07:00, 70 min &gt; 10 min: removed. general-3 (500m, 0.125)
   * can move api-2 to general-1 (1 CPU free) and is removable, but unneeded only since 08:05 (annotation): not yet.
   * general-4 has scale-down disabled.
   */
  @Test
  void scaleDownExample() {
    Map<String, Object> p = json(run("plan", "-f", EXAMPLES.resolve("scale-down.yaml").toString(), "--now", "2026-03-02T08:10:00Z", "-o", "json"));
    assertThat(p.get("scaleUpResult")).isEqualTo("ScaleUpNotNeeded");
    assertThat(list(p, "scaleUp")).isEmpty();
    assertThat(map(p, "pendingPods")).isEqualTo(Map.of(
        "total", 0, "onExistingNodes", 0, "onUpcomingNodes", 0, "onNewNodes", 0, "unschedulable", 0, "gated", 0, "notYetTried", 0));
    assertThat(list(p, "buffers")).isEmpty();
    assertThat(list(p, "unschedulablePods")).isEmpty();
    assertThat(list(p, "scaleDown")).containsExactly(Map.of(
        "node", "general-2", "nodeGroup", "general", "reason", "empty", "utilization", 0.0, "podsToReschedule", List.of()));
    assertThat(list(p, "unneededNodes")).extracting(n -> n.get("node") + " " + n.get("since") + " " + n.get("empty"))
        .containsExactly("general-2 2026-03-02T07:00:00Z true", "general-3 2026-03-02T08:05:00Z false");
    assertThat(list(p, "unremovableNodes")).extracting(n -> n.get("node") + " " + n.get("reason"))
        .containsExactly("general-1 NotUnderutilized", "general-4 ScaleDownDisabledAnnotation");
  }

  @Test
  void fiveMinutesLaterGeneralThreeGoesToo() {
    Map<String, Object> p = json(run("plan", "-f", EXAMPLES.resolve("scale-down.yaml").toString(), "--now", "2026-03-02T08:15:01Z", "-o", "json"));
    assertThat(list(p, "scaleDown")).extracting(d -> d.get("node") + " " + d.get("reason") + " " + d.get("podsToReschedule"))
        .containsExactly("general-2 empty []", "general-3 underutilized [default/api-2]");
  }

  @Test
  void outputIsDeterministicAndTextSummarisesTheSameFacts() {
    String[] args = {"plan", "-f", EXAMPLES.resolve("cluster.yaml").toString(), "--now", "2026-03-02T08:00:00Z"};
    Run text = run(args);
    assertThat(text.exit()).isZero();
    assertThat(run(args).out()).isEqualTo(text.out());
    assertThat(text.out()).contains(
        "Plan at 2026-03-02T08:00:00Z (expander least-waste): ScaleUpSuccessful",
        "  highmem: +2 nodes, 0 -> 2 (max 5), for 2 pending and 1 virtual pods",
        "Pending pods: 6 (2 fit existing nodes, 0 upcoming nodes, 2 new nodes; 2 unschedulable)",
        "  default/trainer-1: 2 Insufficient nvidia.com/gpu",
        "  default/web-headroom: 2 virtual pods (1 on existing nodes, 0 upcoming, 1 new; 0 unschedulable)");
  }

  @Test
  void expanderFlagChangesTheChoice() {
    // least-nodes: general and gpu need 1 node each, highmem 2. The tie between general and gpu is broken by the
    // loop's seeded random source, so only assert that a one-node option wins.
    Map<String, Object> p = json(run("plan", "-f", EXAMPLES.resolve("cluster.yaml").toString(), "--now", "2026-03-02T08:00:00Z",
        "-o", "json", "--expander", "least-nodes"));
    assertThat(list(p, "scaleUp")).singleElement().satisfies(d -> {
      assertThat(d.get("nodeGroup")).isIn("general", "gpu");
      assertThat(d.get("delta")).isEqualTo(1);
    });
    assertThat(p.get("expander")).isEqualTo("least-nodes");
  }

  /**
   * examples/plan/standby.yaml: 50 % of 6 web replicas = 3 chunks of 1 CPU on 4-CPU general nodes, one standby node;
   * the dump's suspended node is the pool (target 1), so the target stays. At 100 %: 6 chunks, 2 nodes, target 1 -> 2.
   */
  @Test
  void standbyExampleKeepsTheChunksOnTheGroupsSuspendedNodes() throws IOException {
    String file = EXAMPLES.resolve("standby.yaml").toString();
    Map<String, Object> p = json(run("plan", "-f", file, "--now", "2026-03-02T08:00:00Z", "--standby-capacity", "-o", "json"));
    Map<String, Object> standby = map(p, "standby");
    assertThat(list(standby, "nodeGroups")).containsExactly(Map.of("nodeGroup", "general", "previousTarget", 1, "target", 1,
        "suspended", 1, "preparing", 0, "chunks", 3));
    Map<String, Object> b = list(standby, "buffers").get(0);
    assertThat(b).containsEntry("name", "web-standby").containsEntry("nodeGroup", "general").containsEntry("kept", 3);
    assertThat(list(b, "conditions")).anySatisfy(c -> assertThat(c).containsEntry("type", "Provisioning")
        .containsEntry("reason", "StandbyNodesKept")
        .containsEntry("message", "3 of 3 chunks kept on standby nodes of node group general (the group keeps 1)"));
    // the suspended node is not a node of the loop
    assertThat(list(p, "unneededNodes")).extracting(m -> m.get("node")).doesNotContain("general-standby-1");
    assertThat(list(p, "scaleUp")).isEmpty();

    Path all = tmp.resolve("standby-100.yaml");
    Files.writeString(all, Files.readString(Path.of(file)).replace("percentage: 50", "percentage: 100"));
    Map<String, Object> p100 = json(run("plan", "-f", all.toString(), "--now", "2026-03-02T08:00:00Z", "--standby-capacity", "-o", "json"));
    assertThat(list(map(p100, "standby"), "nodeGroups").get(0)).containsEntry("previousTarget", 1).containsEntry("target", 2);

    // without the flag the buffer is not processed: no standby section, no virtual pods
    Map<String, Object> off = json(run("plan", "-f", file, "--now", "2026-03-02T08:00:00Z", "-o", "json"));
    assertThat(off).doesNotContainKey("standby");
    assertThat(list(off, "buffers")).isEmpty();
    Run text = run("plan", "-f", file, "--now", "2026-03-02T08:00:00Z", "--standby-capacity");
    assertThat(text.out()).contains("Standby capacity:", "general: standby target 1 -> 1 (1 suspended, 0 preparing), for 3 chunks");
  }

  @Test
  void aResumeDelayLongerThanTheProvisioningDelayIsReportedAtItsLine() throws IOException {
    Path f = tmp.resolve("slow-standby.yaml");
    Files.writeString(f, Files.readString(EXAMPLES.resolve("standby.yaml")).replace("resumeDelay: 15s", "resumeDelay: 2m"));
    Run r = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z", "--standby-capacity");
    assertThat(r.exit()).isEqualTo(1);
    int line = java.util.Arrays.asList(Files.readString(f).split("\n", -1)).indexOf("    resumeDelay: 2m") + 1;
    assertThat(r.err().trim()).isEqualTo(f + ":" + line + ": NodeGroup general: spec.standby.resumeDelay (2m0s) must not be longer "
        + "than spec.provisioningDelay (1m30s): a suspended node resumes faster than a new one starts");
  }

  @Test
  void upcomingNodesOfAGroupAreCapacity() throws IOException {
    // targetSize 3 with 2 Ready nodes: one upcoming general node (4 CPU) holds worker-3 and web-headroom-2.
    String text = Files.readString(EXAMPLES.resolve("cluster.yaml")).replace("  targetSize: 2\n", "  targetSize: 3\n");
    Path f = tmp.resolve("upcoming.yaml");
    Files.writeString(f, text);
    Map<String, Object> p = json(run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z", "-o", "json"));
    assertThat(map(p, "pendingPods")).containsEntry("onUpcomingNodes", 1);
    assertThat(list(p, "buffers").get(1)).containsEntry("onUpcomingNodes", 1).containsEntry("onNewNodes", 0);
  }

  @Test
  void aPendingPodWithoutAnyNodeGroupSaysSo() throws IOException {
    Path f = tmp.resolve("no-groups.yaml");
    Files.writeString(f, String.join("\n",
        "apiVersion: v1",
        "kind: Pod",
        "metadata: {name: worker-1, namespace: default}",
        "spec: {containers: [{name: worker, image: worker:1, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]}",
        "status: {phase: Pending, conditions: [{type: PodScheduled, status: \"False\", reason: Unschedulable}]}",
        ""));
    Map<String, Object> p = json(run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z", "-o", "json"));
    assertThat(list(p, "unschedulablePods")).containsExactly(
        Map.of("namespace", "default", "name", "worker-1", "reason", "no node groups exist"));
    Run text = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z");
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out()).contains("default/worker-1: no node groups exist");
  }

  @Test
  void badNodeGroupFieldIsReportedAtItsLine() throws IOException {
    Path f = tmp.resolve("bad.yaml");
    Files.writeString(f, String.join("\n",
        "apiVersion: headroom.dev/v1alpha1",
        "kind: NodeGroup",
        "metadata:",
        "  name: general",
        "spec:",
        "  maxSize: 3",
        "  template:",
        "    spec:",
        "      taints:",
        "        - key: a",
        "          effect: Sometimes",
        "    status:",
        "      capacity: {cpu: \"4\", memory: 16Gi}",
        ""));
    Run r = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().trim()).isEqualTo(f + ":11: NodeGroup general: spec.template.spec.taints[0].effect must be one of "
        + "NoSchedule, PreferNoSchedule, NoExecute, not \"Sometimes\"");
  }

  @Test
  void missingRequiredFieldPointsAtItsParent() throws IOException {
    Path f = tmp.resolve("missing.yaml");
    Files.writeString(f, "# groups\napiVersion: headroom.dev/v1alpha1\nkind: NodeGroup\nmetadata: {name: g}\nspec:\n  minSize: 1\n");
    Run r = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().trim()).isEqualTo(f + ":5: NodeGroup g: spec.maxSize is required");
  }

  @Test
  void badUnneededSinceAnnotationAndUnknownExpander() throws IOException {
    Path f = tmp.resolve("node.yaml");
    Files.writeString(f, String.join("\n",
        "apiVersion: v1",
        "kind: Node",
        "metadata:",
        "  name: n1",
        "  annotations:",
        "    headroom.dev/unneeded-since: yesterday",
        ""));
    Run r = run("plan", "-f", f.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().trim()).isEqualTo(f + ":6: Node n1: annotation headroom.dev/unneeded-since \"yesterday\" is not an RFC 3339 time");
    Run e = run("plan", "-f", EXAMPLES.resolve("cluster.yaml").toString(), "--expander", "cheapest");
    assertThat(e.exit()).isEqualTo(1);
    assertThat(e.err()).startsWith("headroom plan: --expander: unknown expander \"cheapest\"").contains("see 'headroom plan --help'");
  }

  /** The case: a gated pod and a pod of another scheduler that no scheduler has tried yet are not demand. */
  @Test
  void gatedAndUntriedPodsAreReportedNotScaledFor() throws IOException {
    Path f = tmp.resolve("gated.yaml");
    Files.writeString(f, String.join("\n",
        "apiVersion: headroom.dev/v1alpha1",
        "kind: NodeGroup",
        "metadata: {name: general}",
        "spec:",
        "  maxSize: 3",
        "  template:",
        "    status:",
        "      capacity: {cpu: \"4\", memory: 16Gi, pods: \"110\"}",
        "---",
        "apiVersion: v1",
        "kind: Pod",
        "metadata: {name: queued}",
        "spec:",
        "  schedulingGates: [{name: kueue.x-k8s.io/admission}]",
        "  containers: [{name: c, image: c, resources: {requests: {cpu: \"1\"}}}]",
        "status: {phase: Pending, conditions: [{type: PodScheduled, status: \"False\", reason: SchedulingGated}]}",
        "---",
        "apiVersion: v1",
        "kind: Pod",
        "metadata: {name: fresh}",
        "spec:",
        "  schedulerName: kai-scheduler",
        "  containers: [{name: c, image: c, resources: {requests: {cpu: \"1\"}}}]",
        "status: {phase: Pending}",
        ""));
    Run r = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("ScaleUpNotNeeded", "Scale-up:" + System.lineSeparator() + "  none",
        "Pending pods: 0 (", "Not demand: gated: 1, not yet tried by their scheduler: 1");
    Map<String, Object> bypassed = json(run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z", "-o", "json",
        "--bypassed-scheduler-names", "kai-scheduler"));
    assertThat(list(bypassed, "scaleUp")).singleElement().satisfies(d -> assertThat(d.get("realPods")).isEqualTo(1));
    assertThat(map(bypassed, "pendingPods")).containsEntry("total", 1).containsEntry("gated", 1).containsEntry("notYetTried", 0);
  }
  private static String probedPod(String port) {
    return String.join("\n",
        "apiVersion: v1",
        "kind: Pod",
        "metadata: {name: web-1, namespace: default}",
        "spec:",
        "  containers:",
        "  - name: web",
        "    image: nginx:1.27",
        "    livenessProbe:",
        "      httpGet:",
        "        path: /healthz",
        "        port: " + port,
        "    resources: {requests: {cpu: 500m}}",
        "");
  }

  /** kubectl prints an int-or-string (a probe's port) as a number: plan and explain read it. */
  @Test
  void anIntOrStringGivenAsANumberIsRead() throws IOException {
    Path f = tmp.resolve("probe.yaml");
    Files.writeString(f, probedPod("8080"));
    Run plan = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z");
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.err()).isEmpty();
    var explain = ExplainCommandTest.run("explain", "-f", f.toString());
    assertThat(explain.exit()).as(explain.err()).isZero();
    assertThat(explain.err()).isEmpty();
  }

  /** An int-or-string beyond int32 is refused once, at its own line, as the API server refuses it. */
  @Test
  void anIntOrStringOutOfRangeIsReportedOnceAtItsLine() throws IOException {
    Path f = tmp.resolve("probe.yaml");
    Files.writeString(f, probedPod("99999999999"));
    Run r = run("plan", "-f", f.toString(), "--now", "2026-03-02T08:00:00Z");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().trim()).isEqualTo(f + ":11: Pod web-1: integer out of range: 99999999999");
  }

  /** A pod that the checks let through but that does not convert is reported once, not by plan and again by explain. */
  @Test
  void aConversionErrorIsReportedOnce() throws Exception {
    dev.headroom.cli.input.YamlInputLoader loader = new dev.headroom.cli.input.YamlInputLoader();
    for (String buffer : List.of("", "---\napiVersion: autoscaling.x-k8s.io/v1beta1\nkind: CapacityBuffer\n"
        + "metadata: {name: b, namespace: default}\nspec: {podTemplateRef: {name: t}, replicas: 1}\n")) {
      List<dev.headroom.cli.input.InputDocument> docs = loader.parse("in.yaml", new java.io.StringReader(probedPod("99999999999") + buffer));
      Planner.Result r = new Planner(loader).plan(docs, dev.headroom.core.autoscaler.AutoscalerOptions.builder().build(),
          java.time.Instant.parse("2026-03-02T08:00:00Z"));
      assertThat(r.failed()).isTrue();
      assertThat(r.diagnostics()).as(buffer).containsExactly("in.yaml:1: invalid Pod: expected an integer or a string");
    }
  }
}
