package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Spec §9.20 schedule parsing and evaluation ([H-EXT] §8.2). */
class ActiveScheduleTest {

  @ParameterizedTest(name = "9.20 valid: {0}")
  @ValueSource(strings = {
      "Mon-Fri 09:00-18:00 Europe/Berlin",
      "mon,wed,FRI 08:00-10:00 America/New_York",
      "Fri-Mon 22:00-06:00 UTC",
      "Mon-Fri 09:00-24:00 UTC",
      "Sat,Sun 10:00-14:00 Asia/Tokyo; Mon-Fri 09:00-18:00 Europe/Berlin",
      "  Mon\t09:00-18:00   Etc/UTC  "})
  void valid(String value) {
    assertThat(ActiveSchedule.parse(value).windows()).isNotEmpty();
  }

  @ParameterizedTest(name = "9.20 invalid: \"{0}\"")
  @ValueSource(strings = {
      "",
      "   ",
      "Mon-Fri 9:00-18:00 Europe/Berlin",
      "Mon-Fri 09:00-09:00 UTC",
      "Mon-Fri 09:00-18:00",
      "Mon-Fri 09:00-18:00 Mars/Olympus",
      "Mon-Fri 09:00-18:00 +01:00",
      "Mon-Fri 24:00-06:00 UTC",
      "Mon-Fri 09:00-18:00 UTC;",
      "Mo-Fr 09:00-18:00 UTC",
      "Mon-Fri 09:60-18:00 UTC",
      "Mon-Fri 09:00-18:00 UTC extra"})
  void invalid(String value) {
    assertThatThrownBy(() -> ActiveSchedule.parse(value)).isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("\n");
  }

  static Stream<Arguments> evaluations() {
    String berlin = "Mon-Fri 09:00-18:00 Europe/Berlin";
    String weekend = "Fri-Mon 22:00-06:00 UTC";
    return Stream.of(
        Arguments.of("9.20#1", berlin, "2026-03-02T08:30:00Z", true, "2026-03-02T17:00:00Z"),
        Arguments.of("9.20#2", berlin, "2026-03-02T07:59:59Z", false, "2026-03-02T08:00:00Z"),
        Arguments.of("9.20#3 end is exclusive", berlin, "2026-03-02T17:00:00Z", false, "2026-03-03T08:00:00Z"),
        Arguments.of("9.20#4 Saturday", berlin, "2026-03-07T12:00:00Z", false, "2026-03-09T08:00:00Z"),
        Arguments.of("9.20#5 summer time", berlin, "2026-07-01T07:00:00Z", true, "2026-07-01T16:00:00Z"),
        Arguments.of("9.20#6 Monday's overnight window", weekend, "2026-03-03T03:00:00Z", true, "2026-03-03T06:00:00Z"),
        Arguments.of("9.20#7", weekend, "2026-03-03T23:00:00Z", false, "2026-03-06T22:00:00Z"),
        Arguments.of("9.20#8", weekend, "2026-03-07T12:00:00Z", false, "2026-03-07T22:00:00Z"),
        Arguments.of("9.20#9 always", "Mon-Sun 00:00-24:00 UTC", "2026-05-13T04:05:06Z", true, null),
        Arguments.of("9.20#10 touching windows merge", "Mon-Fri 09:00-12:00 Europe/Berlin; Mon-Fri 12:00-18:00 Europe/Berlin", "2026-03-02T10:00:00Z", true, "2026-03-02T17:00:00Z"),
        Arguments.of("9.20#11 spring forward", "Sun 01:00-03:00 Europe/Berlin", "2026-03-29T00:30:00Z", true, "2026-03-29T01:00:00Z"),
        Arguments.of("9.20#12 collapsed by the gap", "Sun 02:00-03:00 Europe/Berlin", "2026-03-29T00:59:00Z", false, "2026-04-05T00:00:00Z"),
        Arguments.of("9.20#13 fall back", "Sun 01:00-03:00 Europe/Berlin", "2026-10-25T01:30:00Z", true, "2026-10-25T02:00:00Z"),
        Arguments.of("9.20#14", "mon,wed,FRI 08:00-10:00 America/New_York", "2026-03-04T13:30:00Z", true, "2026-03-04T15:00:00Z"),
        Arguments.of("9.20#15", "Sat,Sun 10:00-14:00 Asia/Tokyo; Mon-Fri 09:00-18:00 Europe/Berlin", "2026-03-07T02:00:00Z", true, "2026-03-07T05:00:00Z"),
        Arguments.of("8.2 24:00 end", "Mon-Fri 09:00-24:00 UTC", "2026-03-02T23:00:00Z", true, "2026-03-03T00:00:00Z"));
  }

  @ParameterizedTest(name = "{0}: {1} at {2}")
  @MethodSource("evaluations")
  void evaluation(String name, String value, String t, boolean active, String next) {
    ActiveSchedule.Evaluation e = ActiveSchedule.parse(value).evaluate(Instant.parse(t));
    assertThat(e.active()).isEqualTo(active);
    assertThat(e.nextTransition().map(Instant::toString).orElse(null)).isEqualTo(next);
  }
}
