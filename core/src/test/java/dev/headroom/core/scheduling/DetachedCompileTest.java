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
}
