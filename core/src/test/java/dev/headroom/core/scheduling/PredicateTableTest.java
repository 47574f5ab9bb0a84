package dev.headroom.core.scheduling;

import static dev.headroom.core.scheduling.Fixtures.node;
import static dev.headroom.core.scheduling.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One table per predicate of autoscaler spec §2.3. */
class PredicateTableTest {

  private final SchedulingCompiler compiler = new SchedulingCompiler();
  private final ClusterSnapshot snapshot = new ClusterSnapshot(compiler);

  private int add(Node n) {
    return snapshot.addNode(compiler.compile(n));
  }

  private FitResult check(Pod p, int node) {
    return snapshot.check(compiler.compile(p), node);
  }

  private static String message(FitResult r) {
    return r instanceof FitResult.Fails f ? f.message() : "fits";
  }

  @Test
  void nodeUnschedulableUnlessTolerated() {
    int n = add(node("n1", "4", "8Gi", 110).editSpec().withUnschedulable(true).endSpec().build());
    assertThat(message(check(Fixtures.simplePod("p"), n))).isEqualTo("node(s) were unschedulable");
    Pod tolerant =
        pod("t", "100m", "1Mi").editSpec().addNewToleration().withKey("node.kubernetes.io/unschedulable")
            .withOperator("Exists").withEffect("NoSchedule").endToleration().endSpec().build();
    assertThat(check(tolerant, n).fits()).isTrue();
  }

  @Test
  void nodeName() {
    int n = add(node("n1", "4", "8Gi", 110).build());
    assertThat(check(pod("p", "1m", "1Mi").editSpec().withNodeName("n2").endSpec().build(), n))
        .isEqualTo(new FitResult.Fails(Reason.NODE_NAME, "node(s) didn't match the requested node name"));
    assertThat(check(pod("p", "1m", "1Mi").editSpec().withNodeName("n1").endSpec().build(), n).fits()).isTrue();
  }

  @ParameterizedTest(name = "taint {0}={1}:{2} vs toleration key={3} op={4} value={5} effect={6} -> {7}")
  @CsvSource({
    // taint key, value, effect, toleration key, operator, value, effect, fits
    "k, v, NoSchedule, k, Equal, v, NoSchedule, true",
    "k, v, NoSchedule, k, Equal, w, NoSchedule, false",
    "k, v, NoSchedule, k, '', v, '', true",
    "k, v, NoSchedule, k, Exists, '', '', true",
    "k, v, NoSchedule, '', Exists, '', '', true",
    "k, v, NoSchedule, '', Equal, v, '', false",
    "k, v, NoSchedule, other, Exists, '', '', false",
    "k, v, NoSchedule, k, Exists, '', NoExecute, false",
    "k, v, NoExecute, k, Exists, '', NoExecute, true",
    "k, v, NoExecute, k, Equal, v, NoSchedule, false",
    "k, v, PreferNoSchedule, other, Exists, '', '', true",
    "k, '', NoSchedule, k, Equal, '', '', true",
  })
  void taintToleration(
      String tk, String tv, String te, String key, String op, String value, String effect, boolean fits) {
    int n = add(Fixtures.taintedNode("n1", List.of(new Taint(te, tk, null, tv))));
    Toleration t = new Toleration(effect.isEmpty() ? null : effect, key.isEmpty() ? null : key,
        op.isEmpty() ? null : op, null, value.isEmpty() ? null : value);
    Pod p = pod("p", "1m", "1Mi").editSpec().withTolerations(t).endSpec().build();
    FitResult r = check(p, n);
    assertThat(r.fits()).isEqualTo(fits);
    if (!fits) {
      assertThat(message(r)).isEqualTo("node(s) had untolerated taint {" + tk + ": " + tv + "}");
    }
  }

  @ParameterizedTest(name = "label {0} {1} {2} -> {3}")
  @CsvSource({
    // node label value ('-' = absent), operator, values ('|' separated), fits
    "a, In, a|b, true",
    "c, In, a|b, false",
    "-, In, a, false",
    "a, NotIn, a|b, false",
    "c, NotIn, a|b, true",
    "-, NotIn, a, true",
    "a, Exists, '', true",
    "-, Exists, '', false",
    "a, DoesNotExist, '', false",
    "-, DoesNotExist, '', true",
    "5, Gt, 4, true",
    "4, Gt, 4, false",
    "3, Lt, 4, true",
    "4, Lt, 4, false",
    "x, Gt, 4, false",
    "5, Gt, x, false",
    "5, Gt, 1|2, false",
    "-, Lt, 4, false",
    "-1, Lt, 0, true",
  })
  void nodeAffinityOperators(String labelValue, String op, String values, boolean fits) {
    Node node = labelValue.equals("-") ? node("n1", "4", "8Gi", 110).build() : node("n1", "4", "8Gi", 110, "k", labelValue).build();
    int n = add(node);
    List<String> vals = values.isEmpty() ? List.of() : List.of(values.split("\\|"));
    Pod p = pod("p", "1m", "1Mi").editSpec().withNewAffinity().withNewNodeAffinity()
        .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
        .withMatchExpressions(new NodeSelectorRequirementBuilder().withKey("k").withOperator(op).withValues(vals).build())
        .endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity()
        .endSpec().build();
    FitResult r = check(p, n);
    assertThat(r.fits()).isEqualTo(fits);
    if (!fits) {
      assertThat(message(r)).isEqualTo("node(s) didn't match Pod's node affinity/selector");
    }
  }

  @Test
  void nodeAffinityTermsAreOredAndEmptyTermMatchesNothing() {
    int n = add(node("n1", "4", "8Gi", 110, "zone", "z1").build());
    Pod orTerms = pod("p", "1m", "1Mi").editSpec().withNewAffinity().withNewNodeAffinity()
        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
        .addNewNodeSelectorTerm().addNewMatchExpression().withKey("zone").withOperator("In").withValues("z2").endMatchExpression().endNodeSelectorTerm()
        .addNewNodeSelectorTerm().addNewMatchField().withKey("metadata.name").withOperator("In").withValues("n1").endMatchField().endNodeSelectorTerm()
        .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
    assertThat(check(orTerms, n).fits()).isTrue();
    Pod empty = pod("e", "1m", "1Mi").editSpec().withNewAffinity().withNewNodeAffinity()
        .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm().endNodeSelectorTerm()
        .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
    assertThat(check(empty, n).fits()).isFalse();
    Pod selector = pod("s", "1m", "1Mi").editSpec().withNodeSelector(Map.of("zone", "z1")).endSpec().build();
    assertThat(check(selector, n).fits()).isTrue();
    Pod wrong = pod("w", "1m", "1Mi").editSpec().withNodeSelector(Map.of("zone", "z2")).endSpec().build();
    assertThat(message(check(wrong, n))).isEqualTo("node(s) didn't match Pod's node affinity/selector");
  }

  @ParameterizedTest(name = "used {0}/{1}:{2} wanted {3}/{4}:{5} -> conflict {6}")
  @CsvSource({
    "'', TCP, 80, '', TCP, 80, true",
    "0.0.0.0, TCP, 80, 10.0.0.1, TCP, 80, true",
    "10.0.0.1, TCP, 80, 0.0.0.0, TCP, 80, true",
    "10.0.0.1, TCP, 80, 10.0.0.1, TCP, 80, true",
    "10.0.0.1, TCP, 80, 10.0.0.2, TCP, 80, false",
    "'', TCP, 80, '', UDP, 80, false",
    "'', TCP, 80, '', TCP, 81, false",
    "'', '', 80, '', TCP, 80, true",
  })
  void hostPorts(String ip1, String proto1, int port1, String ip2, String proto2, int port2, boolean conflict) {
    int n = add(node("n1", "4", "8Gi", 110).build());
    snapshot.addPod(compiler.compile(portPod("a", ip1, proto1, port1)), n);
    FitResult r = check(portPod("b", ip2, proto2, port2), n);
    assertThat(!r.fits()).isEqualTo(conflict);
    if (conflict) {
      assertThat(message(r)).isEqualTo("node(s) didn't have free ports for the requested pod ports");
    }
  }

  private static Pod portPod(String name, String ip, String proto, int port) {
    return pod(name, "1m", "1Mi").editSpec().editFirstContainer()
        .withPorts(new ContainerPortBuilder().withContainerPort(8080).withHostPort(port)
            .withHostIP(ip.isEmpty() ? null : ip).withProtocol(proto.isEmpty() ? null : proto).build())
        .endContainer().endSpec().build();
  }

  @Test
  void resourcesReportEveryInsufficientResourceAndPodCount() {
    Node n1 = node("n1", "1", "1Gi", 1).editStatus().addToAllocatable("nvidia.com/gpu", new Quantity("1")).endStatus().build();
    int n = add(n1);
    assertThat(check(pod("a", "1", "1Gi").build(), n).fits()).isTrue();
    assertThat(message(check(pod("b", "1001m", "1Gi").build(), n))).isEqualTo("Insufficient cpu");
    FitResult both = check(pod("c", "2", "2Gi").build(), n);
    assertThat(((FitResult.Fails) both).messages()).containsExactly("Insufficient cpu", "Insufficient memory");
    Pod gpu2 = pod("g", "1m", "1Mi").editSpec().editFirstContainer().editResources()
        .addToRequests("nvidia.com/gpu", new Quantity("2")).endResources().endContainer().endSpec().build();
    assertThat(message(check(gpu2, n))).isEqualTo("Insufficient nvidia.com/gpu");
    Pod ssd = pod("s", "1m", "1Mi").editSpec().editFirstContainer().editResources()
        .addToRequests("example.com/ssd", new Quantity("1")).endResources().endContainer().endSpec().build();
    assertThat(message(check(ssd, n))).isEqualTo("Insufficient example.com/ssd");
    snapshot.addPod(compiler.compile(pod("a", "100m", "1Mi").build()), n);
    assertThat(message(check(pod("d", "1m", "1Mi").build(), n))).isEqualTo("Too many pods");
  }

  @Test
  void sidecarAwareRequestsAndOverhead() {
    int n = add(node("n1", "1", "1Gi", 10).build());
    Pod p = pod("p", "500m", "1Mi").editSpec()
        .addNewInitContainer().withName("sidecar").withRestartPolicy("Always").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("300m"))).endResources().endInitContainer()
        .withOverhead(Map.of("cpu", new Quantity("250m"))).endSpec().build();
    assertThat(message(check(p, n))).isEqualTo("Insufficient cpu");
    assertThat(compiler.compile(p).request(ResourceIds.CPU)).isEqualTo(1050);
  }

  private Pod affinityPod(String name, String app, boolean anti, String topologyKey, String... labels) {
    var term = new PodAffinityTermBuilder().withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", app)).build())
        .withTopologyKey(topologyKey).build();
    var b = pod(name, "1m", "1Mi", labels).editSpec().withNewAffinity();
    var a = anti
        ? b.withNewPodAntiAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(term).endPodAntiAffinity()
        : b.withNewPodAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(term).endPodAffinity();
    return a.endAffinity().endSpec().build();
  }

  @Test
  void podAffinityFirstPodExceptionAndDomains() {
    int z1 = add(node("n1", "4", "8Gi", 110, "zone", "z1").build());
    int z2 = add(node("n2", "4", "8Gi", 110, "zone", "z2").build());
    int nokey = add(node("n3", "4", "8Gi", 110).build());
    Pod self = affinityPod("s1", "db", false, "zone", "app", "db");
    // No pod matches anywhere and the pod matches its own term: passes on nodes with the key.
    assertThat(check(self, z1).fits()).isTrue();
    assertThat(check(self, z2).fits()).isTrue();
    assertThat(message(check(self, nokey))).isEqualTo("node(s) didn't match pod affinity rules");
    // A pod that does not match its own term gets no exception.
    Pod other = affinityPod("o1", "db", false, "zone", "app", "web");
    assertThat(message(check(other, z1))).isEqualTo("node(s) didn't match pod affinity rules");
    snapshot.addPod(compiler.compile(Fixtures.pod("db-0", "1m", "1Mi", "app", "db").build()), z1);
    assertThat(check(self, z1).fits()).isTrue();
    assertThat(check(self, z2)).isEqualTo(new FitResult.Fails(Reason.POD_AFFINITY, "node(s) didn't match pod affinity rules"));
    assertThat(check(other, z1).fits()).isTrue();
  }

  @Test
  void antiAffinityBothDirections() {
    int a = add(node("n1", "4", "8Gi", 110, "zone", "z1").build());
    int b = add(node("n2", "4", "8Gi", 110, "zone", "z1").build());
    int c = add(node("n3", "4", "8Gi", 110, "zone", "z2").build());
    int nokey = add(node("n4", "4", "8Gi", 110).build());
    // Incoming pod's anti-affinity against an existing plain pod.
    snapshot.addPod(compiler.compile(Fixtures.pod("web-0", "1m", "1Mi", "app", "web").build()), a);
    Pod anti = affinityPod("x", "web", true, "zone", "app", "cache");
    assertThat(message(check(anti, b))).isEqualTo("node(s) didn't match pod anti-affinity rules");
    assertThat(check(anti, c).fits()).isTrue();
    assertThat(check(anti, nokey).fits()).isTrue();
    // Symmetry: an existing pod with anti-affinity rejects the incoming plain pod in its domain.
    snapshot.addPod(compiler.compile(affinityPod("guard", "batch", true, "zone", "app", "guard")), c);
    Pod batch = Fixtures.pod("b1", "1m", "1Mi", "app", "batch").build();
    assertThat(message(check(batch, c))).isEqualTo("node(s) didn't satisfy existing pods anti-affinity rules");
    assertThat(check(batch, a).fits()).isTrue();
    assertThat(check(batch, nokey).fits()).isTrue();
    // Removing the owner lifts the rule.
    snapshot.removePod("uid-guard");
    assertThat(check(batch, c).fits()).isTrue();
  }

  private Pod spreadPod(String name, String key, int maxSkew, Integer minDomains, String... labels) {
    return pod(name, "1m", "1Mi", labels).editSpec().withTopologySpreadConstraints(
        new TopologySpreadConstraintBuilder().withMaxSkew(maxSkew).withTopologyKey(key).withWhenUnsatisfiable("DoNotSchedule")
            .withMinDomains(minDomains).withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "s")).build())
            .build()).endSpec().build();
  }

  @Test
  void topologySpreadSkewMissingLabelAndMinDomains() {
    int z1 = add(node("n1", "4", "8Gi", 110, "zone", "z1").build());
    int z2 = add(node("n2", "4", "8Gi", 110, "zone", "z2").build());
    int nokey = add(node("n3", "4", "8Gi", 110).build());
    Pod p = spreadPod("p", "zone", 1, null, "app", "s");
    assertThat(check(p, z1).fits()).isTrue();
    assertThat(message(check(p, nokey)))
        .isEqualTo("node(s) didn't match pod topology spread constraints (missing required label)");
    snapshot.addPod(compiler.compile(Fixtures.pod("s-0", "1m", "1Mi", "app", "s").build()), z1);
    assertThat(message(check(p, z1))).isEqualTo("node(s) didn't match pod topology spread constraints");
    assertThat(check(p, z2).fits()).isTrue();
    // minDomains 3 with only 2 eligible domains: the global minimum counts as 0.
    snapshot.addPod(compiler.compile(Fixtures.pod("s-1", "1m", "1Mi", "app", "s").build()), z2);
    assertThat(check(p, z1).fits()).isTrue();
    Pod minDomains = spreadPod("m", "zone", 1, 3, "app", "s");
    assertThat(message(check(minDomains, z1))).isEqualTo("node(s) didn't match pod topology spread constraints");
    // A pod not matched by its own selector does not add itself.
    Pod outsider = spreadPod("o", "zone", 1, 3, "app", "other");
    assertThat(check(outsider, z1).fits()).isTrue();
  }

  @Test
  void unsupportedFieldsAreReportedNotIgnored() {
    int n = add(node("n1", "4", "8Gi", 110).build());
    Pod p = pod("p", "1m", "1Mi").editSpec().withNewAffinity().withNewPodAffinity()
        .addNewRequiredDuringSchedulingIgnoredDuringExecution().withTopologyKey("zone").withMatchLabelKeys("rev")
        .withNewLabelSelector().endLabelSelector().endRequiredDuringSchedulingIgnoredDuringExecution()
        .endPodAffinity().endAffinity().endSpec().build();
    CompiledPod c = compiler.compile(p);
    assertThat(c.unsupported()).containsExactly("podAffinity.requiredDuringSchedulingIgnoredDuringExecution.matchLabelKeys");
    assertThat(message(snapshot.check(c, n)))
        .isEqualTo("unsupported: podAffinity.requiredDuringSchedulingIgnoredDuringExecution.matchLabelKeys");
    assertThat(snapshot.schedulePodOnAnyNode(c).placed()).isFalse();
    Pod dra = pod("d", "1m", "1Mi").editSpec().addNewResourceClaim().withName("gpu").endResourceClaim().endSpec().build();
    assertThat(compiler.compile(dra).unsupported()).containsExactly("spec.resourceClaims");
    Pod badOp = pod("b", "1m", "1Mi").editSpec().withNewAffinity().withNewNodeAffinity()
        .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm().addNewMatchExpression()
        .withKey("k").withOperator("Near").endMatchExpression().endNodeSelectorTerm()
        .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
    assertThat(compiler.compile(badOp).unsupported())
        .containsExactly("nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.matchExpressions.operator Near");
  }

  @Test
  void diagnosisSummarisesReasons() {
    add(node("n1", "1", "1Gi", 110).build());
    add(node("n2", "1", "1Gi", 110).editSpec().withUnschedulable(true).endSpec().build());
    add(node("n3", "8", "1Gi", 110).build());
    Diagnosis d = snapshot.diagnose(compiler.compile(pod("big", "2", "1Mi").build()));
    assertThat(d.message()).isEqualTo("1/3 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.");
    assertThat(d.failures()).containsOnlyKeys("n1", "n2");
  }
}
