package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeFactsTest {

  private static Node node(String name, String rv, boolean ready) {
    return new NodeBuilder().withNewMetadata().withName(name).withResourceVersion(rv).endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition().endStatus()
        .build();
  }

  @Test
  void readsWhatTheIterationChecks() {
    Node n = node("a", "1", true);
    n.getSpec().setUnschedulable(true);
    n.getSpec().setTaints(List.of(new TaintBuilder().withKey(Nodes.TO_BE_DELETED_TAINT).withEffect("NoSchedule").build()));
    n.getMetadata().setAnnotations(java.util.Map.of(Nodes.SCALE_DOWN_DISABLED, "true"));
    NodeFacts f = NodeFacts.read(n);
    assertThat(f.name()).isEqualTo("a");
    assertThat(f.ready()).isTrue();
    assertThat(f.cordoned()).isTrue();
    assertThat(f.beingDeleted()).isTrue();
    assertThat(f.scaleDownDisabled()).isTrue();
    assertThat(f.destination()).isFalse();
    assertThat(NodeFacts.read(node("b", "1", true)).destination()).isTrue();
    assertThat(NodeFacts.read(node("c", "1", false)).destination()).isFalse();
  }

  @Test
  void keepsFactsOfAnUnchangedVersionAndReadsAnyOtherAgain() {
    NodeFacts.Cache cache = new NodeFacts.Cache();
    Node versioned = node("a", "7", false);
    Node unversioned = node("b", "", false);
    var first = cache.of(List.of(versioned, unversioned));
    // edited in place: a versioned node keeps its facts (same version, same node), an unversioned one is read again
    versioned.getStatus().getConditions().get(0).setStatus("True");
    unversioned.getStatus().getConditions().get(0).setStatus("True");
    var second = cache.of(List.of(versioned, unversioned));
    assertThat(second.get(versioned)).isSameAs(first.get(versioned));
    assertThat(second.get(unversioned).ready()).isTrue();
    // a new version is read again
    versioned.getMetadata().setResourceVersion("8");
    assertThat(cache.of(List.of(versioned)).get(versioned).ready()).isTrue();
  }
}
