package dev.headroom.api.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The CEL subset of the CapacityBuffer rules. */
class CelRuleTest {
  private static final String RULE1 = "!has(self.podTemplateRef) || has(self.replicas) || has(self.limits)";
  private static final String RULE2 = "!(has(self.podTemplateRef) && has(self.scalableRef))";

  @ParameterizedTest(name = "fields {0}: rule1 {1}, rule2 {2}")
  @CsvSource({
      "'',true,true", "podTemplateRef,false,true", "podTemplateRef replicas,true,true",
      "podTemplateRef limits,true,true", "podTemplateRef percentage,false,true",
      "podTemplateRef scalableRef replicas,true,false", "scalableRef,true,true", "replicas limits,true,true"})
  void rulesEvaluateOnFieldPresence(String fields, boolean rule1, boolean rule2) {
    Map<String, Object> self = new HashMap<>();
    for (String f : fields.split(" ")) {
      if (!f.isEmpty()) {
        self.put(f, 0);
      }
    }
    assertThat(CelRule.compile(RULE1).evaluate(self)).isEqualTo(rule1);
    assertThat(CelRule.compile(RULE2).evaluate(self)).isEqualTo(rule2);
  }

  @ParameterizedTest
  @CsvSource({"'true || false && false',true", "'!true || true',true", "'(true || false) && false',false",
      "'!!has(self.a)',true", "'has(self.b)',false"})
  void precedenceIsCels(String rule, boolean expected) {
    assertThat(CelRule.compile(rule).evaluate(Map.of("a", 1))).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"self.replicas > 0", "has(self)", "has(self.a", "has(self.a) ||", "size(self.a) == 1",
      "has(self.a) or true", ""})
  void unsupportedSyntaxIsRejected(String rule) {
    assertThatThrownBy(() -> CelRule.compile(rule)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported CEL rule");
  }
}
