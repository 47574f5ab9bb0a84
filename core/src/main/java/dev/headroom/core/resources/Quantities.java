package dev.headroom.core.resources;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * Exact Kubernetes quantity arithmetic.
 *
 * <p>Every amount in Headroom's core is a {@code long} in <em>milli-units</em> of the resource's base unit
 * (millicores for cpu, milli-bytes for memory and storage, milli-items for extended resources and pods),
 * computed like Go's {@code Quantity.MilliValue()}: rounded away from zero, saturating at the int64 range.
 * One unit for every resource keeps buffer limits, quota arithmetic and scheduler fit checks on the same
 * numbers.
 */
public final class Quantities {

  /** The quantity grammar of the Kubernetes API (the CRD's pattern), anchored. */
  public static final Pattern QUANTITY_PATTERN =
      Pattern.compile(
          "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$");

  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private Quantities() {}

  /** True when the text is a syntactically valid Kubernetes quantity. */
  public static boolean isValid(String text) {
    return text != null && QUANTITY_PATTERN.matcher(text.trim()).matches();
  }

  /**
   * The exact numeric value in base units.
   *
   * @throws IllegalArgumentException when the text is not a quantity
   */
  public static BigDecimal value(String text) {
    if (!isValid(text)) {
      throw new IllegalArgumentException("quantities must match the regular expression '" + QUANTITY_PATTERN.pattern() + "'");
    }
    String s = text.trim();
    int e = indexOfExponent(s);
    if (e >= 0) {
      String exponent = s.substring(e + 1);
      try {
        return new BigDecimal(s.substring(0, e)).scaleByPowerOfTen(Integer.parseInt(exponent));
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException("unsupported quantity exponent '" + exponent + "'");
      }
    }
    int split = s.length();
    while (split > 0 && Character.isLetter(s.charAt(split - 1))) {
      split--;
    }
    return new BigDecimal(s.substring(0, split)).multiply(multiplier(s.substring(split)));
  }

  private static int indexOfExponent(String s) {
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if ((c == 'e' || c == 'E') && i + 1 < s.length()) {
        char next = s.charAt(i + 1);
        if (Character.isDigit(next) || next == '+' || next == '-' || next == '.') {
          return i;
        }
      }
    }
    return -1;
  }

  private static BigDecimal multiplier(String suffix) {
    return switch (suffix) {
      case "" -> BigDecimal.ONE;
      case "n" -> new BigDecimal("1e-9");
      case "u" -> new BigDecimal("1e-6");
      case "m" -> new BigDecimal("1e-3");
      case "k" -> new BigDecimal("1e3");
      case "M" -> new BigDecimal("1e6");
      case "G" -> new BigDecimal("1e9");
      case "T" -> new BigDecimal("1e12");
      case "P" -> new BigDecimal("1e15");
      case "E" -> new BigDecimal("1e18");
      case "Ki" -> BigDecimal.valueOf(1L << 10);
      case "Mi" -> BigDecimal.valueOf(1L << 20);
      case "Gi" -> BigDecimal.valueOf(1L << 30);
      case "Ti" -> BigDecimal.valueOf(1L << 40);
      case "Pi" -> BigDecimal.valueOf(1L << 50);
      case "Ei" -> BigDecimal.valueOf(1L << 60);
      default -> throw new IllegalArgumentException("unknown quantity suffix '" + suffix + "'");
    };
  }

  /** {@code value × 1000} rounded away from zero, saturated to the int64 range. */
  public static long milli(BigDecimal value) {
    BigInteger m = value.multiply(THOUSAND).setScale(0, RoundingMode.UP).toBigInteger();
    if (m.compareTo(LONG_MAX) > 0) {
      return Long.MAX_VALUE;
    }
    if (m.compareTo(LONG_MIN) < 0) {
      return Long.MIN_VALUE;
    }
    return m.longValue();
  }

  /** Milli-value of a quantity string. */
  public static long milli(String text) {
    Long known = MILLI_CACHE.get(text);
    if (known != null) {
      return known;
    }
    long m = milli(value(text));
    if (MILLI_CACHE.size() < MILLI_CACHE_LIMIT) {
      MILLI_CACHE.put(text, m);
    }
    return m;
  }

  /**
   * Memo of {@link #milli(String)} for valid texts (a pure function; clusters use few distinct quantity
   * strings, so parsing every pod's requests again is the main cost of compiling many pods). Bounded: once full,
   * new texts are parsed every time.
   */
  private static final java.util.concurrent.ConcurrentHashMap<String, Long> MILLI_CACHE = new java.util.concurrent.ConcurrentHashMap<>();

  private static final int MILLI_CACHE_LIMIT = 8192;

  /** Milli-value of a fabric8 quantity (amount and format are re-read as one string). */
  public static long milli(Quantity q) {
    return milli(text(q));
  }

  /** The quantity as the API would print it (amount followed by format). */
  public static String text(Quantity q) {
    String amount = q.getAmount() == null ? "" : q.getAmount();
    String format = q.getFormat() == null ? "" : q.getFormat();
    return amount + format;
  }

  /** Saturating addition. */
  public static long add(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /**
   * Renders a milli-amount as a canonical quantity string for resource {@code name}: cpu in cores or
   * millicores, byte-like resources in binary suffixes when exact, anything else in decimal form.
   */
  public static String format(String name, long milli) {
    if (milli % 1000 != 0) {
      return milli + "m";
    }
    long units = milli / 1000;
    if (!"cpu".equals(name) && units != 0) {
      String[] suffixes = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
      int[] shifts = {60, 50, 40, 30, 20, 10};
      for (int i = 0; i < suffixes.length; i++) {
        long unit = 1L << shifts[i];
        if (units % unit == 0) {
          return (units / unit) + suffixes[i];
        }
      }
    }
    return Long.toString(units);
  }
}
