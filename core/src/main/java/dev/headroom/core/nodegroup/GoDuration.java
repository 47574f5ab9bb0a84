package dev.headroom.core.nodegroup;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration strings in the grammar of Go's {@code time.ParseDuration}: one or more {@code <decimal><unit>}
 * pairs with units {@code ns}, {@code us}/{@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}, plus {@code d}
 * (24h, which Go lacks); a bare {@code 0} is allowed. Negative durations are rejected (node-group fields and options
 * are never negative), and so is anything longer than Go's largest duration ({@link #MAX}, about 106751 days).
 */
public final class GoDuration {

  private static final Pattern PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h|d)");
  /** The longest duration (Go's {@code math.MaxInt64} nanoseconds, 2562047h47m16.854775807s). */
  public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);
  private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final Pattern PART_WITH_DAYS = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h|d|w)");

  private GoDuration() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException with a message naming the offending text
   */
  public static Duration parse(String text) {
    return parse(text, PART);
  }

  /**
   * Parses a duration that may also use Prometheus' day and week units, {@code d} (24h) and {@code w} (7d), as in
   * {@code 7d} or {@code 1d12h}: for scenario files, whose time spans are days, not for Go-typed fields.
   *
   * @throws IllegalArgumentException with a message naming the offending text
   */
  public static Duration parseWithDays(String text) {
    return parse(text, PART_WITH_DAYS);
  }

  private static Duration parse(String text, Pattern part) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("invalid duration \"\"");
    }
    String s = text;
    if (s.startsWith("-")) {
      throw new IllegalArgumentException("negative duration \"" + text + "\" is not allowed");
    }
    if (s.startsWith("+")) {
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = part.matcher(s);
    int pos = 0;
    BigDecimal nanos = BigDecimal.ZERO;
    while (pos < s.length()) {
      if (!m.find(pos) || m.start() != pos) {
        throw new IllegalArgumentException("invalid duration \"" + shorten(text) + "\"");
      }
      String number = m.group(1);
      if (number.isEmpty() || number.equals(".")) {
        throw new IllegalArgumentException("invalid duration \"" + shorten(text) + "\"");
      }
      String whole = number.replaceFirst("^0+(?=[0-9])", "");
      if (whole.indexOf('.') > 20 || (whole.indexOf('.') < 0 && whole.length() > 20)) {
        throw new IllegalArgumentException("duration \"" + shorten(text) + "\" is too long (the maximum is 2562047h, about 106751d)");
      }
      nanos = nanos.add(new BigDecimal(number.length() > 60 ? number.substring(0, 60) : number).multiply(unitNanos(m.group(2))));
      if (nanos.compareTo(MAX_NANOS) > 0) {
        throw new IllegalArgumentException("duration \"" + shorten(text) + "\" is too long (the maximum is 2562047h, about 106751d)");
      }
      pos = m.end();
    }
    return Duration.ofNanos(nanos.setScale(0, RoundingMode.DOWN).longValueExact());
  }

  private static String shorten(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }

  private static BigDecimal unitNanos(String unit) {
    return switch (unit) {
      case "ns" -> BigDecimal.ONE;
      case "us", "µs", "μs" -> BigDecimal.valueOf(1_000L);
      case "ms" -> BigDecimal.valueOf(1_000_000L);
      case "s" -> BigDecimal.valueOf(1_000_000_000L);
      case "m" -> BigDecimal.valueOf(60_000_000_000L);
      case "d" -> BigDecimal.valueOf(86_400_000_000_000L);
      case "w" -> BigDecimal.valueOf(604_800_000_000_000L);
      default -> BigDecimal.valueOf(3_600_000_000_000L);
    };
  }

  /** Formats like Go's {@code Duration.String()} for whole seconds and above ({@code 1h30m0s}, {@code 90s} → {@code 1m30s}). */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    long h = d.toHours();
    long m = d.toMinutesPart();
    long s = d.toSecondsPart();
    long ms = d.toMillisPart();
    if (h > 0) {
      sb.append(h).append('h');
    }
    if (h > 0 || m > 0) {
      sb.append(m).append('m');
    }
    if (ms == 0) {
      sb.append(s).append('s');
    } else {
      sb.append(BigDecimal.valueOf(s * 1000 + ms, 3).stripTrailingZeros().toPlainString()).append('s');
    }
    return sb.toString();
  }
}
