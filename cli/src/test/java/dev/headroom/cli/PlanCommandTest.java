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
   * That was CA's per-group estimation. The provisioning pass (one group per loop by default) places them in one
   * pass instead: analytics-1 and worker-3 on one highmem node, trainer-1 + gpu-warm-1 on a gpu node, web-2 on a
   * general node; least-waste picks highmem (+1) among those three options, and web-2 and the gpu pods
   * wait for the next loop. trainer-1 fails the templates of general and highmem (no GPU),
   * huge-1 fails general and highmem on cpu and gpu on its taint.
   */
  @Test
  void clusterExample() {
    Map<String, Object> p = json(run("plan", "-f", EXAMPLES.resolve("cluster.yaml").toString(), "--now", "2026-03-02T08:00:00Z", "-o", "json"));
    assertThat(p.get("now")).isEqualTo("2026-03-02T08:00:00Z");
    assertThat(p.get("expander")).isEqualTo("least-waste");
    assertThat(p.get("scaleUpResult")).isEqualTo("ScaleUpSuccessful");
    assertThat(list(p, "scaleUp")).containsExactly(Map.of(
        "nodeGroup", "highmem", "delta", 1, "currentSize", 0, "newTargetSize", 1, "maxSize", 5, "realPods", 2, "virtualPods", 0));
    assertThat(map(p, "pendingPods")).isEqualTo(Map.of(
        "total", 6, "onExistingNodes", 2, "onUpcomingNodes", 0, "onNewNodes", 2, "unschedulable", 2));
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
        .containsEntry("onNewNodes", 0).containsEntry("unschedulable", 1);
    assertThat(list(web, "conditions")).extracting(c -> c.get("type") + "=" + c.get("status") + " " + c.get("reason"))
        .containsExactly(
            "ReadyForProvisioning=True AttributesSetSuccessfully",
            "LimitedByQuotas=False ResourceQuotasAllocated",
            "Provisioning=True FakePodsInjected",
            "CapacityAvailable=False RequiresNewCapacity");
    assertThat(list(web, "conditions").get(3).get("message")).isEqualTo("0/2 virtual pods required new capacity, 1 failed");
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
        "total", 0, "onExistingNodes", 0, "onUpcomingNodes", 0, "onNewNodes", 0, "unschedulable", 0));
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
        "  highmem: +1 nodes, 0 -> 1 (max 5), for 2 pending and 0 virtual pods",
        "Pending pods: 6 (2 fit existing nodes, 0 upcoming nodes, 2 new nodes; 2 unschedulable)",
        "  default/trainer-1: 2 Insufficient nvidia.com/gpu",
        "  default/web-headroom: 2 virtual pods (1 on existing nodes, 0 upcoming, 0 new; 1 unschedulable)");
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
    assertThat(e.err()).startsWith("--expander: unknown expander \"cheapest\"");
  }
}
