package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop's provider wrapper must pass every port method on (a default it does not override hides the provider's). */
class StagedActuationDelegationTest {

  @Test
  void everyPortMethodIsDeclared() {
    List<String> missing = new ArrayList<>();
    for (Method m : NodeGroupProvider.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        StagedActuation.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertThat(missing).isEmpty();
  }
}
