package dev.headroom.sim.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.buffer.ActiveSchedule;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.sim.scenario.Scenario;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HourlyScheduleTest {

  static final KubernetesSerialization YAML = new KubernetesSerialization();

  static Scenario.Workload workload(String name) {
    return new Scenario.Workload(name, "shop", 2, 0, Duration.ofSeconds(5), new PodSpec(),
        new Scenario.Load(new dev.headroom.sim.scenario.LoadProfile.Constant(1), 1, 0), new Scenario.Fixed());
  }

  /** The YAML printed for a schedule, parsed back and read by core's ActiveSchedule, gives the intended sizes. */
  @Test
  void thePrintedScheduleParsedByCoreGivesTheIntendedSizeAtEveryHour() {
    SplittableRandom random = new SplittableRandom(17);
    List<Scenario.Workload> targets = List.of(workload("web"), workload("api"));
    for (int trial = 0; trial < 12; trial++) {
      int[] sizes = new int[24];
      int[] grid = {0, 5, 10, 20, 30};
      for (int h = 0; h < 24; h++) {
        sizes[h] = trial == 0 ? 20 : grid[random.nextInt(grid.length)];
      }
      StringBuilder yaml = new StringBuilder();
      for (CapacityBuffer b : HourlySchedule.buffers(targets, HourlySchedule.Calendar.DAILY, sizes)) {
        yaml.append(YAML.asYaml(b));
      }
      List<CapacityBuffer> parsed = new ArrayList<>();
      for (String doc : yaml.toString().split("(?m)^---\\s*$")) {
        if (!doc.isBlank()) {
          parsed.add(YAML.unmarshal(doc, CapacityBuffer.class));
        }
      }
      for (String w : List.of("web", "api")) {
        for (int day = 0; day < 7; day += 3) {
          for (int h = 0; h < 24; h++) {
            Instant at = Instant.parse("2026-01-05T00:30:00Z").plus(Duration.ofDays(day)).plus(Duration.ofHours(h));
            List<Integer> active = new ArrayList<>();
            for (CapacityBuffer b : parsed) {
              if (!b.getSpec().getScalableRef().getName().equals(w)) {
                continue;
              }
              String annotation = b.getMetadata().getAnnotations() == null ? null
                  : b.getMetadata().getAnnotations().get(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE);
              if (annotation == null || ActiveSchedule.parse(annotation).evaluate(at).active()) {
                active.add(b.getSpec().getPercentage());
              }
            }
            assertThat(active).as("trial %d, %s, day %d, hour %d", trial, w, day, h)
                .isEqualTo(sizes[h] == 0 ? List.of() : List.of(sizes[h]));
          }
        }
      }
    }
  }

  @Test
  void consecutiveHoursOfOneSizeAreOneWindow() {
    int[] sizes = new int[24];
    for (int h = 8; h < 20; h++) {
      sizes[h] = 30;
    }
    sizes[20] = 10;
    sizes[23] = 10;
    assertThat(HourlySchedule.windows(HourlySchedule.Calendar.DAILY, sizes)).containsExactly(
        java.util.Map.entry(10, "Mon-Sun 20:00-21:00 UTC; Mon-Sun 23:00-24:00 UTC"),
        java.util.Map.entry(30, "Mon-Sun 08:00-20:00 UTC"));
  }

  @Test
  void eachHourHoldsTheNextHoursSizeAcrossMidnight() {
    int[] sizes = new int[24];
    sizes[0] = 20;
    sizes[9] = 10;
    int[] ahead = HourlySchedule.aheadOfDemand(HourlySchedule.Calendar.DAILY, sizes);
    assertThat(ahead[23]).isEqualTo(20);
    assertThat(ahead[0]).isEqualTo(20);
    assertThat(ahead[8]).isEqualTo(10);
    assertThat(ahead[9]).isEqualTo(10);
    assertThat(ahead[10]).isZero();
  }

  /** Weekdays and weekends apart: what core reads back from the printed annotations, at every hour of two weeks. */
  @Test
  void aWeekdayWeekendScheduleParsedByCoreGivesTheIntendedSizeAtEveryHourOfTheWeek() {
    HourlySchedule.Calendar c = HourlySchedule.Calendar.WEEKDAY_WEEKEND;
    SplittableRandom random = new SplittableRandom(23);
    List<Scenario.Workload> targets = List.of(workload("web"));
    int[] grid = {0, 10, 20, 30};
    for (int trial = 0; trial < 10; trial++) {
      int[] sizes = new int[48];
      for (int h = 0; h < 48; h++) {
        // runs of equal sizes, and in some trials weekends equal to weekdays, so that Mon-Sun windows occur
        sizes[h] = h > 0 && random.nextInt(3) > 0 ? sizes[h - 1] : grid[random.nextInt(grid.length)];
      }
      if (trial % 3 == 0) {
        System.arraycopy(sizes, 0, sizes, 24, 24);
      }
      List<CapacityBuffer> parsed = new ArrayList<>();
      for (CapacityBuffer b : HourlySchedule.buffers(targets, c, sizes)) {
        parsed.add(YAML.unmarshal(YAML.asYaml(b), CapacityBuffer.class));
      }
      for (int hour = 0; hour < 14 * 24; hour++) {
        long millis = hour * 3_600_000L + 30 * 60_000L;
        Instant at = dev.headroom.sim.engine.VirtualClock.at(millis);
        List<Integer> active = new ArrayList<>();
        for (CapacityBuffer b : parsed) {
          String annotation = b.getMetadata().getAnnotations() == null ? null
              : b.getMetadata().getAnnotations().get(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE);
          if (annotation == null || ActiveSchedule.parse(annotation).evaluate(at).active()) {
            active.add(b.getSpec().getPercentage());
          }
        }
        int slot = c.slot(millis);
        assertThat(slot).isEqualTo((at.atZone(java.time.ZoneOffset.UTC).getDayOfWeek().getValue() >= 6 ? 24 : 0) + hour % 24);
        assertThat(active).as("trial %d, %s", trial, at).isEqualTo(sizes[slot] == 0 ? List.of() : List.of(sizes[slot]));
      }
    }
  }

  @Test
  void weekdayAndWeekendHoursOfOneSizeShareAWindowWhenTheyMatch() {
    int[] sizes = new int[48];
    for (int h = 8; h < 18; h++) {
      sizes[h] = 30; // weekdays 08-18
    }
    for (int h = 18; h < 20; h++) {
      sizes[h] = 10;
      sizes[24 + h] = 10; // every day 18-20
    }
    for (int h = 10; h < 14; h++) {
      sizes[24 + h] = 10; // weekends 10-14
    }
    assertThat(HourlySchedule.windows(HourlySchedule.Calendar.WEEKDAY_WEEKEND, sizes)).containsExactly(
        java.util.Map.entry(10, "Sat-Sun 10:00-14:00 UTC; Mon-Sun 18:00-20:00 UTC"),
        java.util.Map.entry(30, "Mon-Fri 08:00-18:00 UTC"));
  }

  @Test
  void theLastHourOfADayHoldsTheFirstHourOfEitherKindOfDay() {
    HourlySchedule.Calendar c = HourlySchedule.Calendar.WEEKDAY_WEEKEND;
    int[] sizes = new int[48];
    sizes[24] = 20; // weekend 00:00: Friday 23:00 and Sunday 23:00 come before it, and so does weekday 23:00
    sizes[5] = 10;
    int[] ahead = HourlySchedule.aheadOfDemand(c, sizes);
    assertThat(ahead[23]).isEqualTo(20);
    assertThat(ahead[47]).isEqualTo(20);
    assertThat(ahead[4]).isEqualTo(10);
    assertThat(ahead[28]).isZero();
    assertThat(ahead[22]).isZero();
  }

  @Test
  void weekendsApartNeedAScenarioThatReachesSaturday() {
    Scenario day = dev.headroom.sim.scenario.DefaultScenario.load();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> HourlySchedule.Calendar.WEEKDAY_WEEKEND.check(day))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 5 days");
    HourlySchedule.Calendar.DAILY.check(day);
    assertThat(HourlySchedule.Calendar.of("weekday-weekend")).isEqualTo(HourlySchedule.Calendar.WEEKDAY_WEEKEND);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> HourlySchedule.Calendar.of("weekly"))
        .hasMessage("unknown calendar \"weekly\" (use daily or weekday-weekend)");
  }
}
