package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AutoscalerOptionsTest {

  @Test
  void theListHasOneOptionPerRecordComponentInOrderWithUniqueKeysAndNames() {
    List<String> components = Arrays.stream(AutoscalerOptions.class.getRecordComponents()).map(RecordComponent::getName).toList();
    assertThat(AutoscalerOptions.ALL.stream().map(AutoscalerOption::name).toList()).isEqualTo(components);
    Set<String> keys = new HashSet<>();
    for (AutoscalerOption<?> o : AutoscalerOptions.ALL) {
      assertThat(keys.add(o.key())).as(o.key()).isTrue();
      assertThat(o.key()).matches("[a-z][a-z0-9]*(-[a-z0-9]+)*");
      assertThat(AutoscalerOptions.named(o.key())).contains(o);
      assertThat(AutoscalerOptions.named(o.name())).contains(o);
      assertThat(o.description()).isNotBlank().doesNotEndWith(".");
    }
  }

  @Test
  void theDefaultsAreEachOptionsDefault() {
    for (AutoscalerOption<?> o : AutoscalerOptions.ALL) {
      assertThat((Object) o.get(AutoscalerOptions.DEFAULTS)).as(o.key()).isEqualTo(o.defaultValue());
    }
    assertThat(AutoscalerOptions.builder().build()).isEqualTo(AutoscalerOptions.DEFAULTS);
    assertThat(AutoscalerOptions.DEFAULTS.scanInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(AutoscalerOptions.DEFAULTS.expander()).isEqualTo("least-waste");
  }

  /** Setting one option changes exactly its own component: the builder's positional list matches the record's. */
  @Test
  void eachOptionSetsItsOwnComponentOnly() {
    for (AutoscalerOption<?> o : AutoscalerOptions.ALL) {
      AutoscalerOptions changed = withOther(o);
      for (AutoscalerOption<?> p : AutoscalerOptions.ALL) {
        if (p == o) {
          assertThat((Object) p.get(changed)).as(o.key()).isNotEqualTo(p.defaultValue());
        } else {
          assertThat((Object) p.get(changed)).as(o.key() + " changed " + p.key()).isEqualTo(p.defaultValue());
        }
      }
      assertThat(changed.toBuilder().build()).isEqualTo(changed);
    }
  }

  @Test
  void everyTextualOptionReadsItsDefaultTextByKeyAndByName() {
    for (AutoscalerOption<?> o : AutoscalerOptions.ALL) {
      if (!o.type().textual()) {
        continue;
      }
      AutoscalerOptions.Builder byKey = AutoscalerOptions.builder();
      AutoscalerOptions other = withOther(o);
      assertThat(other.toBuilder().set(o.key(), o.defaultText()).build()).as(o.key()).isEqualTo(AutoscalerOptions.DEFAULTS);
      assertThat(other.toBuilder().set(o.name(), o.defaultText()).build()).as(o.name()).isEqualTo(AutoscalerOptions.DEFAULTS);
      assertThat(byKey.build()).isEqualTo(AutoscalerOptions.DEFAULTS);
    }
  }

  @Test
  void textValuesAreParsedByTheirType() {
    AutoscalerOptions o = AutoscalerOptions.builder()
        .set("scan-interval", "30s")
        .set("scaleDownUtilizationThreshold", " 0.25 ")
        .set("max-nodes-per-scaleup", "7")
        .set("max-nodes-per-scale-up", "8")
        .set("ignore-daemonsets-utilization", "true")
        .set("random-seed", "9000000000")
        .set("bypassed-scheduler-names", " volcano ")
        .build();
    assertThat(o.scanInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(o.scaleDownUtilizationThreshold()).isEqualTo(0.25);
    assertThat(o.maxNodesPerScaleUp()).isEqualTo(8);
    assertThat(o.ignoreDaemonSetsUtilization()).isTrue();
    assertThat(o.randomSeed()).isEqualTo(9_000_000_000L);
    assertThat(o.bypassedSchedulerNames()).isEqualTo("volcano");
  }

  @Test
  void badTextNamesTheFlagAndSaysWhatIsWrong() {
    AutoscalerOptions.Builder b = AutoscalerOptions.builder();
    assertThatThrownBy(() -> b.set("scan-intervall", "10s")).hasMessage("unknown option --scan-intervall");
    assertThatThrownBy(() -> b.set("scanInterval", "0s"))
        .hasMessage("invalid value \"0s\" for --scan-interval: must be at least 1s (one autoscaler loop per interval)");
    assertThatThrownBy(() -> b.set("scale-down-enabled", "yes"))
        .hasMessage("invalid value \"yes\" for --scale-down-enabled: must be true or false");
    assertThatThrownBy(() -> b.set("maxNodesPerScaleUp", "many"))
        .hasMessage("invalid value \"many\" for --max-nodes-per-scaleup: expected an integer between -2147483648 and 2147483647");
    assertThatThrownBy(() -> b.set("scale-down-utilization-threshold", "NaN"))
        .hasMessage("invalid value \"NaN\" for --scale-down-utilization-threshold: expected a finite number");
    assertThatThrownBy(() -> b.set("expanderPriorities", "1: [a]"))
        .hasMessage("invalid value \"1: [a]\" for --expander-priorities: cannot be set from text");
    assertThatThrownBy(() -> b.set("provisioning-pass-estimate-budget", "-1"))
        .hasMessage("invalid value \"-1\" for --provisioning-pass-estimate-budget: must be 0 or more");
    assertThatThrownBy(() -> b.set(AutoscalerOptions.SCAN_INTERVAL, Duration.ofMillis(10)))
        .hasMessageContaining("--scan-interval: must be at least 1s");
    assertThat(b.build()).isEqualTo(AutoscalerOptions.DEFAULTS);
  }

  @SuppressWarnings("unchecked")
  private static <T> AutoscalerOptions withOther(AutoscalerOption<T> o) {
    Object def = o.defaultValue();
    Object other;
    if (o.type() == OptionType.DURATION) {
      other = ((Duration) def).plusSeconds(7);
    } else if (o.type() == OptionType.BOOLEAN) {
      other = !(Boolean) def;
    } else if (o.type() == OptionType.INT) {
      other = (Integer) def + 7;
    } else if (o.type() == OptionType.LONG) {
      other = (Long) def + 7;
    } else if (o.type() == OptionType.DOUBLE) {
      other = (Double) def + 0.125;
    } else if (o.type() == OptionType.STRING) {
      other = def.equals("most-pods") ? "price" : "most-pods";
    } else {
      other = Map.of(10, List.of("a.*"));
    }
    return AutoscalerOptions.builder().set(o, (T) other).build();
  }
}
