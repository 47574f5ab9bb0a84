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

/**
 * {@code headroom plan} with ProvisioningRequests: examples/plan/provisioning-request.yaml (arithmetic in its comments);
 * the conditions are the Cluster Autoscaler's (core's {@code ProvisioningConditions}).
 */
class PlanProvisioningRequestTest {
  static final String NOW = "2026-03-02T08:00:00Z";
  static final Path EXAMPLE = EXAMPLES.resolve("provisioning-request.yaml");

  @TempDir Path tmp;

  private Path variant(String from, String to) throws IOException {
    String text = Files.readString(EXAMPLE);
    assertThat(text).contains(from);
    Path f = tmp.resolve("variant.yaml");
    Files.writeString(f, text.replace(from, to));
    return f;
  }

  private static Map<String, Object> plan(Path f) {
    return json(PlanCommandTest.run("plan", "-f", f.toString(), "--now", NOW, "-o", "json"));
  }

  @SuppressWarnings("unchecked")
  private static List<String> requests(Map<String, Object> p) {
    return list(p, "provisioningRequests").stream().map(r -> {
      StringBuilder sb = new StringBuilder(r.get("request") + " " + r.get("action"));
      for (Map<String, Object> c : (List<Map<String, Object>>) r.get("conditions")) {
        sb.append(" | ").append(c.get("type")).append('=').append(c.get("status")).append(' ').append(c.get("reason"))
            .append(": ").append(c.get("message"));
      }
      return sb.toString();
    }).toList();
  }

  @Test
  void theBookingHoldsCapacityTheBrokenRequestFailsAndTheTrainingJobScalesUpAllOrNothing() {
    Map<String, Object> p = plan(EXAMPLE);
    assertThat(list(p, "scaleUp")).containsExactly(Map.of(
        "nodeGroup", "cpu", "delta", 2, "currentSize", 1, "newTargetSize", 3, "maxSize", 3, "realPods", 4, "virtualPods", 0));
    assertThat(requests(p)).containsExactly(
        "default/reserved BOOKED",
        "default/broken INVALID | Failed=True FailedToCreatePods: missing pod templates, 1 pod templates were referenced, "
            + "1 templates were missing: no-such-template",
        "default/train SCALING_UP | Accepted=True Accepted: ProvisioningRequest is accepted by ClusterAutoscaler"
            + " | Provisioned=True CapacityIsProvisioned: Capacity is found in the cluster",
        "default/probe WAITING");
    assertThat(list(p, "podGroups")).singleElement().satisfies(g -> {
      assertThat(g).containsEntry("source", "provisioning request").containsEntry("name", "train")
          .containsEntry("minMember", 4).containsEntry("status", "ScaledUp");
    });
  }

  @Test
  void withRoomForOnlyHalfOfItTheJobGetsNoNodeAndWillBeRetried() throws IOException {
    Map<String, Object> p = plan(variant("  maxSize: 3\n", "  maxSize: 2\n"));
    assertThat(list(p, "scaleUp")).isEmpty();
    assertThat(requests(p)).contains("default/train SCALING_UP | Accepted=True Accepted: ProvisioningRequest is accepted by "
        + "ClusterAutoscaler | Provisioned=False CapacityIsNotFound: Capacity is not found, CA will try to find it later.");
  }

  @Test
  void withoutTheBookingTheProbeFitsAfterTheJob() throws IOException {
    // the booking expired (provisioned 11 minutes ago): BookingExpired, and its 2 CPUs are free again
    Map<String, Object> p = plan(variant("lastTransitionTime: \"2026-03-02T07:58:00Z\"}\n---",
        "lastTransitionTime: \"2026-03-02T07:49:00Z\"}\n---"));
    assertThat(requests(p).get(0)).isEqualTo("default/reserved DONE | BookingExpired=True CapacityReservationTimeExpired: "
        + "Capacity reservation time is expired");
  }

  @Test
  void theTextReportHasASectionPerRequest() {
    PlanCommandTest.Run r = PlanCommandTest.run("plan", "-f", EXAMPLE.toString(), "--now", NOW);
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("ProvisioningRequests:",
        "  default/reserved (check-capacity.autoscaling.x-k8s.io): provisioned, capacity booked (0 of 2 pods scheduled)",
        "  default/train (best-effort-atomic-scale-up.autoscaling.x-k8s.io): scaled up for all-or-nothing (ScaledUp)",
        "    Provisioned=True CapacityIsProvisioned: Capacity is found in the cluster",
        "  default/probe (check-capacity.autoscaling.x-k8s.io): waiting (one request is taken up per loop)");
  }

  @Test
  void malformedRequestsAreReportedAtTheirFieldsLine() throws IOException {
    Path f = variant("    count: 4\n", "    count: 0\n");
    PlanCommandTest.Run r = PlanCommandTest.run("plan", "-f", f.toString(), "--now", NOW);
    assertThat(r.exit()).isEqualTo(1);
    int line = Files.readAllLines(f).indexOf("    count: 0") + 1;
    assertThat(r.err()).contains(f + ":" + line
        + ": ProvisioningRequest train: spec.podSets[0].count must be an integer of at least 1, not 0");
    Path noClass = variant("  provisioningClassName: check-capacity.autoscaling.x-k8s.io\n  podSets:\n  - podTemplateRef: {name: worker}\n    count: 1\n",
        "  podSets:\n  - podTemplateRef: {name: worker}\n    count: 1\n");
    PlanCommandTest.Run r2 = PlanCommandTest.run("plan", "-f", noClass.toString(), "--now", NOW);
    assertThat(r2.err()).contains("ProvisioningRequest probe: spec.provisioningClassName is required");
  }

  @Test
  void theDeprecatedV1beta1IsReadAsV1() throws IOException {
    Map<String, Object> p = plan(variant("apiVersion: autoscaling.x-k8s.io/v1\nkind: ProvisioningRequest\nmetadata:\n  name: probe",
        "apiVersion: autoscaling.x-k8s.io/v1beta1\nkind: ProvisioningRequest\nmetadata:\n  name: probe"));
    assertThat(requests(p)).contains("default/probe WAITING");
  }
}
