package dev.headroom.core.autoscaler;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One autoscaler option, as a typed constant of {@link AutoscalerOptions}: its key (the kebab-case flag name of
 * {@code headroom run}, the upstream Cluster Autoscaler's spelling where it has the flag), its name (the camelCase
 * record component and scenario-file key), its type, default and description. Everything that names options — the
 * builder, the CLI flags, the scenario parser, the option table in {@code docs/options.md} — works from these.
 *
 * @param <T> the value type
 */
public final class AutoscalerOption<T> {

  private final String key;
  private final String name;
  private final OptionType<T> type;
  private final T defaultValue;
  private final String description;
  private final Function<AutoscalerOptions, T> accessor;
  private final Consumer<T> check;

  AutoscalerOption(String key, String name, OptionType<T> type, T defaultValue, Function<AutoscalerOptions, T> accessor,
      Consumer<T> check, String description) {
    this.key = Objects.requireNonNull(key);
    this.name = Objects.requireNonNull(name);
    this.type = Objects.requireNonNull(type);
    this.defaultValue = Objects.requireNonNull(defaultValue);
    this.accessor = Objects.requireNonNull(accessor);
    this.check = Objects.requireNonNull(check);
    this.description = Objects.requireNonNull(description);
  }

  /** The flag name without {@code --} ({@code scan-interval}). */
  public String key() {
    return key;
  }

  /** The record component and scenario-file key ({@code scanInterval}). */
  public String name() {
    return name;
  }

  public OptionType<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** The default as text ({@link OptionType#format}). */
  public String defaultText() {
    return type.format(defaultValue);
  }

  /** One line for help output and the option table: what the option does. */
  public String description() {
    return description;
  }

  /** This option's value in {@code options}. */
  public T get(AutoscalerOptions options) {
    return accessor.apply(options);
  }

  /**
   * {@code value}, checked against the option's own limits (for example the shortest {@code scan-interval}); null
   * stays null (the record's constructor gives text options their default).
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  T checked(T value) {
    if (value != null) {
      check.accept(value);
    }
    return value;
  }

  @Override
  public String toString() {
    return key;
  }
}
