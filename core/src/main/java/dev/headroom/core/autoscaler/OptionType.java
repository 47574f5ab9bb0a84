package dev.headroom.core.autoscaler;

import dev.headroom.core.nodegroup.GoDuration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The type of an {@link AutoscalerOption}: how a value is read from text (a flag, a scenario key) and written back
 * (help output, the option table).
 *
 * @param <T> the value type
 */
public final class OptionType<T> {

  /** A Go duration ({@code 10s}, {@code 1h30m}), the upstream flags' syntax. */
  public static final OptionType<Duration> DURATION =
      new OptionType<>("duration", "DURATION", Duration.class, text -> GoDuration.parse(text.trim()), GoDuration::format);
  /** {@code true} or {@code false}, exactly. */
  public static final OptionType<Boolean> BOOLEAN = new OptionType<>("boolean", "BOOL", Boolean.class, text -> {
    if (!text.equals("true") && !text.equals("false")) {
      throw new IllegalArgumentException("must be true or false");
    }
    return Boolean.parseBoolean(text);
  }, String::valueOf);
  /** A 32-bit integer. */
  public static final OptionType<Integer> INT = new OptionType<>("int", "N", Integer.class, text -> {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
    }
  }, String::valueOf);
  /** A 64-bit integer. */
  public static final OptionType<Long> LONG = new OptionType<>("long", "N", Long.class, text -> {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer");
    }
  }, String::valueOf);
  /** A finite number (a ratio). */
  public static final OptionType<Double> DOUBLE = new OptionType<>("double", "RATIO", Double.class, text -> {
    double d;
    try {
      d = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a number");
    }
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("expected a finite number");
    }
    return d;
  }, String::valueOf);
  /** Text (surrounding blanks dropped), for example a comma-separated list of names. */
  public static final OptionType<String> STRING = new OptionType<>("string", "NAMES", String.class, String::trim, s -> s);
  /** The priority expander's priorities (priority → group name patterns); set from code only. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static final OptionType<Map<Integer, List<String>>> PRIORITIES = new OptionType<>("priorities", "PRIORITIES",
      (Class<Map<Integer, List<String>>>) (Class) Map.class, text -> {
        throw new IllegalArgumentException("cannot be set from text");
      }, String::valueOf);

  private final String name;
  private final String label;
  private final Class<T> javaType;
  private final Function<String, T> parse;
  private final Function<T, String> format;

  private OptionType(String name, String label, Class<T> javaType, Function<String, T> parse, Function<T, String> format) {
    this.name = name;
    this.label = label;
    this.javaType = javaType;
    this.parse = parse;
    this.format = format;
  }

  /** The type's name in the option table ({@code duration}, {@code boolean}, …). */
  public String name() {
    return name;
  }

  /** The parameter label in help output ({@code DURATION}, {@code BOOL}, {@code N}, …). */
  public String label() {
    return label;
  }

  /** False for a type that only code can set ({@link #PRIORITIES}). */
  public boolean textual() {
    return this != PRIORITIES;
  }

  /**
   * The value {@code text} stands for.
   *
   * @throws IllegalArgumentException saying what is wrong with the text
   */
  public T parse(String text) {
    return parse.apply(text);
  }

  /** The value as text, the way {@link #parse} reads it. */
  public String format(T value) {
    return format.apply(value);
  }

  /** {@code value} as this type, or a {@link ClassCastException}. */
  T cast(Object value) {
    return javaType.cast(value);
  }

  @Override
  public String toString() {
    return name;
  }
}
