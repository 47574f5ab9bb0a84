package dev.headroom.core.buffer;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * [H-EXT] A parsed {@code headroom.dev/active-schedule} annotation (spec §8.2): weekly windows in IANA time
 * zones, e.g. {@code Mon-Fri 09:00-18:00 Europe/Berlin; Sat 10:00-14:00 UTC}.
 */
public final class ActiveSchedule {

  /** One window: days, start and end minute of the day (end 1440 = {@code 24:00}), zone. */
  public record Window(Set<DayOfWeek> days, int startMinute, int endMinute, ZoneId zone) {}

  /** Activity at an instant and the next instant at which it changes (empty: none within the horizon). */
  public record Evaluation(boolean active, Optional<Instant> nextTransition) {}

  private static final Pattern TIMES = Pattern.compile("(\\d{2}):(\\d{2})-(\\d{2}):(\\d{2})");
  private static final List<String> DAY_NAMES = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");
  private static final Duration NO_END = Duration.ofDays(7);

  private final List<Window> windows;

  private ActiveSchedule(List<Window> windows) {
    this.windows = List.copyOf(windows);
  }

  /** The windows, in annotation order. */
  public List<Window> windows() {
    return windows;
  }

  /**
   * Parses an annotation value.
   *
   * @throws IllegalArgumentException with a one-line detail when the value is invalid
   */
  public static ActiveSchedule parse(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("the schedule is empty");
    }
    List<Window> windows = new ArrayList<>();
    String[] parts = value.strip().split(";", -1);
    for (int i = 0; i < parts.length; i++) {
      windows.add(parseWindow(parts[i].strip(), i + 1));
    }
    return new ActiveSchedule(windows);
  }

  private static Window parseWindow(String text, int index) {
    String where = "window " + index;
    if (text.isEmpty()) {
      throw new IllegalArgumentException(where + " is empty");
    }
    String[] parts = text.split("[ \\t]+");
    if (parts.length != 3) {
      throw new IllegalArgumentException(where + " \"" + text + "\" must be \"<days> <HH:MM>-<HH:MM> <zone>\"");
    }
    Set<DayOfWeek> days = parseDays(parts[0], where);
    Matcher m = TIMES.matcher(parts[1]);
    if (!m.matches()) {
      throw new IllegalArgumentException(where + ": times \"" + parts[1] + "\" must be HH:MM-HH:MM");
    }
    int start = minute(m.group(1), m.group(2), false, where);
    int end = minute(m.group(3), m.group(4), true, where);
    if (start == end) {
      throw new IllegalArgumentException(where + ": start and end are both " + parts[1].substring(0, 5));
    }
    if (!ZoneId.getAvailableZoneIds().contains(parts[2])) {
      throw new IllegalArgumentException(where + ": unknown time zone \"" + parts[2] + "\" (use a region ID such as Europe/Berlin or UTC)");
    }
    return new Window(days, start, end, ZoneId.of(parts[2]));
  }

  private static Set<DayOfWeek> parseDays(String text, String where) {
    Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
    for (String item : text.split(",", -1)) {
      int dash = item.indexOf('-');
      if (dash < 0) {
        days.add(day(item, where));
      } else {
        DayOfWeek from = day(item.substring(0, dash), where);
        DayOfWeek to = day(item.substring(dash + 1), where);
        for (DayOfWeek d = from; ; d = d.plus(1)) {
          days.add(d);
          if (d == to) {
            break;
          }
        }
      }
    }
    return days;
  }

  private static DayOfWeek day(String text, String where) {
    int i = DAY_NAMES.indexOf(text.toLowerCase(Locale.ROOT));
    if (i < 0) {
      throw new IllegalArgumentException(where + ": unknown day \"" + text + "\" (use Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
    }
    return DayOfWeek.of(i + 1);
  }

  private static int minute(String hh, String mm, boolean end, String where) {
    int h = Integer.parseInt(hh);
    int m = Integer.parseInt(mm);
    if (h == 24 && m == 0) {
      if (!end) {
        throw new IllegalArgumentException(where + ": a window cannot start at 24:00");
      }
      return 24 * 60;
    }
    if (h > 23 || m > 59) {
      throw new IllegalArgumentException(where + ": invalid time " + hh + ":" + mm);
    }
    return h * 60 + m;
  }

  /** Whether the schedule is active at {@code t}, and its next transition (§8.2 semantics). */
  public Evaluation evaluate(Instant t) {
    List<Instant[]> intervals = new ArrayList<>();
    for (Window w : windows) {
      LocalDate today = t.atZone(w.zone()).toLocalDate();
      for (LocalDate d = today.minusDays(1); !d.isAfter(today.plusDays(8)); d = d.plusDays(1)) {
        if (!w.days().contains(d.getDayOfWeek())) {
          continue;
        }
        Instant start = at(d, w.startMinute(), w.zone());
        Instant end = w.endMinute() > w.startMinute() ? at(d, w.endMinute(), w.zone()) : at(d.plusDays(1), w.endMinute(), w.zone());
        if (end.isAfter(start)) {
          intervals.add(new Instant[] {start, end});
        }
      }
    }
    intervals.sort(Comparator.comparing((Instant[] i) -> i[0]));
    List<Instant[]> merged = new ArrayList<>();
    for (Instant[] i : intervals) {
      Instant[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && !i[0].isAfter(last[1])) {
        if (i[1].isAfter(last[1])) {
          last[1] = i[1];
        }
      } else {
        merged.add(new Instant[] {i[0], i[1]});
      }
    }
    for (Instant[] i : merged) {
      if (!t.isBefore(i[0]) && t.isBefore(i[1])) {
        boolean noEnd = !Duration.between(t, i[1]).minus(NO_END).isNegative();
        return new Evaluation(true, noEnd ? Optional.empty() : Optional.of(i[1]));
      }
    }
    Instant horizon = t.plus(Duration.ofDays(8));
    for (Instant[] i : merged) {
      if (i[0].isAfter(t) && !i[0].isAfter(horizon)) {
        return new Evaluation(false, Optional.of(i[0]));
      }
    }
    return new Evaluation(false, Optional.empty());
  }

  private static Instant at(LocalDate date, int minute, ZoneId zone) {
    LocalDate d = minute == 24 * 60 ? date.plusDays(1) : date;
    LocalTime time = minute == 24 * 60 ? LocalTime.MIDNIGHT : LocalTime.of(minute / 60, minute % 60);
    return ZonedDateTime.of(d, time, zone).toInstant();
  }
}
