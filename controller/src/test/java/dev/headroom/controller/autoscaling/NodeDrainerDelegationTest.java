package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.NodeGroupProvider;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drainer decorates the configured provider: every port method must reach it. A default method the decorator
 * does not override answers with the port's default instead of the provider's (for standby capacity: "cannot suspend"
 * for a provider that can), so each one is declared here.
 */
class NodeDrainerDelegationTest {

  @Test
  void everyPortMethodIsDeclaredByTheDecorator() {
    List<String> missing = new ArrayList<>();
    for (Method m : NodeGroupProvider.class.getMethods()) {
      if (m.isSynthetic() || java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        NodeDrainer.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertThat(missing).as("NodeGroupProvider methods NodeDrainer does not pass on").isEmpty();
  }
}
