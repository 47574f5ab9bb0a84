package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Node;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The phase timer's provider decorates the configured one as the drainer does: a port method it does not declare would
 * answer with the port's default rather than the provider's (for standby capacity: "cannot suspend nodes" for the KWOK
 * provider, which can), so each one must be declared.
 */
class PhaseTimerDelegationTest {

  @Test
  void everyPortMethodIsDeclaredByTheTimedProvider() {
    NodeGroupProvider timed = new PhaseTimer(Ticker.SYSTEM).timed(new NodeGroupProvider() {
      @Override
      public List<NodeGroup> nodeGroups() {
        return List.of();
      }

      @Override
      public Optional<String> nodeGroupOf(Node node) {
        return Optional.empty();
      }

      @Override
      public void increaseSize(String groupId, int delta) {}

      @Override
      public void deleteNodes(String groupId, List<Node> nodes) {}

      @Override
      public void decreaseTargetSize(String groupId, int delta) {}

      @Override
      public Optional<String> standbyUnsupported() {
        return Optional.empty();
      }
    });
    List<String> missing = new ArrayList<>();
    for (Method m : NodeGroupProvider.class.getMethods()) {
      if (m.isSynthetic() || Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        timed.getClass().getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertThat(missing).as("NodeGroupProvider methods the timed provider does not pass on").isEmpty();
    assertThat(timed.standbyUnsupported()).isEmpty();
  }
}
