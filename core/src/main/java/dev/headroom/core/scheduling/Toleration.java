package dev.headroom.core.scheduling;

/**
 * A compiled toleration. It matches a taint when (key equal, or key empty with {@code Exists}), and
 * ({@code Exists}, or {@code Equal}/empty operator with equal value), and (effect empty or equal).
 */
public record Toleration(String key, boolean exists, String value, String effect) {

  public Toleration {
    key = key == null ? "" : key;
    value = value == null ? "" : value;
    effect = effect == null ? "" : effect;
  }

  /** True when this toleration tolerates the taint. */
  public boolean tolerates(Taint taint) {
    if (!effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    if (key.isEmpty()) {
      if (!exists) {
        return false;
      }
    } else if (!key.equals(taint.key())) {
      return false;
    }
    return exists || value.equals(taint.value());
  }
}
