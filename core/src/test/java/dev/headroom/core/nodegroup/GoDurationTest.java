package dev.headroom.core.nodegroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class GoDurationTest {

  @Test
  void parsesGoSyntaxAndDays() {
    assertThat(GoDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(GoDuration.parse("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(GoDuration.parse("1d12h")).isEqualTo(Duration.ofHours(36));
    assertThat(GoDuration.parse("0")).isZero();
    assertThat(GoDuration.parse("2562047h")).isEqualTo(Duration.ofHours(2562047));
  }

  @ParameterizedTest
  @ValueSource(strings = {"9999999999999h", "2562048h", "106752d", "99999999999999999999999999999999999999999s",
      "2562047h47m17s"})
  void tooLongIsAPlainError(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is too long (the maximum is 2562047h");
  }

  @Test
  void hugeDigitStringsFailFast() {
    String digits = "9".repeat(5_000_000) + "s";
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> GoDuration.parse(digits)).hasMessageContaining("too long").hasMessageNotContaining("9".repeat(100));
    assertThat(System.nanoTime() - t0).isLessThan(2_000_000_000L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "5", "h", "1x", "-1s", "1.5", "."})
  void malformedIsRejected(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text)).isInstanceOf(IllegalArgumentException.class);
  }
}
