package dev.headroom.controller.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.io.OutputStream;
import org.slf4j.LoggerFactory;

/** Configures logback for {@code headroom run}: one appender on stdout, JSON lines or text. */
public final class Logging {
  private static final String TEXT_PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n";

  private Logging() {}

  /** Replaces the logging configuration; library loggers (fabric8, vert.x, netty) log warnings only. */
  public static void configure(LogFormat format, Level level) {
    configure(format, level, null);
  }

  /** As {@link #configure(LogFormat, Level)}, writing to {@code target} instead of stdout (tests). */
  public static void configure(LogFormat format, Level level, OutputStream target) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
      return;
    }
    ctx.reset();
    Encoder<ILoggingEvent> encoder;
    if (format == LogFormat.JSON) {
      encoder = new JsonLineEncoder();
    } else {
      PatternLayoutEncoder pattern = new PatternLayoutEncoder();
      pattern.setPattern(TEXT_PATTERN);
      encoder = pattern;
    }
    encoder.setContext(ctx);
    encoder.start();
    OutputStreamAppender<ILoggingEvent> appender;
    if (target != null) {
      appender = new OutputStreamAppender<>();
      appender.setOutputStream(target);
    } else {
      ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
      console.setTarget("System.out");
      appender = console;
    }
    appender.setContext(ctx);
    appender.setName("stdout");
    appender.setEncoder(encoder);
    appender.start();
    Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(level);
    root.addAppender(appender);
    for (String noisy : new String[] {"io.fabric8", "io.vertx", "io.netty"}) {
      ctx.getLogger(noisy).setLevel(Level.WARN);
    }
    // These two log every retry of an expected API error (a refused connection, a 403, a dropped watch) at WARN with
    // a stack trace; ApiHealth reports each such problem in one line instead, and they still log what is unexpected.
    for (String retries : new String[] {"io.fabric8.kubernetes.client.informers.impl.cache.Reflector",
        "io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector"}) {
      ctx.getLogger(retries).setLevel(Level.ERROR);
    }
  }
}
