package dev.headroom.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A bound pod compiled for a move is the pod compiled as if it had no {@code spec.nodeName}, without a copy: the
 * same scheduling inputs and class as that unbound copy, the pod object itself as identity, and shared shapes
 * never mixed with the pinned form.
 */
class DetachedCompileTest {

  @Test
  void detachedFormEqualsTheCompiledUnboundCopy() {
    Random r = new Random(11);
    for (int round = 0; round < 50; round++) {
      Pod template = RandomClusters.template(r);
      Pod bound = new PodBuilder(template).editMetadata().withName("p").withUid("uid-p").endMetadata()
          .editSpec().withNodeName("node-1").endSpec().build();
      Pod unbound = new PodBuilder(bound).editSpec().withNodeName(null).endSpec().build();
      SchedulingCompiler c = new SchedulingCompiler();
      CompiledPod pinned = c.compile(bound);
      CompiledPod detached = c.compileDetached(bound);
      CompiledPod reference = c.compile(unbound);
      assertThat(pinned.nodeName()).isEqualTo("node-1");
      assertThat(detached.nodeName()).isNull();
      assertThat(detached.pod()).isSameAs(bound);
      assertThat(detached.uid()).isEqualTo("uid-p");
      assertThat(detached.classId()).isEqualTo(reference.classId()).isNotEqualTo(pinned.classId());
      assertThat(detached.signature()).isEqualTo(reference.signature());
      assertThat(detached.requestMap()).isEqualTo(reference.requestMap());
      assertThat(detached.tolerations()).isEqualTo(reference.tolerations());
      assertThat(detached.nodeAffinity()).isEqualTo(reference.nodeAffinity());
      // a second pod of the same spec object shares each form, and the forms stay apart
      Pod sibling = new Pod(bound.getApiVersion(), bound.getKind(),
          new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(bound.getMetadata()).withName("q").withUid("uid-q").build(),
          bound.getSpec(), bound.getStatus());
      assertThat(c.compile(sibling).nodeName()).isEqualTo("node-1");
      assertThat(c.compileDetached(sibling).nodeName()).isNull();
      assertThat(c.compileDetached(sibling).classId()).isEqualTo(detached.classId());
    }
  }

  /**
   * {@link SchedulingCompiler#detachedOf} (the detached form derived from the attached one) against the plain
   * path: two compilers take the same pods in the same order, one compiling each moved form from the spec, the
   * other deriving it; every field the predicates read, and the class ids handed out, are the same. Resources
   * that first appear between the attached and the detached compilation are among the cases.
   */
  @Test
  void derivedDetachedFormEqualsTheCompiledOne() {
    Random r = new Random(23);
    SchedulingCompiler plain = new SchedulingCompiler();
    SchedulingCompiler derived = new SchedulingCompiler();
    java.util.List<Pod> pods = new java.util.ArrayList<>();
    for (int k = 0; k < 300; k++) {
      Pod template = r.nextInt(4) == 0 && !pods.isEmpty() ? pods.get(r.nextInt(pods.size())) : RandomClusters.template(r, r.nextBoolean());
      PodBuilder b = new PodBuilder(template).editMetadata().withName("p" + k).withUid("uid-" + k).endMetadata()
          .editSpec().withNodeName("node-" + r.nextInt(5)).endSpec();
      if (r.nextInt(10) == 0) {
        b.editSpec().editFirstContainer().editOrNewResources().addToRequests("example.com/dev-" + k, new io.fabric8.kubernetes.api.model.Quantity("1"))
            .endResources().endContainer().endSpec();
      }
      if (r.nextInt(8) == 0) {
        b.editSpec().withPriority(r.nextInt(3)).endSpec();
      }
      pods.add(b.build());
    }
    java.util.List<CompiledPod[]> attached = new java.util.ArrayList<>();
    for (Pod p : pods) {
      attached.add(new CompiledPod[] {plain.compile(p), derived.compile(p)});
      if (r.nextInt(6) == 0) {
        // a new resource appears after the attached form was compiled
        Pod other = new PodBuilder(RandomClusters.template(r)).editMetadata().withName("x" + attached.size()).withUid("x-" + attached.size())
            .endMetadata().editSpec().editFirstContainer().editOrNewResources()
            .addToRequests("example.com/late-" + attached.size(), new io.fabric8.kubernetes.api.model.Quantity("2")).endResources().endContainer().endSpec().build();
        plain.compile(other);
        derived.compile(other);
      }
    }
    for (int k = 0; k < pods.size(); k++) {
      CompiledPod a = plain.compileDetached(pods.get(k));
      CompiledPod b = derived.detachedOf(attached.get(k)[1]);
      assertThat(b.pod()).isSameAs(a.pod());
      assertThat(b.uid()).isEqualTo(a.uid());
      assertThat(b.name()).isEqualTo(a.name());
      assertThat(b.controllerUid()).isEqualTo(a.controllerUid());
      assertThat(b.isDaemonSetOrMirror()).isEqualTo(a.isDaemonSetOrMirror());
      assertThat(b.nodeName()).isNull();
      assertThat(b.classId()).isEqualTo(a.classId());
      assertThat(b.signature()).isEqualTo(a.signature());
      assertThat(b.requestVector()).isEqualTo(a.requestVector());
      assertThat(b.requestIds()).isEqualTo(a.requestIds());
      assertThat(b.requestMap()).isEqualTo(a.requestMap());
      assertThat(b.namespace()).isEqualTo(a.namespace());
      assertThat(b.labels()).isEqualTo(a.labels());
      assertThat(b.nodeAffinity()).isEqualTo(a.nodeAffinity());
      assertThat(b.tolerations()).isEqualTo(a.tolerations());
      assertThat(b.hostPorts()).isEqualTo(a.hostPorts());
      assertThat(b.affinity()).isEqualTo(a.affinity());
      assertThat(b.antiAffinity()).isEqualTo(a.antiAffinity());
      assertThat(b.spread()).isEqualTo(a.spread());
      assertThat(b.unsupported()).isEqualTo(a.unsupported());
      assertThat(b.isVirtual()).isEqualTo(a.isVirtual());
      assertThat(b.isTerminating()).isEqualTo(a.isTerminating());
      assertThat(b.priority()).isEqualTo(a.priority());
    }
    assertThat(derived.classCount()).isEqualTo(plain.classCount());
  }
}
