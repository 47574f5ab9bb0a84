package dev.headroom.controller.logging;

import java.util.Locale;

/** Log line format of {@code headroom run}: JSON lines for collectors, text for terminals. */
public enum LogFormat {
  JSON,
  TEXT;

  /** Parses {@code json} or {@code text} (case-insensitive). */
  public static LogFormat parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
