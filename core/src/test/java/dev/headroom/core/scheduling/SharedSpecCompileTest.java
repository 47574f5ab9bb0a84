package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Pods that share one spec object are compiled once: the shared form must equal a fresh compile in everything but
 * identity, and a different namespace, label set or virtual marker must not reuse it.
 */
class SharedSpecCompileTest {

  @Test
  void sharedSpecGivesTheSameCompiledInputsAsAFreshCompile() {
    Random r = new Random(7);
    for (int round = 0; round < 50; round++) {
      Pod template = RandomClusters.template(r);
      PodSpec spec = template.getSpec();
      SchedulingCompiler shared = new SchedulingCompiler();
      Pod first = withIdentity(template, spec, "a", "uid-a", template.getMetadata().getLabels(), Map.of());
      Pod second = withIdentity(template, spec, "b", "uid-b", template.getMetadata().getLabels(), Map.of());
      CompiledPod a = shared.compile(first);
      CompiledPod b = shared.compile(second);
      CompiledPod fresh = new SchedulingCompiler().compile(second);
      assertThat(b.pod()).isSameAs(second);
      assertThat(b.name()).isEqualTo("b");
      assertThat(b.uid()).isEqualTo("uid-b");
      assertThat(b.classId()).isEqualTo(a.classId());
      assertThat(b.signature()).isEqualTo(fresh.signature());
      assertThat(b.requestMap()).isEqualTo(fresh.requestMap());
      assertThat(b.labels()).isEqualTo(fresh.labels());
      assertThat(b.nodeAffinity()).isEqualTo(fresh.nodeAffinity());
      assertThat(b.tolerations()).isEqualTo(fresh.tolerations());
      assertThat(b.affinity()).isEqualTo(fresh.affinity());
      assertThat(b.antiAffinity()).isEqualTo(fresh.antiAffinity());
      assertThat(b.spread()).isEqualTo(fresh.spread());
      assertThat(b.unsupported()).isEqualTo(fresh.unsupported());
    }
  }

  @Test
  void differentLabelsNamespaceOrMarkerAreNotShared() {
    Pod template = new PodBuilder().withNewMetadata().withName("t").withNamespace("ns").withLabels(Map.of("app", "x")).endMetadata()
        .withNewSpec().addNewContainer().withName("c").withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
        .endResources().endContainer().endSpec().build();
    PodSpec spec = template.getSpec();
    SchedulingCompiler c = new SchedulingCompiler();
    CompiledPod base = c.compile(withIdentity(template, spec, "a", "a", Map.of("app", "x"), Map.of()));
    CompiledPod otherLabels = c.compile(withIdentity(template, spec, "b", "b", Map.of("app", "y"), Map.of()));
    Pod otherNs = withIdentity(template, spec, "c", "c", Map.of("app", "x"), Map.of());
    otherNs.getMetadata().setNamespace("other");
    CompiledPod otherNamespace = c.compile(otherNs);
    CompiledPod virtual = c.compile(withIdentity(template, spec, "d", "d", Map.of("app", "x"),
        Map.of(SchedulingCompiler.CA_FAKE_POD_ANNOTATION, SchedulingCompiler.CA_FAKE_POD_VALUE)));
    assertThat(otherLabels.labels()).isEqualTo(Map.of("app", "y"));
    assertThat(otherLabels.classId()).isNotEqualTo(base.classId());
    assertThat(otherNamespace.namespace()).isEqualTo("other");
    assertThat(otherNamespace.classId()).isNotEqualTo(base.classId());
    assertThat(virtual.isVirtual()).isTrue();
    assertThat(base.isVirtual()).isFalse();
  }

  @Test
  void specMemoIsBoundedAndStillSharesAfterStartingOver() {
    Pod template = new PodBuilder().withNewMetadata().withName("t").withNamespace("ns").withLabels(Map.of("app", "x")).endMetadata()
        .withNewSpec().addNewContainer().withName("c").withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
        .endResources().endContainer().endSpec().build();
    SchedulingCompiler c = new SchedulingCompiler();
    PodSpec shared = template.getSpec();
    CompiledPod first = c.compile(withIdentity(template, shared, "s0", "s0", Map.of("app", "x"), Map.of()));
    // a spec per pod, as informers and the simulator give them: far more than the memo holds
    int perPod = 3 * SchedulingCompiler.SPEC_MEMO_LIMIT;
    for (int i = 0; i < perPod; i++) {
      PodSpec own = new io.fabric8.kubernetes.api.model.PodSpecBuilder(shared).build();
      CompiledPod p = c.compile(withIdentity(template, own, "p" + i, "p" + i, Map.of("app", "x"), Map.of()));
      assertThat(p.classId()).isEqualTo(first.classId());
      assertThat(c.specMemoSize()).isLessThanOrEqualTo(SchedulingCompiler.SPEC_MEMO_LIMIT);
    }
    CompiledPod again = c.compile(withIdentity(template, shared, "s1", "s1", Map.of("app", "x"), Map.of()));
    CompiledPod third = c.compile(withIdentity(template, shared, "s2", "s2", Map.of("app", "x"), Map.of()));
    assertThat(again.classId()).isEqualTo(first.classId());
    assertThat(third.requestMap()).isEqualTo(first.requestMap());
    assertThat(third.uid()).isEqualTo("s2");
  }

  @Test
  void theMemoKeepsNoPodAliveAndForgetsItsSpecsWhenTold() {
    Pod template = new PodBuilder().withNewMetadata().withName("t").withNamespace("ns").withLabels(Map.of("app", "x")).endMetadata()
        .withNewSpec().addNewContainer().withName("c").withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
        .endResources().endContainer().endSpec().build();
    SchedulingCompiler c = new SchedulingCompiler();
    PodSpec shared = template.getSpec();
    CompiledPod first = c.compile(withIdentity(template, shared, "a", "a", Map.of("app", "x"), Map.of()));
    CompiledPod detached = c.compileDetached(withIdentity(template, shared, "b", "b", Map.of("app", "x"), Map.of()));
    assertThat(c.specMemoSize()).isEqualTo(1);
    // the memo holds shapes: the pods compiled (deleted from the cluster since, say) are not reachable through it
    assertThat(c.specMemoHoldsPods()).isFalse();
    assertThat(first.pod().getMetadata().getName()).isEqualTo("a");
    assertThat(detached.pod().getMetadata().getName()).isEqualTo("b");
    CompiledPod hit = c.compile(withIdentity(template, shared, "c", "c", Map.of("app", "x"), Map.of()));
    assertThat(hit.pod().getMetadata().getName()).isEqualTo("c");
    assertThat(hit.uid()).isEqualTo("c");
    c.forgetSpecs();
    assertThat(c.specMemoSize()).isZero();
    // compiled afresh after forgetting, into the same class and the same vectors
    CompiledPod after = c.compile(withIdentity(template, shared, "d", "d", Map.of("app", "x"), Map.of()));
    assertThat(after.classId()).isEqualTo(first.classId());
    assertThat(after.requestVector()).isEqualTo(first.requestVector());
    assertThat(after.pod().getMetadata().getName()).isEqualTo("d");
  }

  private static Pod withIdentity(Pod template, PodSpec spec, String name, String uid, Map<String, String> labels, Map<String, String> annotations) {
    Pod p = new PodBuilder().withNewMetadata().withName(name).withUid(uid).withNamespace(template.getMetadata().getNamespace())
        .withLabels(labels).withAnnotations(annotations).endMetadata().build();
    p.setSpec(spec);
    return p;
  }
}
