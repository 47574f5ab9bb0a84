package dev.headroom.controller.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * One JSON object per line: {@code time}, {@code level}, {@code logger}, {@code thread}, {@code msg}, the MDC
 * entries, and {@code error} (the stack trace) when a throwable is attached.
 */
public final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {

  @Override
  public byte[] headerBytes() {
    return null;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    StringBuilder sb = new StringBuilder(256);
    sb.append('{');
    field(sb, "time", Instant.ofEpochMilli(event.getTimeStamp()).toString()).append(',');
    field(sb, "level", event.getLevel().toString()).append(',');
    field(sb, "logger", event.getLoggerName()).append(',');
    field(sb, "thread", event.getThreadName()).append(',');
    field(sb, "msg", event.getFormattedMessage());
    Map<String, String> mdc = event.getMDCPropertyMap();
    if (mdc != null) {
      for (Map.Entry<String, String> e : mdc.entrySet()) {
        sb.append(',');
        field(sb, e.getKey(), e.getValue());
      }
    }
    IThrowableProxy error = event.getThrowableProxy();
    if (error != null) {
      sb.append(',');
      field(sb, "error", ThrowableProxyUtil.asString(error));
    }
    sb.append("}\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public byte[] footerBytes() {
    return null;
  }

  private static StringBuilder field(StringBuilder sb, String name, String value) {
    quote(sb, name);
    sb.append(':');
    if (value == null) {
      return sb.append("null");
    }
    return quote(sb, value);
  }

  /** Appends {@code s} as a JSON string literal. */
  static StringBuilder quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"');
  }
}
