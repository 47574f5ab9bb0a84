package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Label selector strings as served by {@code /scale status.selector}. */
class SelectorExpressionTest {

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of("app=web", Map.of("app", "web"), true),
        Arguments.of("app==web", Map.of("app", "db"), false),
        Arguments.of("app!=web", Map.of(), true),
        Arguments.of("app in (web, db),tier notin (x)", Map.of("app", "db", "tier", "y"), true),
        Arguments.of("app in (web,db),tier notin (x)", Map.of("app", "db", "tier", "x"), false),
        Arguments.of("app,!legacy", Map.of("app", "a"), true),
        Arguments.of("app,!legacy", Map.of("app", "a", "legacy", "1"), false),
        Arguments.of("example.com/team=a", Map.of("example.com/team", "a"), true),
        Arguments.of("", Map.of("x", "y"), true));
  }

  @ParameterizedTest(name = "{0} on {1} is {2}")
  @MethodSource("rows")
  void matches(String selector, Map<String, String> labels, boolean expected) {
    assertThat(SelectorExpression.parse(selector).matches(labels)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "invalid: {0}")
  @ValueSource(strings = {"app in web", "=x", "app=web,", "-bad=x", "app in (a b)"})
  void invalid(String selector) {
    assertThatThrownBy(() -> SelectorExpression.parse(selector)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void structuredSelectorRoundTrips() {
    var s = SelectorExpression.of(new LabelSelectorBuilder().withMatchLabels(Map.of("b", "2", "a", "1"))
        .addNewMatchExpression().withKey("c").withOperator("In").withValues("y", "x").endMatchExpression()
        .addNewMatchExpression().withKey("d").withOperator("DoesNotExist").endMatchExpression().build());
    assertThat(s.toString()).isEqualTo("a=1,b=2,c in (x,y),!d");
    assertThat(SelectorExpression.parse(s.toString())).isEqualTo(s);
  }
}
