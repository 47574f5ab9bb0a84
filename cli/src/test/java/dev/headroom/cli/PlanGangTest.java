package dev.headroom.cli;

import static dev.headroom.cli.PlanCommandTest.EXAMPLES;
import static dev.headroom.cli.PlanCommandTest.json;
import static dev.headroom.cli.PlanCommandTest.list;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom plan} with pod groups and gang buffers: examples/plan/gang.yaml and gang-buffer.yaml (arithmetic in their comments). */
class PlanGangTest {

  static final String NOW = "2026-03-02T08:00:00Z";

  @TempDir Path tmp;

  private Path variant(String example, String from, String to) throws IOException {
    String text = Files.readString(EXAMPLES.resolve(example));
    assertThat(text).contains(from);
    Path f = tmp.resolve("variant-" + example);
    Files.writeString(f, text.replace(from, to));
    return f;
  }

  private static Map<String, Object> plan(Path f, String... extra) {
    String[] args = new String[6 + extra.length];
    System.arraycopy(new String[] {"plan", "-f", f.toString(), "--now", NOW, "-o"}, 0, args, 0, 6);
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[6] = "json";
    System.arraycopy(extra, 0, all, 7, extra.length);
    return json(PlanCommandTest.run(all));
  }

  private static List<String> groups(Map<String, Object> p) {
    return list(p, "podGroups").stream()
        .map(g -> g.get("name") + " " + g.get("source") + " " + g.get("status") + " " + g.get("placed") + "/" + g.get("minMember")
            + (g.get("limit").toString().isEmpty() ? "" : ": " + g.get("limit")))
        .toList();
  }

  @Test
  void theJobFitsWithOneNewNode() {
    Map<String, Object> p = plan(EXAMPLES.resolve("gang.yaml"));
    assertThat(list(p, "scaleUp")).containsExactly(Map.of(
        "nodeGroup", "gpu-a", "delta", 1, "currentSize", 1, "newTargetSize", 2, "maxSize", 3, "realPods", 2, "virtualPods", 0));
    assertThat(groups(p)).containsExactly(
        "train coscheduling ScaledUp 4/4",
        "eval volcano Blocked 2/3: only 2 of 3 members exist");
    assertThat(list(p, "unschedulablePods")).isEmpty();
  }

  @Test
  void blockedByMaxSize() throws IOException {
    Map<String, Object> p = plan(variant("gang.yaml", "  maxSize: 3\n", "  maxSize: 1\n"));
    assertThat(p.get("scaleUpResult")).isEqualTo("ScaleUpNoOptionsAvailable");
    assertThat(list(p, "scaleUp")).isEmpty();
    String limit = "node group maxSize reached: gpu-a (maxSize 1), gpu-b (maxSize 1)";
    assertThat(groups(p)).first().isEqualTo("train coscheduling Blocked 2/4: " + limit);
    assertThat(list(p, "unschedulablePods")).extracting(u -> u.get("name") + ": " + u.get("reason")).containsExactly(
        "train-2: pod group default/train (coscheduling, minMember 4): 2 of 4 members would get capacity, so none is requested: " + limit,
        "train-3: pod group default/train (coscheduling, minMember 4): 2 of 4 members would get capacity, so none is requested: " + limit);
    Run text = run("plan", "-f", variant("gang.yaml", "  maxSize: 3\n", "  maxSize: 1\n").toString(), "--now", NOW);
    assertThat(text.out()).contains("Pod groups (all-or-nothing):",
        "  default/train (coscheduling, minMember 4): Blocked, 2 of 4 members placed (0 running); none requested: " + limit);
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    PlanCommandTest.Run r = PlanCommandTest.run(args);
    return new Run(r.exit(), r.out(), r.err());
  }

  @Test
  void aGangBufferInOneZoneAndOneBlockedByQuota() {
    Map<String, Object> p = plan(EXAMPLES.resolve("gang-buffer.yaml"));
    assertThat(list(p, "scaleUp")).containsExactly(Map.of(
        "nodeGroup", "gpu-a", "delta", 1, "currentSize", 1, "newTargetSize", 2, "maxSize", 3, "realPods", 0, "virtualPods", 1));
    assertThat(groups(p)).containsExactly(
        "pair gang buffer ScaledUp 2/2",
        "quad gang buffer Blocked 1/4: limited by quotas (Buffer replicas limited from 4 to 1 due to quotas: compute)");
    List<Map<String, Object>> buffers = list(p, "buffers");
    assertThat(buffers.get(0)).containsEntry("name", "pair").containsEntry("onExistingNodes", 1).containsEntry("onNewNodes", 1);
    assertThat(capacity(buffers.get(0))).isEqualTo("False RequiresNewCapacity: 1/2 virtual pods required new capacity, 0 failed");
    // free room of gpu-1 and gpu-2 for a 2 CPU / 8Gi / 1 GPU chunk: one GPU each, so 2 chunks on nodes and 2 pooled
    assertThat(buffers.get(0).get("freeRoom")).isEqualTo(Map.of("pooled", 2, "onNodes", 2, "fragmented", 0));
    assertThat(capacity(buffers.get(1))).isEqualTo("False GangDoesNotFit: The virtual pods of this gang buffer do not fit as one group: "
        + "pod group ml/quad (gang buffer, minMember 4): 1 of 1 members would get capacity, so none is requested: "
        + "limited by quotas (Buffer replicas limited from 4 to 1 due to quotas: compute)");
  }

  @Test
  void withoutTheTopologyKeyThePairFitsTheFreeGpusOfBothZones() throws IOException {
    Map<String, Object> p = plan(variant("gang-buffer.yaml", "    headroom.dev/gang-topology-key: topology.kubernetes.io/zone\n", ""));
    assertThat(list(p, "scaleUp")).isEmpty();
    assertThat(groups(p)).first().isEqualTo("pair gang buffer Fits 2/2");
    assertThat(capacity(list(p, "buffers").get(0))).isEqualTo("True FitsExistingCapacity: All 2 virtual pods fit on existing capacity");
  }

  @Test
  void oneZoneBlockedWhenTheZoneIsFull() throws IOException {
    // gpu-a at its maxSize: the second chunk cannot join the first in zone-a (gpu-b, in zone-b, is no candidate)
    Map<String, Object> p = plan(variant("gang-buffer.yaml", "  maxSize: 3\n", "  maxSize: 1\n"));
    assertThat(list(p, "scaleUp")).isEmpty();
    assertThat(groups(p)).first().isEqualTo("pair gang buffer Blocked 1/2: node group maxSize reached: gpu-a (maxSize 1)");
    assertThat(capacity(list(p, "buffers").get(0))).startsWith("False GangDoesNotFit: ");
  }

  @Test
  void aPodGroupWithoutMinMemberIsReportedAtItsLine() throws IOException {
    Path f = tmp.resolve("bad.yaml");
    Files.writeString(f, "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: g}\nspec:\n  minMember: 0\n");
    Run r = run("plan", "-f", f.toString(), "--now", NOW);
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().trim()).isEqualTo(f + ":5: PodGroup g: spec.minMember must be a positive integer, not 0");
  }

  @SuppressWarnings("unchecked")
  private static String capacity(Map<String, Object> buffer) {
    return ((List<Map<String, Object>>) buffer.get("conditions")).stream().filter(c -> c.get("type").equals("CapacityAvailable"))
        .map(c -> c.get("status") + " " + c.get("reason") + ": " + c.get("message")).findFirst().orElseThrow();
  }
}
