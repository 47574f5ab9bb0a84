package dev.headroom.controller.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.core.nodegroup.NodeGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeGroupConfigTest {
  static final String GOOD = """
      apiVersion: headroom.dev/v1alpha1
      kind: NodeGroup
      metadata:
        name: general
      spec:
        maxSize: 5
        provisioningDelay: 90s
        template:
          metadata:
            labels:
              kubernetes.io/arch: arm64
          spec:
            taints:
              - {key: dedicated, value: batch, effect: NoSchedule}
          status:
            capacity: {cpu: "4", memory: 16Gi}
      """;

  @Test
  void parsesMultiDocumentFiles() {
    List<NodeGroup> groups = NodeGroupConfig.parse("g.yaml", GOOD + "---\n" + GOOD.replace("name: general", "name: batch"));
    assertThat(groups).extracting(NodeGroup::id).containsExactly("general", "batch");
    assertThat(groups.get(0).provisioningDelay()).hasSeconds(90);
  }

  @Test
  void errorsNameTheFileAndLineOfTheOffendingField() {
    assertThatThrownBy(() -> NodeGroupConfig.parse("g.yaml", GOOD.replace("maxSize: 5", "maxSize: lots")))
        .hasMessageStartingWith("g.yaml:6: ");
    assertThatThrownBy(() -> NodeGroupConfig.parse("g.yaml", GOOD.replace("effect: NoSchedule", "effect: Sometimes")))
        .hasMessageStartingWith("g.yaml:14: ");
    assertThatThrownBy(() -> NodeGroupConfig.parse("g.yaml", GOOD + "---\n" + GOOD))
        .hasMessageStartingWith("g.yaml:21: ").hasMessageContaining("duplicate node group \"general\"");
    assertThatThrownBy(() -> NodeGroupConfig.parse("g.yaml", "a: [1,\n")).hasMessageStartingWith("g.yaml:").hasMessageContaining("invalid YAML");
    assertThatThrownBy(() -> NodeGroupConfig.parse("g.yaml", "")).hasMessage("g.yaml:1: no NodeGroup documents found");
  }
}
