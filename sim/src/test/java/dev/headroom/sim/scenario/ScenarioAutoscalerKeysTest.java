package dev.headroom.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.AutoscalerOption;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.OptionType;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A scenario's {@code spec.autoscaler} takes every option of the one list, by name and by key, typed as the option. */
class ScenarioAutoscalerKeysTest {

  static Stream<AutoscalerOption<?>> textualOptions() {
    return AutoscalerOptions.ALL.stream().filter(o -> o.type().textual());
  }

  @ParameterizedTest
  @MethodSource("textualOptions")
  void everyOptionIsAScenarioKey(AutoscalerOption<?> option) {
    String value = otherValue(option);
    for (String key : new String[] {option.name(), option.key()}) {
      Scenario s = ScenarioParser.parse("a.yaml",
          ScenarioParserTest.BASE.replace("  tick: 5s", "  tick: 5s\n  autoscaler: {" + key + ": \"" + value + "\"}"), null);
      assertThat(text(option, s.autoscalerOptions())).as(key).isEqualTo(value);
      assertThat(s.autoscalerOptions()).isNotEqualTo(AutoscalerOptions.DEFAULTS);
    }
  }

  private static <T> String text(AutoscalerOption<T> option, AutoscalerOptions options) {
    return option.type().format(option.get(options));
  }

  private static String otherValue(AutoscalerOption<?> o) {
    Object def = o.defaultValue();
    if (o.type() == OptionType.DURATION) {
      return OptionType.DURATION.format(((Duration) def).plusSeconds(7));
    } else if (o.type() == OptionType.BOOLEAN) {
      return String.valueOf(!(Boolean) def);
    } else if (o.type() == OptionType.INT) {
      return String.valueOf((Integer) def + 7);
    } else if (o.type() == OptionType.LONG) {
      return String.valueOf((Long) def + 7);
    } else if (o.type() == OptionType.DOUBLE) {
      return String.valueOf((Double) def + 0.125);
    }
    return def.equals("most-pods") ? "price" : "most-pods";
  }
}
