package dev.headroom.core.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

  @ParameterizedTest(name = "milli({0}) = {1}")
  @CsvSource({
    "1, 1000",
    "1.5, 1500",
    "100m, 100",
    "0.1m, 1",
    "-0.5m, -1",
    "100Mi, 104857600000",
    "1Gi, 1073741824000",
    "2k, 2000000",
    "1e3, 1000000",
    "1E-3, 1",
    "0, 0",
    "-1, -1000",
    "-500m, -500",
    ".5, 500",
    "5., 5000",
    "+2, 2000",
    "1n, 1",
    "8E, 9223372036854775807",
    "-8E, -9223372036854775808"
  })
  void milliRoundsAwayFromZeroAndSaturates(String text, long expected) {
    assertThat(Quantities.milli(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "1.2.3", "1Ki5", "--1", "1 Gi", "1X"})
  void rejectsMalformed(String text) {
    assertThat(Quantities.isValid(text)).isFalse();
    assertThatThrownBy(() -> Quantities.value(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "format({0}, {1}) = {2}")
  @CsvSource({"cpu, 1500, 1500m", "cpu, 2000, 2", "memory, 1073741824000, 1Gi", "memory, 1000000, 1000", "pods, 0, 0"})
  void formatsCanonically(String name, long milli, String expected) {
    assertThat(Quantities.format(name, milli)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void saturatingAdd() {
    assertThat(Quantities.add(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Quantities.add(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
    assertThat(Quantities.add(2, 3)).isEqualTo(5);
  }
}
